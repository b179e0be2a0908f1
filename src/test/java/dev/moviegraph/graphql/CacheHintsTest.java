package dev.moviegraph.graphql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.graphql.caching.CacheHints;
import dev.moviegraph.graphql.caching.CachePolicy;
import dev.moviegraph.graphql.wiring.CatalogWiring;
import dev.moviegraph.graphql.wiring.GatewaySchema;
import dev.moviegraph.metrics.GatewayMetrics;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Set;

import graphql.schema.GraphQLSchema;
import graphql.schema.idl.RuntimeWiring;
import graphql.schema.idl.SchemaGenerator;
import graphql.schema.idl.SchemaParser;
import org.junit.jupiter.api.Test;

/**
 * The {@code @cacheControl} start-up check (every Query field and every field returning an object needs a
 * hint on itself or its type, the Subscription root excepted) and the month rule of the totals' policy.
 */
class CacheHintsTest {
    private static final String DIRECTIVE = """
            directive @cacheControl(maxAge: Int, scope: CacheControlScope, inheritMaxAge: Boolean)
              on FIELD_DEFINITION | OBJECT | INTERFACE | UNION
            enum CacheControlScope { PUBLIC PRIVATE }
            """;

    private static GraphQLSchema schema(String types) {
        return new SchemaGenerator().makeExecutableSchema(new SchemaParser().parse(DIRECTIVE + types),
                RuntimeWiring.MOCKED_WIRING);
    }

    private static String shipped() throws IOException {
        try (var in = CacheHintsTest.class.getResourceAsStream("/schema.graphqls")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void theShippedSchemaHasEveryHintItNeeds() throws IOException {
        GraphQLSchema schema = GatewaySchema.unchecked(shipped(), new CatalogWiring(Clock.systemUTC()).runtimeWiring());

        assertEquals(List.of(), CacheHints.problems(schema));
    }

    @Test
    void aQueryFieldOrAFieldReturningObjectsWithoutAHintIsNamed() {
        List<String> problems = CacheHints.problems(schema("""
                type Query { count: Int, hinted: Int @cacheControl(maxAge: 5), box: Box, boxes: [Box!]! }
                type Box { label: String, inner: Inner, covered: Inner @cacheControl(maxAge: 1) }
                type Inner { n: Int }
                """));

        assertEquals(Set.of(
                "Query.count has no @cacheControl hint (put one on the field)",
                "Query.box has no @cacheControl hint (put one on the field or on its type Box)",
                "Query.boxes has no @cacheControl hint (put one on the field or on its type Box)",
                "Box.inner has no @cacheControl hint (put one on the field or on its type Inner)"), Set.copyOf(problems));
    }

    @Test
    void aHintOnTheTypeOrAnInheritedAgeCovers() {
        assertEquals(List.of(), CacheHints.problems(schema("""
                type Query { box: Box, boxes: [Box!]! }
                type Box @cacheControl(maxAge: 60) { label: String, page: Page }
                type Page @cacheControl(inheritMaxAge: true) { n: Int }
                """)));
    }

    @Test
    void theSubscriptionRootIsNotCheckedItsAnswersNeverGoThroughAnHttpCache() {
        assertEquals(List.of(), CacheHints.problems(schema("""
                type Query { n: Int @cacheControl(maxAge: 1) }
                type Subscription { ticks: Int, boxes: Box }
                type Box @cacheControl(maxAge: 1) { label: String }
                """)));
    }

    @Test
    void aShippedTypeWithoutItsHintStopsTheStartNamingTheFieldsThatReturnIt() throws IOException {
        String withoutMovieHint = shipped().replace("type Movie implements Node @key(fields: \"id\") @cacheControl(maxAge: 300) {",
                "type Movie implements Node @key(fields: \"id\") {");

        IllegalStateException e = assertThrows(IllegalStateException.class, () -> GraphQLService.builder(
                StubCatalog.complete(Set.of()), new GatewayMetrics()).schema(withoutMovieHint).build());

        for (String field : List.of("Query.movie", "Query.movies", "CastMember.movie", "Credit.movie",
                "MonthlyStreams.movie", "Mutation.putMovie")) {
            assertTrue(e.getMessage().contains(field + " has no @cacheControl hint (put one on the field or on its type"
                    + " Movie)"), e.getMessage());
        }
        assertTrue(e.getMessage().startsWith("schema.graphqls has fields that HTTP caches would not know how long"),
                e.getMessage());
    }

    @Test
    void aMonthCountsAsFinishedFromTheFirstInstantOfTheNextMonthInUtc() throws IOException {
        String query = "{ topMovies(month: \"2024-05\") { streams } }";

        assertEquals(new CachePolicy(10, false), policyAt("2024-05-31T23:59:59Z", query));
        assertEquals(new CachePolicy(3_600, false), policyAt("2024-06-01T00:00:00Z", query));
        assertEquals(new CachePolicy(10, false), policyAt("2024-04-30T12:00:00Z", query), "a future month");
    }

    private static CachePolicy policyAt(String instant, String query) throws IOException {
        GraphQLService service = GraphQLService.builder(StubCatalog.complete(Set.of()), new GatewayMetrics())
                .schema(shipped()).clock(Clock.fixed(Instant.parse(instant), ZoneOffset.UTC)).build();
        GraphQLAnswer answer = service.answer(new GraphQLRequest(query, null, Map.of()), TraceMode.OFF).join();
        assertTrue(!answer.body().containsKey("errors"), answer.body().toString());
        return answer.cache();
    }
}
