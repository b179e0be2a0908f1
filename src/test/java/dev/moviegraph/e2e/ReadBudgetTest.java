package dev.moviegraph.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.catalog.Movie;
import dev.moviegraph.support.GraphQLClient.Response;
import dev.moviegraph.support.TestServer;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * The read budget on the shared server (MAX_READ_UNITS = 100): a query is estimated from its plan before
 * any DynamoDB call and refused when the estimate is over, and the estimate is an upper bound of what
 * the real execution then consumes.
 */
class ReadBudgetTest {
    private final TestServer server = TestServer.get();

    private String ids(int count) {
        return server.sample().movies().stream().limit(count).map(Movie::id)
                .map(id -> "\"" + id.value() + "\"").collect(Collectors.joining(", ", "[", "]"));
    }

    @Test
    void aQueryEstimatedOverTheBudgetIsRefusedBeforeAnyCallAndTheErrorStatesTheEstimate() {
        // 50 movies x 100 cast x their 100-movie filmographies: a fan-out no budget should pay for
        String query = "{ movies(ids: " + ids(50) + ") { title cast(first: 100) { edges { node { person { name "
                + "movies(first: 100) { edges { node { movie { title } } } } } } } } } }";
        server.counter().reset();

        Response response = server.client().query(query);

        assertEquals("LIMIT_EXCEEDED", response.firstErrorCode(), response.raw().body());
        assertEquals(List.of(), server.counter().operations(), "refused before any DynamoDB call");
        JsonNode error = response.errors().get(0);
        double estimate = error.path("extensions").path("estimatedReadUnits").asDouble();
        assertTrue(estimate > 100, response.raw().body());
        assertEquals(100, error.path("extensions").path("readBudget").asDouble());
        assertTrue(error.path("message").asText().contains("MAX_READ_UNITS"), error.toString());
        assertTrue(response.data().isMissingNode(), "not executed, so no data");
        assertTrue(response.body().path("extensions").path("plan").path("fields").size() > 0,
                "the plan says which fields cost what");
    }

    @Test
    void aShapeEstimatedWithinTheLastMinuteIsNotPlannedAgainWhateverItsIdsButAnotherPageSizeIs() {
        String query = "query EstimateReuse($ids: [ID!]!, $n: Int!) { movies(ids: $ids) { title cast(first: $n) {"
                + " edges { node { person { name movies(first: $n) { edges { node { movie { title } } } } } } } } } }";
        List<String> first = server.sample().movies().stream().limit(3).map(movie -> movie.id().value()).toList();
        List<String> other = server.sample().movies().stream().skip(3).limit(3).map(movie -> movie.id().value()).toList();
        String hits = "cache_gets_total{cache=\"graphql.estimates\",result=\"hit\"}";
        String misses = "cache_gets_total{cache=\"graphql.estimates\",result=\"miss\"}";
        String before = metrics();

        Response planned = server.client().query(query, Map.of("ids", first, "n", 3));
        Response known = server.client().query(query, Map.of("ids", other, "n", 3));
        String after = metrics();

        assertTrue(planned.errors().isMissingNode(), planned.raw().body());
        assertTrue(known.errors().isMissingNode(), known.raw().body());
        assertEquals(1, value(after, misses) - value(before, misses), "the first of the shape is planned");
        assertEquals(1, value(after, hits) - value(before, hits), "other ids, same shape: the estimate is known");
        assertEquals(server.sample().movies().get(3).title(), known.data().path("movies").path(0).path("title").asText(),
                "and it answers for its own ids");
        Response bigger = server.client().query(query, Map.of("ids", first, "n", 100));
        assertEquals("LIMIT_EXCEEDED", bigger.firstErrorCode(), "larger pages are another shape, planned and refused");
    }

    /**
     * A shape sent first with ids that plan nothing (malformed, of the wrong kind) or that name nothing (a
     * well-formed id of no movie) must not lend its estimate to the same shape with real ids: that one is
     * still refused before any DynamoDB call.
     */
    @ParameterizedTest
    @ValueSource(strings = {"malformed", "people", "oneRealTwoMalformed", "unknownMovies"})
    void aShapeFirstSentWithIdsThatPlanLessIsStillRefusedWithRealIdsBeforeAnyCall(String firstIds) {
        List<String> real = server.sample().movies().stream().limit(3).map(movie -> movie.id().value()).toList();
        List<String> first = switch (firstIds) {
            case "malformed" -> List.of("bad1", "bad2", "bad3");
            case "people" -> server.sample().people().stream().limit(3).map(person -> person.id().value()).toList();
            case "oneRealTwoMalformed" -> List.of(real.get(0), "bad1", "bad2");
            default -> List.of("tt99999991", "tt99999992", "tt99999993");
        };
        String query = "query Bypass_" + firstIds + "($ids: [ID!]!, $n: Int!) { movies(ids: $ids) { title cast(first: $n) {"
                + " edges { node { person { name movies(first: $n) { edges { node { movie { title } } } } } } } } } }";
        server.client().query(query, Map.of("ids", first, "n", 100));
        server.counter().reset();

        Response real3 = server.client().query(query, Map.of("ids", real, "n", 100));

        assertEquals("LIMIT_EXCEEDED", real3.firstErrorCode(), real3.raw().body());
        assertEquals(List.of(), server.counter().operations(), "refused before any DynamoDB call");
    }

