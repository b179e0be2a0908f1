package dev.moviegraph.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.support.GraphQLClient;
import dev.moviegraph.support.GraphQLClient.Response;
import dev.moviegraph.support.TestServer;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.Collections;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/**
 * A POST body that is a JSON array runs each operation and answers an array in the same order (Apollo's
 * BatchHttpLink), on the shared server: at most 10 operations (MAX_BATCH_OPERATIONS), and the read budget
 * (MAX_READ_UNITS = 100) is the whole batch's.
 */
class OperationBatchesTest {
    private static final String JSON = "application/json";
    private static final String TOP_100 = "{ topMovies(month: \"2024-05\", limit: 100) { streams movie { title genres } } }";

    private final TestServer server = TestServer.get();
    private final GraphQLClient client = server.client();

    private Response batch(String... operations) {
        return client.post("[" + String.join(",", operations) + "]", JSON, JSON);
    }

    private static String op(String query) {
        return GraphQLClient.body(query, Map.of());
    }

    @Test
    void eachOperationIsAnsweredInTheOrderSent() {
        Response response = batch(op("{ movie(id: \"tt0068646\") { title } }"), op("{ __typename }"),
                op("{ movie(id: \"tt0111161\") { title } }"));

        assertEquals(200, response.status());
        JsonNode answers = response.body();
        assertTrue(answers.isArray(), response.raw().body());
        assertEquals(3, answers.size());
        assertEquals("The Godfather", answers.get(0).path("data").path("movie").path("title").asText());
        assertEquals("Query", answers.get(1).path("data").path("__typename").asText());
        assertEquals("The Shawshank Redemption", answers.get(2).path("data").path("movie").path("title").asText());
        for (JsonNode answer : answers) {
            assertTrue(answer.path("extensions").has("cost"), "each operation has its own receipt: " + answer);
        }
    }

    @Test
    void aBadElementGetsItsOwnErrorEntryAndTheOthersStillRun() {
        Response response = batch(op("{ movie(id: \"tt0111161\") { title } }"), "5", "{\"variables\": {}}",
                "{\"query\": \"{ movie(id: 1) { title } }\", \"variables\": [1]}", op("{ nope }"),
                op("{ movie(id: \"tt0068646\") { title } }"));

        JsonNode answers = response.body();
        assertEquals(200, response.status(), "a batch is answered as a whole even when some operations are bad");
        assertEquals(6, answers.size(), response.raw().body());
        assertEquals("The Shawshank Redemption", answers.get(0).path("data").path("movie").path("title").asText());
        assertEquals("BAD_REQUEST", code(answers.get(1)));
        assertTrue(message(answers.get(1)).contains("JSON object"), message(answers.get(1)));
        assertEquals("BAD_REQUEST", code(answers.get(2)));
        assertTrue(message(answers.get(2)).contains("'query'"), message(answers.get(2)));
        assertEquals("BAD_REQUEST", code(answers.get(3)));
        assertTrue(message(answers.get(3)).contains("'variables'"), message(answers.get(3)));
        assertEquals("GRAPHQL_VALIDATION_FAILED", code(answers.get(4)));
        assertEquals("The Godfather", answers.get(5).path("data").path("movie").path("title").asText());
        assertEquals("no-store", response.raw().headers().firstValue("Cache-Control").orElse(""));
    }

    private static String code(JsonNode answer) {
        return answer.path("errors").path(0).path("extensions").path("code").asText();
    }

    private static String message(JsonNode answer) {
        return answer.path("errors").path(0).path("message").asText();
    }

    @Test
    void anEmptyBatchAndOneOverTheLimitAreBadRequests() {
        Response empty = client.post("[]", JSON, JSON);
        Response eleven = batch(Collections.nCopies(11, op("{ __typename }")).toArray(String[]::new));
        Response ten = batch(Collections.nCopies(10, op("{ __typename }")).toArray(String[]::new));

        assertEquals(400, empty.status());
        assertEquals("BAD_REQUEST", empty.firstErrorCode());
        assertTrue(empty.errors().path(0).path("message").asText().contains("at least one operation"));
        assertEquals(400, eleven.status());
        assertEquals("BAD_REQUEST", eleven.firstErrorCode());
        String message = eleven.errors().path(0).path("message").asText();
        assertTrue(message.contains("at most 10") && message.contains("MAX_BATCH_OPERATIONS")
                && message.contains("has 11"), message);
        assertEquals(200, ten.status());
        assertEquals(10, ten.body().size());
    }

    @Test
    void theReadBudgetIsTheWholeBatchsSoOperationsThatEachFitCanBeRefusedTogether() {
        double alone = client.traced("plan", TOP_100, Map.of()).body().path("extensions").path("plan")
                .path("readUnits").asDouble();
        assertTrue(alone <= 100 && 2 * alone > 100, "the test needs one that fits and two that do not: " + alone);
        assertTrue(client.query(TOP_100).errors().isMissingNode(), "alone it runs");
        server.counter().reset();

        Response response = batch(op(TOP_100), op(TOP_100));

        assertEquals(List.of(), server.counter().operations(), "refused before any DynamoDB call");
        for (JsonNode answer : response.body()) {
            assertEquals("LIMIT_EXCEEDED", code(answer), response.raw().body());
            assertTrue(answer.path("data").isMissingNode(), "not executed");
            JsonNode error = answer.path("errors").path(0);
            assertEquals(2 * alone, error.path("extensions").path("estimatedReadUnits").asDouble(), 1e-9);
            assertTrue(message(answer).contains("shared by the operations of a batch"), message(answer));
            assertEquals(alone, answer.path("extensions").path("plan").path("readUnits").asDouble(), 1e-9,
                    "each operation's own plan says what it costs");
        }
    }

    @Test
    void theMoviegraphTraceHeaderAppliesToEveryOperation() {
        Response response = client.post("[" + op("{ movie(id: \"tt0111161\") { title } }") + ","
                + op("{ topMovies(month: \"2024-05\", limit: 2) { streams } }") + "]", JSON, JSON,
                Map.of("Moviegraph-Trace", "on"));

        for (JsonNode answer : response.body()) {
            assertTrue(answer.path("extensions").path("trace").path("calls").size() > 0, answer.toString());
        }
        assertEquals("no-store", response.raw().headers().firstValue("Cache-Control").orElse(""));
    }

    @Test
    void aBatchIsKeptForTheLeastAgeOfItsAnswersAndNeverWithAMutation() {
        Response queries = batch(op("{ topMovies(month: \"2024-05\", limit: 2) { streams } }"),
                op("{ movie(id: \"tt0111161\") { title } }"));
        Response withMutation = batch(op("{ topMovies(month: \"2024-05\", limit: 2) { streams } }"),
                op("mutation { putMovie(input: {id: \"tt9400003\", title: \"Batched\"}) { title } }"));

        assertEquals("max-age=300, public", queries.raw().headers().firstValue("Cache-Control").orElse(""));
        assertEquals("Batched", withMutation.body().path(1).path("data").path("putMovie").path("title").asText(),
                withMutation.raw().body());
        assertEquals("no-store", withMutation.raw().headers().firstValue("Cache-Control").orElse(""));
    }
}
