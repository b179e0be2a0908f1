package dev.moviegraph.graphql.caching;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;

import graphql.ExecutionInput;
import graphql.ExecutionResult;
import graphql.GraphQL;
import graphql.schema.idl.RuntimeWiring;
import graphql.schema.idl.SchemaGenerator;
import graphql.schema.idl.SchemaParser;
import org.junit.jupiter.api.Test;

/**
 * Apollo Server's cache-control rules as {@link CacheControl} applies them, on a small schema of its own:
 * the least age over the fields resolved, the field's hint over its type's, inherited ages, PRIVATE, the
 * 0 of an unhinted object or root field, and fields under a null parent not counting.
 */
class CacheControlTest {
    private static final String SCHEMA = """
            directive @cacheControl(maxAge: Int, scope: CacheControlScope, inheritMaxAge: Boolean)
              on FIELD_DEFINITION | OBJECT | INTERFACE | UNION
            enum CacheControlScope { PUBLIC PRIVATE }
            type Query {
              box: Box
              shortBox: Box @cacheControl(maxAge: 5)
              missing: Box
              plain: Plain @cacheControl(maxAge: 100)
              count: Int
              hintedCount: Int @cacheControl(maxAge: 70)
            }
            type Box @cacheControl(maxAge: 60) {
              label: String
              page: Page
              secret: String @cacheControl(scope: PRIVATE)
              inner: Inner
              older: Box @cacheControl(maxAge: 600)
            }
            type Page @cacheControl(inheritMaxAge: true) { n: Int, box: Box }
            type Inner { n: Int }
            type Plain { n: Int, unhinted: Inner }
            """;

    private static final GraphQL GRAPHQL = GraphQL.newGraphQL(new SchemaGenerator().makeExecutableSchema(
                    new SchemaParser().parse(SCHEMA), RuntimeWiring.newRuntimeWiring()
                            .type("Query", type -> type.defaultDataFetcher(env -> switch (env.getField().getName()) {
                                case "missing" -> null;
                                case "box", "shortBox" -> box();
                                default -> box().get(env.getField().getName());
                            }))
                            .type("Box", type -> type.defaultDataFetcher(env -> box().get(env.getField().getName())))
                            .type("Page", type -> type.defaultDataFetcher(env -> box().get(env.getField().getName())))
                            .build()))
            .instrumentation(new CacheControl())
            .build();

    private static Map<String, Object> box() {
        Map<String, Object> box = new HashMap<>();
        box.put("label", "a");
        box.put("secret", "s");
        box.put("n", 1);
        box.put("count", 1);
        box.put("hintedCount", 1);
        box.put("inner", Map.of("n", 1));
        box.put("unhinted", Map.of("n", 1));
        box.put("page", Map.of("n", 1));
        box.put("plain", Map.of("n", 1));
        box.put("older", Map.of("label", "b"));
        return box;
    }

    private static CachePolicy policy(String query) {
        CacheControl.Tally tally = new CacheControl.Tally(new CacheSettings(10, 3_600, 3_600));
        ExecutionResult result = GRAPHQL.execute(ExecutionInput.newExecutionInput(query)
                .graphQLContext(Map.of(CacheControl.Tally.class, tally)).build());
        assertTrue(result.getErrors().isEmpty(), result.getErrors().toString());
        return tally.policy();
    }

    @Test
    void theAnswerIsKeptForTheLeastAgeOfTheFieldsItResolved() {
        assertEquals(new CachePolicy(60, false), policy("{ box { label } }"));
        assertEquals(new CachePolicy(60, false), policy("{ box { older { label } } }"), "600 under 60 is 60");
        assertEquals(new CachePolicy(5, false), policy("{ box { label } shortBox { label } }"));
    }

    @Test
    void theFieldsHintTakesPrecedenceOverItsTypes() {
        assertEquals(new CachePolicy(5, false), policy("{ shortBox { label } }"));
    }

    @Test
    void aTypeThatInheritsTakesItsParentsAge() {
        assertEquals(new CachePolicy(60, false), policy("{ box { page { n } } }"));
    }

    @Test
    void anObjectFieldOrARootFieldWithoutAHintIsNeverKept() {
        assertEquals(CachePolicy.NO_STORE, policy("{ box { inner { n } } }"), "Inner has no hint");
        assertEquals(CachePolicy.NO_STORE, policy("{ count }"), "a root scalar without a hint");
        assertEquals(new CachePolicy(70, false), policy("{ hintedCount }"));
        assertEquals(new CachePolicy(100, false), policy("{ plain { n } }"), "scalars inherit");
    }

    @Test
    void aPrivateFieldMakesTheAnswerPrivate() {
        assertEquals(new CachePolicy(60, true), policy("{ box { secret } }"));
    }

    @Test
    void fieldsUnderANullParentAreNeverResolvedAndDoNotCount() {
        assertEquals(new CachePolicy(60, false), policy("{ box { label } missing { inner { n } } }"));
    }

    @Test
    void theCeilingCapsEveryAnswer() {
        CacheControl.Tally tally = new CacheControl.Tally(new CacheSettings(10, 3_600, 30));
        GRAPHQL.execute(ExecutionInput.newExecutionInput("{ box { label } }")
                .graphQLContext(Map.of(CacheControl.Tally.class, tally)).build());

        assertEquals(new CachePolicy(30, false), tally.policy());
    }
}