    private String metrics() {
        return server.client().get("/metrics", Map.of(), "text/plain").raw().body();
    }

    private static double value(String text, String prefix) {
        java.util.regex.Matcher matcher = java.util.regex.Pattern.compile("(?m)^" + java.util.regex.Pattern.quote(prefix)
                + " ([0-9.eE+-]+)$").matcher(text);
        return matcher.find() ? Double.parseDouble(matcher.group(1)) : 0;
    }

    @Test
    void theSameFanOutWithSmallerPagesFitsTheBudgetAndRuns() {
        String query = "{ movies(ids: " + ids(3) + ") { title cast(first: 3) { edges { node { person { name "
                + "movies(first: 3) { edges { node { movie { title } } } } } } } } } }";

        Response response = server.client().query(query);

        assertTrue(response.errors().isMissingNode(), response.raw().body());
        assertEquals(3, response.data().path("movies").size());
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "{ movie(id: \"tt0111161\") { title } }",
        "{ movie(id: \"tt0111161\") { title cast(first: 5) { edges { node { person { name birthYear } } } } } }",
        "{ movie(id: \"tt0111161\") { cast(first: 3) { edges { node { character: characters } } } streamTotals { streams } } }",
        "{ movie(id: \"tt0111161\") { title streamTotals(from: \"2023-01\", to: \"2024-12\") { streams } } }",
        "{ person(id: \"nm0000151\") { name movies(first: 10) { edges { node { movie { title year } } } } } }",
        "{ topMovies(month: \"2024-05\", limit: 10) { streams movie { title genres } } }",
        "{ topMovies(month: \"2024-05\", limit: 50) { streams movie { title cast(first: 2) { edges { node { person { name } } } } } } }"
    })
    void thePlansEstimateIsAtLeastWhatTheQueryThenConsumes(String query) {
        Response plan = server.client().traced("plan", query, Map.of());
        double estimate = plan.body().path("extensions").path("plan").path("readUnits").asDouble();

        Response run = server.client().query(query);

        assertTrue(run.errors().isMissingNode(), run.raw().body());
        double consumed = run.body().path("extensions").path("cost").path("readUnits").asDouble();
        assertTrue(consumed > 0, run.raw().body());
        assertTrue(estimate >= consumed, "estimate " + estimate + " < consumed " + consumed + " for " + query);
        assertFalse(plan.body().path("extensions").path("plan").has("complete"), "planned to the end");
    }

    /**
     * Ordinary queries, the lists read whole among them (directors, writers, awards), are estimated from
     * the longest lists the table's writers recorded, not from a fixed guess: within 3x of what they read.
     */
    @ParameterizedTest
    @ValueSource(strings = {
        "{ movies(ids: [\"tt0111161\", \"tt0068646\", \"tt0133093\", \"%s\"]) { directors { person { name "
                + "directed(first: 50) { edges { node { movie { title } } } } } } } }",
        "{ movie(id: \"tt0068646\") { title directors { person { name } } writers { person { name } } awards { category person { name } } } }",
        "{ person(id: \"nm0000338\") { name awards { category movie { title } } directed(first: 10) { edges { node { movie { title } } } } } }",
        "{ search(query: \"the\", first: 10) { edges { node { ... on Movie { title directors { person { name } } } } } } }"
    })
    void anOrdinaryQuerysEstimateIsWithinThreeTimesWhatItReads(String template) {
        String query = template.formatted(server.sample().movies().get(10).id().value());
        Response plan = server.client().traced("plan", query, Map.of());
        double estimate = plan.body().path("extensions").path("plan").path("readUnits").asDouble();
        Response run = server.client().query(query);
        assertTrue(run.errors().isMissingNode(), run.raw().body());
        double consumed = run.body().path("extensions").path("cost").path("readUnits").asDouble();
        assertTrue(estimate >= consumed, "estimate " + estimate + " < consumed " + consumed + " for " + query);
        assertTrue(estimate <= 3 * consumed, "estimate " + estimate + " > 3 x consumed " + consumed + " for " + query);
    }
}
