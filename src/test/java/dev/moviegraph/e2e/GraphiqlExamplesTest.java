package dev.moviegraph.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.support.GraphQLClient;
import dev.moviegraph.support.Node;
import dev.moviegraph.support.TestServer;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import graphql.ParseAndValidate;
import graphql.analysis.QueryTraversalOptions;
import graphql.analysis.QueryTraverser;
import graphql.analysis.QueryVisitorFieldEnvironment;
import graphql.analysis.QueryVisitorStub;
import graphql.execution.CoercedVariables;
import graphql.execution.TypeFromAST;
import graphql.language.Argument;
import graphql.language.ArrayValue;
import graphql.language.Document;
import graphql.language.EnumValue;
import graphql.language.ObjectField;
import graphql.language.ObjectValue;
import graphql.language.OperationDefinition;
import graphql.language.Value;
import graphql.language.VariableDefinition;
import graphql.parser.InvalidSyntaxException;
import graphql.parser.Parser;
import graphql.schema.GraphQLArgument;
import graphql.schema.GraphQLEnumType;
import graphql.schema.GraphQLEnumValueDefinition;
import graphql.schema.GraphQLFieldDefinition;
import graphql.schema.GraphQLInputObjectField;
import graphql.schema.GraphQLInputObjectType;
import graphql.schema.GraphQLInputType;
import graphql.schema.GraphQLList;
import graphql.schema.GraphQLSchema;
import graphql.schema.GraphQLTypeUtil;
import graphql.schema.idl.SchemaParser;
import graphql.schema.idl.UnExecutableSchemaGenerator;
import graphql.validation.ValidationError;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * GraphiQL's example tabs show today's API. The real app.js runs in Node with stand-ins for React and
 * GraphiQL; the tabs it hands GraphiQL (and the query of a tab opened with "+") are read back, checked
 * against schema.graphqls (valid, no deprecated field, argument or enum value: GraphiQL underlines those)
 * and run on the sample catalog with the headers their tab sends.
 */
class GraphiqlExamplesTest {
    private static final Path APP_JS = Path.of("src", "main", "resources", "graphiql", "app.js");
    /** The tabs, which the page loads before app.js. */
    private static final Path EXAMPLES_JS = Path.of("src", "main", "resources", "graphiql", "examples.js");
    private static final Path SCHEMA = Path.of("schema.graphqls");
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * Runs examples.js then app.js (paths in EXAMPLES_JS, APP_JS), as the page does, and prints the default tabs
     * and the new tab's query app.js gives GraphiQL.
     */
    private static final String HARNESS = """
            'use strict';
            const fs = require('fs');
            const vm = require('vm');
            let props = null;
            const GraphiQL = function GraphiQL() {};
            GraphiQL.createFetcher = () => () => Promise.resolve({});
            const window = {
              location: { href: 'http://127.0.0.1/graphiql' },
              React: { createElement: (type, p) => ({ type, props: p }) },
              ReactDOM: { createRoot: () => ({ render: (element) => { props = element.props; } }) },
              GraphiQL
            };
            const context = { window, document: { getElementById: () => ({}) }, URL, JSON, Object, Array, Set, Promise };
            vm.createContext(context);
            vm.runInContext(fs.readFileSync(process.env.EXAMPLES_JS, 'utf8'), context);
            vm.runInContext(fs.readFileSync(process.env.APP_JS, 'utf8'), context);
            console.log(JSON.stringify({ tabs: props.defaultTabs, defaultQuery: props.defaultQuery }));
            """;

    /** One example: a default tab (with its headers) or the query of a new tab (headers null). */
    private record Example(String label, String query, String headers) {
    }

    /** What an example selects or passes (Type.field, Type.field(argument:), Enum.VALUE), and whether it is deprecated. */
    private record Use(String coordinate, boolean deprecated) {
    }

    private static List<Example> tabs;
    private static List<Example> examples;
    private static GraphQLSchema schema;

