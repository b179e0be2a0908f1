package dev.moviegraph.graphql.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.auth.Viewer;
import dev.moviegraph.catalog.Owned;

import java.util.List;
import java.util.Map;
import java.util.Set;

import graphql.ExecutionInput;
import graphql.ExecutionResult;
import graphql.GraphQL;
import graphql.schema.GraphQLSchema;
import graphql.schema.idl.RuntimeWiring;
import graphql.schema.idl.SchemaGenerator;
import graphql.schema.idl.SchemaParser;
import org.junit.jupiter.api.Test;

/**
 * The start-up check names every field that should carry an {@code @auth} rule and does not, and the
 * owner rule answers an owned object's fields to its owner only, before their fetchers run.
 */
class AuthRulesTest {
    private static final String DIRECTIVE = """
            directive @auth(requires: AuthRole = VIEWER, owner: Boolean = false) on FIELD_DEFINITION | OBJECT
            enum AuthRole { VIEWER EDITOR }
            """;

    private record Diary(String ownerId, String secret) implements Owned {
    }

    private static GraphQLSchema schema(String sdl, RuntimeWiring wiring) {
        return new SchemaGenerator().makeExecutableSchema(new SchemaParser().parse(DIRECTIVE + sdl), wiring);
    }

    @Test
    void aMutationWithoutARuleIsNamed() {
        GraphQLSchema schema = schema("""
                type Query { a: Int }
                type Mutation { guarded: Int @auth(requires: EDITOR) open: Int }
                """, RuntimeWiring.MOCKED_WIRING);
        assertEquals(List.of("Mutation.open has no @auth rule: every mutation needs one (on the field or on Mutation)"),
                AuthRules.problems(schema));
    }

    @Test
    void aRuleOnTheMutationTypeCoversEveryMutation() {
        GraphQLSchema schema = schema("""
                type Query { a: Int }
                type Mutation @auth(requires: EDITOR) { one: Int two: Int }
                """, RuntimeWiring.MOCKED_WIRING);
        assertEquals(List.of(), AuthRules.problems(schema));
    }

    @Test
    void aFieldReturningAViewersTypeWithoutARuleIsNamed() {
        GraphQLSchema schema = schema("""
                type Query { mine: Diary @auth(requires: VIEWER) leak: [Diary!] }
                type Diary @auth(owner: true) { secret: String }
                """, RuntimeWiring.MOCKED_WIRING);
        List<String> problems = AuthRules.problems(schema);
        assertEquals(1, problems.size(), problems.toString());
        assertTrue(problems.get(0).startsWith("Query.leak returns Diary"), problems.get(0));
    }

    @Test
    void anOwnedObjectAnswersItsOwnerOnly() {
        GraphQLSchema schema = AuthRules.enforceOwners(schema("""
                type Query { diary: Diary }
                type Diary @auth(owner: true) { secret: String }
                """, RuntimeWiring.newRuntimeWiring()
                .type("Query", type -> type.dataFetcher("diary", env -> new Diary("alice", "rosebud"))).build()));
        GraphQL graphql = GraphQL.newGraphQL(schema).build();

        assertEquals(Map.of("diary", Map.of("secret", "rosebud")),
                run(graphql, new Viewer("alice", Set.of(), null)).getData());
        ExecutionResult other = run(graphql, new Viewer("bob", Set.of(), null));
        assertEquals(Map.of("diary", java.util.Collections.singletonMap("secret", null)), other.getData());
        assertEquals("FORBIDDEN", other.getErrors().get(0).getErrorType().toString());
        assertTrue(other.getErrors().get(0).getMessage().contains("another viewer"));
        ExecutionResult anonymous = run(graphql, Viewer.ANONYMOUS);
        assertEquals("UNAUTHENTICATED", anonymous.getErrors().get(0).getErrorType().toString());
    }

    private static ExecutionResult run(GraphQL graphql, Viewer viewer) {
        return graphql.execute(ExecutionInput.newExecutionInput().query("{ diary { secret } }")
                .graphQLContext(Map.of(Viewer.class, viewer)).build());
    }
}
