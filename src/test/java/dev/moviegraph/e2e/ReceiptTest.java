package dev.moviegraph.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.support.GraphQLClient.Response;
import dev.moviegraph.support.TestServer;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

/**
 * The receipt every response carries (extensions.cost), the trace (Moviegraph-Trace: on) and the plan
 * (Moviegraph-Trace: plan), checked against what the SDK really sent and what the engine billed.
 */
class ReceiptTest {
    private static final String SHAWSHANK = "tt0111161";
    /** Six: past the first five the movie item copies, so its cast is a Query of its collection. */
    private static final String CAST_WITH_BIRTH_YEARS = """
            query($id: ID!) { movie(id: $id) { title cast(first: 6) { edges { node { person { name birthYear } } } } } }""";
    private static final String NESTED = """
            query($ids: [ID!]!) { movies(ids: $ids) { title cast(first: 3) { edges { node { person {
              birthYear movies(first: 2) { edges { node { movie { genres } } } } } } } } }
            topMovies(month: "2024-05", limit: 10) { streams movie { genres } } }""";

    private final TestServer server = TestServer.get();

    private Response send(String trace, String query, Map<String, Object> variables) {
        server.counter().reset();
        Response response = server.client().traced(trace, query, variables);
        assertEquals(200, response.status(), response.raw().body());
        assertTrue(response.errors().isMissingNode(), () -> "unexpected errors: " + response.errors());
        return response;
    }

    private static JsonNode cost(Response response) {
        return response.body().path("extensions").path("cost");
    }

    @Test
    void everyResponseCountsTheRequestsTheSdkSentAndTheUnitsDynamoDbReported() {
        for (String query : List.of("{ movie(id: \"tt0111161\") { title } }",
                "{ topMovies(month: \"2024-05\", limit: 10) { streams movie { title genres } } }",
                "{ person(id: \"nm0000151\") { name movies(first: 5) { edges { node { movie { year } } } } } }")) {
            server.counter().reset();
            Response response = server.client().query(query);
            int sent = server.counter().operations().size();

            assertEquals(sent, cost(response).path("requests").asInt(), query);
            assertTrue(cost(response).path("readUnits").asDouble() >= 0.5 * sent, query + ": " + cost(response));
            assertEquals(0.0, cost(response).path("writeUnits").asDouble(), query);
            assertTrue(response.body().path("extensions").path("trace").isMissingNode(), "no trace unless asked");
        }
    }

    @Test
    void oneSmallItemByKeyCostsHalfAReadUnitAsDynamoDbBillsEventuallyConsistentReads() {
        Response response = send("off", "{ movie(id: \"tt0111161\") { title } }", Map.of());

        assertEquals(1, cost(response).path("requests").asInt());
        assertEquals(0.5, cost(response).path("readUnits").asDouble());
    }

    @Test
    void theTraceListsEveryCallInOrderWithItsPatternKeyItemsUnitsAndPaths() {
        Response response = send("on", CAST_WITH_BIRTH_YEARS, Map.of("id", SHAWSHANK));
        JsonNode trace = response.body().path("extensions").path("trace");
        JsonNode calls = trace.path("calls");

        assertEquals(2, calls.size(), calls.toString());
        JsonNode query = calls.get(0);
        assertEquals("Query", query.path("operation").asText());
        assertEquals("lsi1", query.path("index").asText());
        assertEquals("MOVIE+CAST", query.path("pattern").asText());
        assertEquals("pk = mov#" + SHAWSHANK + " AND lsi1sk BETWEEN movie AND movie#cast#~", query.path("keyCondition").asText());
        int castSize = (int) server.sample().cast().stream().filter(credit -> credit.movieId().value().equals(SHAWSHANK)).count();
        int shown = Math.min(6, castSize);
        assertEquals(1 + shown + (castSize > 6 ? 1 : 0), query.path("items").asInt(),
                "the movie, its cast members up to six and one to know whether there are more");
        assertEquals(List.of("movie", "movie.cast"), texts(query.path("paths")));
        JsonNode batch = calls.get(1);
        assertEquals("BatchGetItem", batch.path("operation").asText());
        assertEquals(shown, batch.path("keys").asInt());
        assertEquals(shown, batch.path("items").asInt());
        assertEquals(List.of("movie.cast.edges.node.person"), texts(batch.path("paths")));
        assertTrue(batch.path("startMs").asDouble() >= query.path("startMs").asDouble() + query.path("durationMs").asDouble(),
                "the actors are read once the cast is known");

        double units = 0;
        int requests = 0;
        for (JsonNode call : calls) {
            units += call.path("readUnits").asDouble();
            requests += call.path("requests").asInt();
        }
        assertEquals(cost(response).path("readUnits").asDouble(), units, 1e-9);
        assertEquals(cost(response).path("requests").asInt(), requests);
        assertEquals(server.counter().operations().size(), requests);
        double total = trace.path("totalMs").asDouble();
        double dynamo = trace.path("dynamoDbMs").asDouble();
        assertTrue(dynamo > 0 && dynamo <= total, trace.toString());
        assertEquals(total - dynamo, trace.path("gatewayMs").asDouble(), 0.01);
    }