    @BeforeAll
    static void readTheExamplesAppJsGivesGraphiql() throws IOException {
        schema = UnExecutableSchemaGenerator.makeUnExecutableSchema(
                new SchemaParser().parse(Files.readString(SCHEMA, StandardCharsets.UTF_8)));
        JsonNode given = JSON.readTree(runAppJs());
        tabs = new ArrayList<>();
        for (JsonNode tab : given.path("tabs")) {
            String query = tab.path("query").asText();
            tabs.add(new Example("tab " + (tabs.size() + 1) + " (" + title(query) + ")", query,
                    tab.path("headers").isTextual() ? tab.path("headers").asText() : null));
        }
        assertTrue(tabs.size() >= 4, "app.js gives GraphiQL its example tabs: " + given);
        examples = new ArrayList<>(tabs);
        examples.add(new Example("a new tab", given.path("defaultQuery").asText(), null));
    }

    @Test
    void everyExampleIsValidAndUsesNoDeprecatedField() {
        List<String> problems = new ArrayList<>();
        for (Example example : examples) {
            Document document = parse(example, problems);
            if (document == null) {
                continue;
            }
            List<ValidationError> errors = ParseAndValidate.validate(schema, document);
            errors.forEach(error -> problems.add(example.label() + " is invalid: " + error.getMessage()));
            if (errors.isEmpty()) {
                deprecatedUses(document).forEach(use -> problems.add(example.label() + " uses deprecated " + use));
            }
        }
        assertEquals(List.of(), problems, "every example must be valid against " + SCHEMA);
    }

    @Test
    void eachTabIsOneNamedOperationSentWithTheTraceHeader() {
        Set<String> names = new HashSet<>();
        for (Example tab : tabs) {
            List<OperationDefinition> operations = operations(tab);
            assertEquals(1, operations.size(), tab.label() + ": one operation, so that Run needs no choice");
            String name = operations.get(0).getName();
            assertTrue(name != null && names.add(name), tab.label() + ": GraphiQL titles a tab by its operation's"
                    + " name, so each has its own: " + name);
            assertEquals("on", headers(tab).get("Moviegraph-Trace"), tab.label() + "'s headers");
        }
    }

    @Test
    void theTabsShowPeopleDirectorsSearchAndBrowse() {
        Set<String> first = fieldsUsed(tabs.get(0));
        for (String field : List.of("Query.movie", "Movie.directors", "Credit.person", "Movie.cast",
                "CastMember.person")) {
            assertTrue(first.contains(field), "the first tab shows " + field + ": " + first);
        }
        Set<String> all = new HashSet<>();
        tabs.forEach(tab -> all.addAll(fieldsUsed(tab)));
        for (String field : List.of("Query.person", "Query.search", "Query.browseMovies", "Query.topRated")) {
            assertTrue(all.contains(field), "a tab shows " + field);
        }
        Set<String> names = new HashSet<>();
        tabs.forEach(tab -> names.add(operations(tab).get(0).getName()));
        assertTrue(names.containsAll(List.of("Search", "Browse")), "tabs titled Search and Browse: " + names);
    }

    @Test
    void everyQueryExampleAnswersOnTheSampleWithoutErrors() {
        GraphQLClient client = TestServer.get().client();
        for (Example example : examples) {
            if (operations(example).get(0).getOperation() != OperationDefinition.Operation.QUERY) {
                continue; // a mutation would change the shared sample; a subscription needs the WebSocket
            }
            GraphQLClient.Response response = client.post(GraphQLClient.body(example.query(), Map.of()),
                    "application/json", "application/graphql-response+json, application/json", headers(example));
            assertEquals(200, response.status(), example.label() + ": " + response.raw().body());
            assertTrue(response.errors().isMissingNode(), example.label() + ": " + response.errors());
            response.data().fields().forEachRemaining(root -> {
                JsonNode value = root.getValue().has("edges") ? root.getValue().path("edges") : root.getValue();
                assertFalse(value.isNull() || value.isContainerNode() && value.isEmpty(), example.label() + " shows something on the sample: "
                        + root.getKey() + " is " + root.getValue());
            });
        }
    }

    private static String runAppJs() {
        Node.Result run = Node.run(List.of("node", "-e", HARNESS), Map.of("APP_JS", APP_JS.toString(),
                "EXAMPLES_JS", EXAMPLES_JS.toString()), 30);
        assertEquals(0, run.exitCode(), "app.js failed to start in Node:\n" + run);
        return run.stdout();
    }

    /** The first operation's name, as GraphiQL titles a tab. */
    private static String title(String query) {
        Matcher name = Pattern.compile("(?m)^\\s*(?:query|mutation|subscription)\\s+(\\w+)").matcher(query);
        return name.find() ? name.group(1) : "untitled";
    }

