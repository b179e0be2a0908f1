package dev.moviegraph.graphql.wiring;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

import com.apollographql.federation.graphqljava._Any;
import com.apollographql.federation.graphqljava.directives.LinkDirectiveProcessor;
import graphql.Directives;
import graphql.language.DirectiveDefinition;
import graphql.language.EnumTypeDefinition;
import graphql.language.ObjectTypeDefinition;
import graphql.language.SDLNamedDefinition;
import graphql.language.ScalarTypeDefinition;
import graphql.schema.DataFetcher;
import graphql.schema.GraphQLDirective;
import graphql.schema.GraphQLScalarType;
import graphql.schema.GraphQLSchema;
import graphql.schema.idl.RuntimeWiring;
import graphql.schema.idl.SchemaParser;
import graphql.schema.idl.SchemaPrinter;
import graphql.schema.idl.TypeDefinitionRegistry;

/**
 * Makes schema.graphqls an Apollo Federation 2 subgraph, as the Federation spec's subgraph rules say: the
 * definitions of the Federation version its {@code @link} names (the directives it imports, their scalars
 * and enums, from Apollo's federation-graphql-java-support), the {@code _Any} scalar and the {@code _Entity}
 * union of every object type with a {@code @key}, and {@code Query._entities} and {@code Query._service},
 * whose {@code sdl} is the whole schema printed with its applied directives.
 *
 * <p>Why not the library's {@code Federation.transform(...).build()}: Maven Central serves its 6.0.0, built
 * on graphql-java 25, and that method calls two APIs graphql-java 26 removed
 * ({@code GraphQLSchema.Builder.additionalType(GraphQLType)} and {@code graphql.schema.idl.DirectiveInfo}), so it
 * fails at start. 7.0.0, built on 26, is not served. What the library's parts that still run give (the
 * {@code @link} processing, each Federation version's definitions, {@code _Any}'s coercing) is used, and
 * the rest is the few definitions below. FederationSubgraphTest checks what a router relies on.
 */
final class Subgraph {
    /** The Federation definitions that are not the spec's directives: added as the library's build adds them. */
    private static final String ROOT_FIELDS = """
            type _Service {
              sdl: String
            }
            extend type Query {
              _entities(representations: [_Any!]!): [_Entity]!
              _service: _Service!
            }
            """;

    private Subgraph() {
    }

    /**
     * Adds the Federation definitions to {@code registry} and their scalars to {@code wiring}; a schema
     * without a Federation {@code @link} is left as it is (returns {@code wiring}).
     */
    static RuntimeWiring federate(TypeDefinitionRegistry registry, RuntimeWiring wiring) {
        List<SDLNamedDefinition> imported = imported(registry);
        if (imported == null) {
            return wiring;
        }
        RuntimeWiring.Builder scalars = RuntimeWiring.newRuntimeWiring(wiring);
        for (SDLNamedDefinition definition : imported) {
            if (definition instanceof DirectiveDefinition directive) {
                if (registry.getDirectiveDefinition(directive.getName()).isEmpty()) {
                    registry.add(directive);
                }
            } else if (definition instanceof ScalarTypeDefinition scalar) {
                if (!registry.scalars().containsKey(scalar.getName())) {
                    registry.add(scalar);
                }
                // FieldSet and link__Import are strings a router reads; _Any's coercing passes them as given.
                scalars.scalar(GraphQLScalarType.newScalar().name(scalar.getName())
                        .coercing(_Any.type.getCoercing()).build());
            } else if (definition instanceof EnumTypeDefinition enumType && !registry.types().containsKey(enumType.getName())) {
                registry.add(enumType);
            }
        }
        Set<String> entities = registry.getTypes(ObjectTypeDefinition.class).stream()
                .filter(type -> type.hasDirective("key"))
                .map(ObjectTypeDefinition::getName)
                .sorted()
                .collect(Collectors.toCollection(java.util.LinkedHashSet::new));
        if (entities.isEmpty()) {
            throw new IllegalStateException("schema.graphqls links Federation but has no type with a @key");
        }
        registry.merge(new SchemaParser().parse("scalar _Any\nunion _Entity = " + String.join(" | ", entities)
                + "\n" + ROOT_FIELDS));
        scalars.scalar(_Any.type);
        return scalars.build();
    }

    /** The Federation version's definitions that schema.graphqls imports; null without a Federation @link. */
    private static List<SDLNamedDefinition> imported(TypeDefinitionRegistry registry) {
        var definitions = LinkDirectiveProcessor.loadFederationImportedDefinitions(registry);
        return definitions == null ? null : definitions.toList();
    }

    /**
     * The fetcher of {@code _Service.sdl}: the executing schema printed as a Federation 2 subgraph's SDL
     * (the schema definition with its {@code @link}, every type and directive, none of the built-in
     * directives), made once per schema.
     */
    static DataFetcher<String> sdl() {
        ConcurrentHashMap<GraphQLSchema, String> printed = new ConcurrentHashMap<>();
        SchemaPrinter printer = new SchemaPrinter(SchemaPrinter.Options.defaultOptions()
                .includeSchemaDefinition(true)
                .includeScalarTypes(true)
                .includeSchemaElement(element -> !(element instanceof GraphQLDirective directive
                        && Directives.isBuiltInDirective(directive))));
        return env -> printed.computeIfAbsent(env.getGraphQLSchema(), printer::print);
    }
}
