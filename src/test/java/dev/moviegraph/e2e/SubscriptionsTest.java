package dev.moviegraph.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.support.GraphQLClient;
import dev.moviegraph.support.TestServer;
import dev.moviegraph.support.WsClient;

import com.fasterxml.jackson.databind.JsonNode;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.YearMonth;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;

/** Subscriptions over graphql-transport-ws on /graphql, against the shared server. */
class SubscriptionsTest {
    private static final String TOP = "subscription($month: YearMonth!, $limit: Int) {"
            + " topMoviesChanged(month: $month, limit: $limit) { movie { id title } streams } }";
    private final TestServer server = TestServer.get();

    private YearMonth busiestMonth() {
        return server.sample().months().get(server.sample().months().size() - 1);
    }

    private void recordStream(String movieId, YearMonth month) {
        GraphQLClient.Response response = server.client().query("mutation($input: StreamInput!) {"
                + " recordStream(input: $input) { counted } }", Map.of("input", Map.of("movieId", movieId,
                "streamId", UUID.randomUUID().toString(), "at", month.atDay(3).atTime(12, 0) + ":00Z")));
        assertTrue(response.data().path("recordStream").path("counted").asBoolean(), response.body().toString());
    }

    @Test
    void topMoviesChangedAnswersAtOnceThenAgainWhenAStreamIsRecorded() {
        YearMonth month = busiestMonth();
        try (WsClient ws = WsClient.connected(server.port())) {
            ws.subscribe("top", TOP, Map.of("month", month.toString(), "limit", 3));
            JsonNode first = ws.next(10);
            assertNotNull(first, "no first answer");
            assertEquals("next", first.path("type").asText(), first.toString());
            assertEquals("top", first.path("id").asText());
            JsonNode list = first.path("payload").path("data").path("topMoviesChanged");
            assertEquals(3, list.size(), first.toString());
            assertTrue(first.path("payload").path("extensions").path("cost").path("requests").asInt() >= 1,
                    first.toString());
            String leader = list.get(0).path("movie").path("id").asText();
            long before = list.get(0).path("streams").asLong();

            recordStream(leader, month);

            JsonNode second = ws.next(5);
            assertNotNull(second, "no update within 5 s after a recorded stream");
            assertEquals("next", second.path("type").asText(), second.toString());
            JsonNode updated = second.path("payload").path("data").path("topMoviesChanged");
            assertEquals(leader, updated.get(0).path("movie").path("id").asText(), second.toString());
            assertEquals(before + 1, updated.get(0).path("streams").asLong(), second.toString());
            assertTrue(second.path("payload").path("extensions").has("cost"), second.toString());
        }
    }

    @Test
    void streamTotalChangedFollowsOneMovieAndIsQuietForOthers() {
        YearMonth month = busiestMonth();
        var totals = server.sample().totals().stream().filter(total -> total.month().equals(month)).toList();
        String followed = totals.get(totals.size() - 1).movieId().value();
        String other = totals.get(totals.size() - 2).movieId().value();
        try (WsClient ws = WsClient.connected(server.port())) {
            ws.subscribe("one", "subscription($id: ID!, $month: YearMonth!) { streamTotalChanged(movieId: $id,"
                    + " month: $month) { streams movie { title } } }", Map.of("id", followed, "month", month.toString()));
            JsonNode first = ws.next(10);
            long before = first.path("payload").path("data").path("streamTotalChanged").path("streams").asLong();

            recordStream(other, month);
            assertNull(ws.next(1.5), "a stream of another movie changed nothing this subscription shows");

            recordStream(followed, month);
            JsonNode second = ws.next(5);
            assertNotNull(second, "no update within 5 s");
            assertEquals(before + 1, second.path("payload").path("data").path("streamTotalChanged").path("streams")
                    .asLong(), second.toString());
        }
    }

    @Test
    void theFieldsUnderASubscriptionBatchAsInAQuery() {
        YearMonth month = busiestMonth();
        String selection = "(month: \"" + month + "\", limit: 10) { streams movie { title year } }";
        JsonNode query = server.client().query("{ topMovies" + selection + " }").body();
        try (WsClient ws = WsClient.connected(server.port())) {
            ws.subscribe("top", "subscription { topMoviesChanged" + selection + " }", Map.of());
            JsonNode first = ws.next(10);
            // The month's top list (one GetItem), and one BatchGetItem for the ten movies, never one read per movie.
            assertEquals(2,
                    first.path("payload").path("extensions").path("cost").path("requests").asInt(), first.toString());
            assertEquals(query.path("data").path("topMovies"), first.path("payload").path("data").path("topMoviesChanged"));
        }
    }

    @Test
    void openSubscriptionsAndSocketsAreGaugedInMetrics() {
        try (WsClient ws = WsClient.connected(server.port())) {
            ws.subscribe("top", TOP, Map.of("month", busiestMonth().toString(), "limit", 1));
            assertNotNull(ws.next(10));
            String metrics = server.client().get("/metrics", Map.of(), null).raw().body();
            assertTrue(gauge(metrics, "graphql_subscriptions") >= 1, metrics);
            assertTrue(gauge(metrics, "graphql_websocket_connections") >= 1, metrics);
            ws.send(Map.of("id", "top", "type", "complete"));
        }
    }

    private static double gauge(String metrics, String name) {
        return metrics.lines().filter(line -> line.startsWith(name + " ")).mapToDouble(line ->
                Double.parseDouble(line.substring(name.length() + 1).trim())).findFirst().orElse(-1);
    }