    private static Document parse(Example example, List<String> problems) {
        try {
            return Parser.parse(example.query());
        } catch (InvalidSyntaxException e) {
            problems.add(example.label() + " does not parse: " + e.getMessage());
            return null;
        }
    }

    private static List<OperationDefinition> operations(Example example) {
        return Parser.parse(example.query()).getDefinitionsOfType(OperationDefinition.class);
    }

    private static Map<String, String> headers(Example example) {
        if (example.headers() == null) {
            return Map.of();
        }
        try {
            return JSON.readValue(example.headers(), new TypeReference<Map<String, String>>() { });
        } catch (IOException e) {
            throw new AssertionError(example.label() + "'s headers are not a JSON object: " + example.headers(), e);
        }
    }

    private static Set<String> fieldsUsed(Example example) {
        Set<String> fields = new LinkedHashSet<>();
        uses(Parser.parse(example.query())).forEach(use -> fields.add(use.coordinate()));
        return fields;
    }

    /** What a valid document selects or passes that the schema deprecates: fields, arguments, enum values, input fields. */
    private static List<String> deprecatedUses(Document document) {
        List<String> deprecated = new ArrayList<>();
        uses(document).stream().filter(Use::deprecated).forEach(use -> deprecated.add(use.coordinate()));
        return deprecated;
    }

    /**
     * Every field and argument of every operation of a valid document, and the enum values and input fields of
     * its literals (arguments and variables' defaults).
     */
    private static List<Use> uses(Document document) {
        List<Use> uses = new ArrayList<>();
        for (OperationDefinition operation : document.getDefinitionsOfType(OperationDefinition.class)) {
            for (VariableDefinition variable : operation.getVariableDefinitions()) {
                if (variable.getDefaultValue() != null) {
                    literalUses(variable.getDefaultValue(),
                            (GraphQLInputType) TypeFromAST.getTypeFromAST(schema, variable.getType()), uses);
                }
            }
            QueryTraverser.newQueryTraverser().schema(schema).document(document).operationName(operation.getName())
                    .coercedVariables(CoercedVariables.emptyVariables())
                    // Only the literals are read (below), never values: no variable needs one.
                    .options(QueryTraversalOptions.defaultOptions().coerceFieldArguments(false)).build()
                    .visitPreOrder(new QueryVisitorStub() {
                        @Override
                        public void visitField(QueryVisitorFieldEnvironment env) {
                            GraphQLFieldDefinition field = env.getFieldDefinition();
                            String coordinate = GraphQLTypeUtil.unwrapAll(env.getParentType()).getName() + "." + field.getName();
                            uses.add(new Use(coordinate, field.isDeprecated()));
                            for (Argument argument : env.getField().getArguments()) {
                                GraphQLArgument definition = field.getArgument(argument.getName());
                                uses.add(new Use(coordinate + "(" + argument.getName() + ":)", definition.isDeprecated()));
                                literalUses(argument.getValue(), definition.getType(), uses);
                            }
                        }
                    });
        }
        return uses;
    }

    private static void literalUses(Value<?> value, GraphQLInputType type, List<Use> uses) {
        GraphQLInputType unwrapped = (GraphQLInputType) GraphQLTypeUtil.unwrapNonNull(type);
        if (unwrapped instanceof GraphQLList list) {
            GraphQLInputType item = (GraphQLInputType) list.getWrappedType();
            if (value instanceof ArrayValue array) {
                array.getValues().forEach(element -> literalUses(element, item, uses));
            } else {
                literalUses(value, item, uses); // a single value stands for a list of one
            }
        } else if (value instanceof EnumValue enumValue && unwrapped instanceof GraphQLEnumType enumType) {
            GraphQLEnumValueDefinition definition = enumType.getValue(enumValue.getName());
            uses.add(new Use(enumType.getName() + "." + enumValue.getName(), definition.isDeprecated()));
        } else if (value instanceof ObjectValue object && unwrapped instanceof GraphQLInputObjectType input) {
            for (ObjectField objectField : object.getObjectFields()) {
                GraphQLInputObjectField definition = input.getField(objectField.getName());
                uses.add(new Use(input.getName() + "." + objectField.getName(), definition.isDeprecated()));
                literalUses(objectField.getValue(), definition.getType(), uses);
            }
        }
    }
}
