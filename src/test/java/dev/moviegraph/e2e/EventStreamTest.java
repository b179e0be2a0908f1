package dev.moviegraph.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.support.GraphQLClient;
import dev.moviegraph.support.StreamedResponse;
import dev.moviegraph.support.StreamedResponse.Piece;
import dev.moviegraph.support.TestServer;
import dev.moviegraph.support.WsClient;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.YearMonth;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

/**
 * GraphQL over server-sent events on /graphql (graphql-sse's distinct connections mode) and deferred parts
 * over the WebSocket, against the shared server: a query is a next event then complete, a deferred query a
 * next event per part, a subscription an event per change, and a client that goes away frees its
 * subscription at once.
 */
class EventStreamTest {
    private static final String SSE = "text/event-stream";
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String TOP = "subscription($month: YearMonth!) { topMoviesChanged(month: $month, limit: 2)"
            + " { movie { id title } streams } }";

    private final TestServer server = TestServer.get();

    private String movieId() {
        return server.sample().movies().get(0).id().value();
    }

    private YearMonth busiestMonth() {
        return server.sample().months().get(server.sample().months().size() - 1);
    }

    private StreamedResponse events(String query, Map<String, Object> variables) {
        return StreamedResponse.post(server.port(), GraphQLClient.body(query, variables), SSE, Map.of());
    }

    @Test
    void aQueryIsOneNextEventThenComplete() {
        JsonNode whole = server.client().query(DeferTest.movieQuery(movieId(), "")).body();
        try (StreamedResponse response = events(DeferTest.movieQuery(movieId(), ""), Map.of())) {
            assertEquals(200, response.status());
            assertEquals("text/event-stream; charset=utf-8", response.contentType());
            assertEquals("no-store", response.headers().firstValue("Cache-Control").orElse(""));
            List<Piece> pieces = response.rest(WAIT);
            assertEquals(List.of("next", "complete"), pieces.stream().map(Piece::event).toList(), response.raw());
            assertEquals(whole.path("data"), pieces.get(0).json().path("data"));
            assertTrue(response.closedProperly());
        }
    }

    @Test
    void aDeferredQueryIsANextEventPerPart() {
        JsonNode whole = server.client().query(DeferTest.movieQuery(movieId(), "")).body();
        try (StreamedResponse response = events(DeferTest.movieQuery(movieId(), "@defer"), Map.of())) {
            List<Piece> pieces = response.rest(WAIT);
            assertEquals(List.of("next", "next", "complete"), pieces.stream().map(Piece::event).toList(), response.raw());
            assertTrue(pieces.get(0).json().path("hasNext").asBoolean(), response.raw());
            assertFalse(pieces.get(1).json().path("hasNext").asBoolean(true), response.raw());
            assertEquals(whole.path("data"), DeferTest.merged(List.of(pieces.get(0).json(), pieces.get(1).json())));
        }
    }

    @Test
    void errorsAreAResultsErrorsAndTheStreamStillCompletes() {
        try (StreamedResponse response = events("{ movie(id: \"" + movieId() + "\") { nope } }", Map.of())) {
            List<Piece> pieces = response.rest(WAIT);
            assertEquals(200, response.status());
            assertEquals(List.of("next", "complete"), pieces.stream().map(Piece::event).toList(), response.raw());
            assertEquals("GRAPHQL_VALIDATION_FAILED",
                    pieces.get(0).json().path("errors").get(0).path("extensions").path("code").asText(), response.raw());
        }
    }

    @Test
    void aSubscriptionSendsAnEventPerChangeUntilTheClientGoesAwayWhichFreesItAtOnce() {
        YearMonth month = busiestMonth();
        StreamedResponse response = events(TOP, Map.of("month", month.toString()));
        try {
            Piece first = response.next(WAIT);
            assertNotNull(first, response.raw());
            assertEquals("next", first.event());
            JsonNode list = first.json().path("data").path("topMoviesChanged");
            assertEquals(2, list.size(), first.json().toString());
            String leader = list.get(0).path("movie").path("id").asText();
            long before = list.get(0).path("streams").asLong();
            assertEquals(1, gauge("graphql_sse_subscriptions"));

            recordStream(leader, month);

            Piece second = response.next(WAIT);
            assertNotNull(second, "no event after a recorded stream: " + response.raw());
            JsonNode updated = second.json().path("data").path("topMoviesChanged");
            assertEquals(before + 1, updated.get(0).path("streams").asLong(), second.json().toString());
        } finally {
            response.close();
        }
        // Nothing is written to an idle stream: the server notices the closed connection itself.
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (gauge("graphql_sse_subscriptions") != 0 && System.nanoTime() < deadline) {
            sleep(50);
        }
        assertEquals(0, gauge("graphql_sse_subscriptions"), "the subscription outlived its client");
    }

    @Test
    void anEventSourceSubscribesByGet() {
        String query = URLEncoder.encode(TOP, StandardCharsets.UTF_8);
        String variables = URLEncoder.encode("{\"month\":\"" + busiestMonth() + "\"}", StandardCharsets.UTF_8);
        try (StreamedResponse response = StreamedResponse.get(server.port(),
                "/graphql?query=" + query + "&variables=" + variables, SSE)) {
            Piece first = response.next(WAIT);
            assertNotNull(first, response.raw());
            assertEquals(2, first.json().path("data").path("topMoviesChanged").size(), response.raw());
        }
    }

    @Test
    void aDeferredQueryOverTheWebSocketIsANextMessagePerPartThenComplete() {
        JsonNode whole = server.client().query(DeferTest.movieQuery(movieId(), "")).body();
        try (WsClient ws = WsClient.connected(server.port())) {
            ws.subscribe("q", DeferTest.movieQuery(movieId(), "@defer(label: \"cast\")"), Map.of());
            List<JsonNode> messages = new ArrayList<>();
            for (JsonNode message; (message = ws.next(10)) != null; ) {
                messages.add(message);
                if (message.path("type").asText().equals("complete")) {
                    break;
                }
            }
            assertEquals(List.of("next", "next", "complete"),
                    messages.stream().map(message -> message.path("type").asText()).toList(), messages.toString());
            JsonNode first = messages.get(0).path("payload");
            JsonNode last = messages.get(1).path("payload");
            assertTrue(first.path("hasNext").asBoolean(), first.toString());
            assertEquals("cast", last.path("incremental").get(0).path("label").asText(), last.toString());
            assertEquals(whole.path("data"), DeferTest.merged(List.of(first, last)));
        }
    }

    private void recordStream(String movieId, YearMonth month) {
        GraphQLClient.Response response = server.client().query("mutation($input: StreamInput!) {"
                + " recordStream(input: $input) { counted } }", Map.of("input", Map.of("movieId", movieId,
                "streamId", UUID.randomUUID().toString(), "at", month.atDay(3).atTime(12, 0) + ":00Z")));
        assertTrue(response.data().path("recordStream").path("counted").asBoolean(), response.body().toString());
    }

    private double gauge(String name) {
        String metrics = server.client().get("/metrics", Map.of(), null).raw().body();
        Matcher value = Pattern.compile("^" + name + " ([0-9.E+-]+)$", Pattern.MULTILINE).matcher(metrics);
        assertTrue(value.find(), metrics);
        return Double.parseDouble(value.group(1));
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