    @Test
    void aPlanCallsNothingAndReturnsNoData() {
        Response response = send("plan", CAST_WITH_BIRTH_YEARS, Map.of("id", SHAWSHANK));

        assertEquals(List.of(), server.counter().operations());
        assertTrue(response.data().isMissingNode(), response.body().toString());
        JsonNode fields = response.body().path("extensions").path("plan").path("fields");
        assertEquals("MOVIE+CAST", fields.get(0).path("pattern").asText());
        assertEquals("pk = mov#{movieId} AND lsi1sk BETWEEN movie AND movie#cast#~", fields.get(0).path("keyTemplate").asText());
        assertEquals("lsi1", fields.get(0).path("index").asText());
        assertEquals(List.of("movie", "movie.cast"), texts(fields.get(0).path("paths")));
        assertEquals("BATCH_GET_ITEM", fields.get(1).path("pattern").asText());
        assertEquals(List.of("movie.cast.edges.node.person"), texts(fields.get(1).path("paths")));
    }

    @Test
    void thePlanCountsTheCallsTheQueryThenMakesPatternByPattern() {
        List<String> ids = List.of(SHAWSHANK, "tt0068646", "tt0133093");
        Map<String, Object> variables = Map.of("ids", ids);

        JsonNode plan = send("plan", NESTED, variables).body().path("extensions").path("plan");
        JsonNode trace = send("on", NESTED, variables).body().path("extensions").path("trace");

        Map<String, Integer> planned = new TreeMap<>();
        plan.path("fields").forEach(field -> planned.merge(field.path("pattern").asText(), field.path("calls").asInt(),
                Integer::sum));
        Map<String, Integer> made = new TreeMap<>();
        trace.path("calls").forEach(call -> made.merge(call.path("pattern").asText(), 1, Integer::sum));
        // 3 movies with their first casts (copied on their items) and the month's top list: one batch; then the
        // cast's people and the top movies: one batch; 9 filmographies; their movies: one read by key.
        assertEquals(9, made.get("ACTED"));
        assertEquals(3, byKey(made), made.toString());
        assertEquals(made.get("ACTED"), planned.get("ACTED"));
        // The second batch has the keys of two subtrees (the cast's people, the top movies). The plan's reads are
        // answered at once; answered inside the dispatch that sent them, the first subtree's keys went alone.
        assertEquals(byKey(made), byKey(planned), planned.toString());
        assertEquals(12, plan.path("calls").asInt());
    }

    private static int byKey(Map<String, Integer> calls) {
        return calls.getOrDefault("GET_ITEM", 0) + calls.getOrDefault("BATCH_GET_ITEM", 0);
    }

    @Test
    void anUnknownTraceModeIsABadRequest() {
        Response response = server.client().traced("verbose", "{ movie(id: \"tt0111161\") { title } }", Map.of());

        assertEquals(400, response.status());
        assertEquals("BAD_REQUEST", response.firstErrorCode());
        assertTrue(response.errors().get(0).path("message").asText().contains("Moviegraph-Trace"));
    }

    @Test
    void aFieldThatFailsStillShowsItsCallInTheReceipt() {
        server.counter().reset();
        Response response = server.client().traced("on",
                "{ a: movie(id: \"tt0111161\") { title } b: movie(id: \"tt0111161\") { cast(first: 1, after: \"forged\") { pageInfo { hasNextPage } } } }",
                Map.of());

        assertFalse(response.errors().isMissingNode());
        assertEquals(server.counter().operations().size(), cost(response).path("requests").asInt());
    }

    private static List<String> texts(JsonNode array) {
        List<String> texts = new ArrayList<>();
        array.forEach(node -> texts.add(node.asText()));
        return texts;
    }
}