    @Test
    void completeStopsTheUpdates() {
        YearMonth month = busiestMonth();
        try (WsClient ws = WsClient.connected(server.port())) {
            ws.subscribe("top", TOP, Map.of("month", month.toString(), "limit", 1));
            String leader = ws.next(10).path("payload").path("data").path("topMoviesChanged").get(0).path("movie").path("id").asText();
            ws.send(Map.of("id", "top", "type", "complete"));
            recordStream(leader, month);
            assertNull(ws.next(2), "a completed subscription sent more");
        }
    }

    @Test
    void queriesOverTheSocketAnswerOnceAndComplete() {
        try (WsClient ws = WsClient.connected(server.port())) {
            ws.subscribe("q", "{ movie(id: \"tt0111161\") { title } }", Map.of());
            JsonNode next = ws.next(10);
            assertEquals("next", next.path("type").asText(), next.toString());
            assertFalse(next.path("payload").path("data").path("movie").path("title").asText().isEmpty());
            JsonNode complete = ws.next(5);
            assertEquals("complete", complete.path("type").asText(), complete.toString());
            assertEquals("q", complete.path("id").asText());
        }
    }

    @Test
    void anInvalidSubscriptionGetsAnErrorMessageWithTheValidationCode() {
        try (WsClient ws = WsClient.connected(server.port())) {
            ws.subscribe("bad", "subscription { topMoviesChanged(month: \"2024-05\") { nope } }", Map.of());
            JsonNode error = ws.next(10);
            assertEquals("error", error.path("type").asText(), error.toString());
            assertEquals("GRAPHQL_VALIDATION_FAILED", error.path("payload").get(0).path("extensions").path("code").asText(),
                    error.toString());
            // The socket stays open for the next operation.
            ws.send(Map.of("type", "ping"));
            assertEquals("pong", ws.next(5).path("type").asText());
        }
    }

    @Test
    void subscriptionsSentOverHttpAreRefusedWithAClearMessage() {
        GraphQLClient.Response response = server.client().query("subscription { topMoviesChanged(month: \"2024-05\") { streams } }");
        assertEquals("BAD_REQUEST", response.firstErrorCode(), response.body().toString());
        assertTrue(response.errors().get(0).path("message").asText().contains("graphql-transport-ws"));
    }

    @Test
    void protocolViolationsCloseWithGraphqlWsCodes() {
        try (WsClient ws = WsClient.open(server.port())) {
            ws.subscribe("early", TOP, Map.of("month", "2024-05"));
            assertEquals(4401, ws.closeCode(5), ws.closeReason());
        }
        try (WsClient ws = WsClient.connected(server.port())) {
            ws.send(Map.of("type", "connection_init"));
            assertEquals(4429, ws.closeCode(5), ws.closeReason());
        }
        try (WsClient ws = WsClient.connected(server.port())) {
            ws.subscribe("same", TOP, Map.of("month", busiestMonth().toString()));
            ws.subscribe("same", TOP, Map.of("month", busiestMonth().toString()));
            assertEquals(4409, ws.closeCode(5), ws.closeReason());
            assertEquals("Subscriber for same already exists", ws.closeReason());
        }
        try (WsClient ws = WsClient.connected(server.port())) {
            ws.sendText("{not json");
            assertEquals(4400, ws.closeCode(5), ws.closeReason());
        }
        try (WsClient ws = WsClient.connected(server.port())) {
            ws.send(Map.of("type", "unknown"));
            assertEquals(4400, ws.closeCode(5), ws.closeReason());
        }
        try (WsClient ws = WsClient.openWith(server.port(), "graphql-ws")) {
            assertEquals(4406, ws.closeCode(5), ws.closeReason());
        }
    }

    @Test
    void aSocketThatNeverInitialisesIsClosedAfterTheInitTimeout() {
        try (WsClient ws = WsClient.open(server.port())) {
            assertEquals(0, ws.closeCode(1.5), "closed before the 3 s timeout");
            assertEquals(4408, ws.closeCode(5), ws.closeReason());
        }
    }

    @Test
    void theUpgradeAnswers101WithTheSubProtocolAndNoCookie() throws Exception {
        try (java.net.Socket socket = new java.net.Socket("127.0.0.1", server.port())) {
            socket.setSoTimeout(5_000);
            socket.getOutputStream().write(("GET /graphql HTTP/1.1\r\nHost: 127.0.0.1:" + server.port()
                    + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
                    + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Protocol: graphql-transport-ws\r\n\r\n")
                    .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            java.io.BufferedReader reader = new java.io.BufferedReader(new java.io.InputStreamReader(
                    socket.getInputStream(), java.nio.charset.StandardCharsets.US_ASCII));
            List<String> head = new java.util.ArrayList<>();
            for (String line = reader.readLine(); line != null && !line.isEmpty(); line = reader.readLine()) {
                head.add(line.toLowerCase(java.util.Locale.ROOT));
            }
            assertTrue(head.get(0).startsWith("http/1.1 101"), head.toString());
            assertTrue(head.contains("sec-websocket-protocol: graphql-transport-ws"), head.toString());
            assertTrue(head.stream().noneMatch(line -> line.startsWith("set-cookie")), head.toString());
        }
    }

    @Test
    void theUpgradeSetsNoCookie() throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create("http://localhost:" + server.port() + "/graphql"))
                .header("Accept", "application/json").GET().build(), HttpResponse.BodyHandlers.ofString());
        assertTrue(response.headers().allValues("Set-Cookie").isEmpty(), response.headers().toString());
        try (WsClient ws = WsClient.connected(server.port())) {
            ws.send(Map.of("type", "ping", "payload", Map.of()));
            assertEquals("pong", ws.next(5).path("type").asText());
        }
    }
}
