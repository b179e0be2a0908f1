package dev.moviegraph.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.Moviegraph;
import dev.moviegraph.config.AppConfig;
import dev.moviegraph.local.SampleCatalog;
import dev.moviegraph.support.WsClient;

import com.fasterxml.jackson.databind.JsonNode;

import java.net.http.WebSocketHandshakeException;
import java.time.YearMonth;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;

import org.junit.jupiter.api.Test;

/** The bounds of the WebSocket transport, on a server of its own with small limits. */
class SubscriptionLimitsTest {
    private static final String TOP = "subscription($month: YearMonth!) { topMoviesChanged(month: $month, limit: 2)"
            + " { streams } }";

    @Test
    void connectionsSubscriptionsAndQueryLimitsAreBoundedAndAStopClosesEverySocketCleanly() throws Exception {
        YearMonth month = SampleCatalog.generate(SampleCatalog.DEFAULT_SEED).months().get(0);
        Map<String, Object> variables = Map.of("month", month.toString());
        // Other servers of this JVM (the shared test server) have threads of the same names.
        java.util.Set<Thread> before = Thread.getAllStackTraces().keySet();
        Moviegraph server = Moviegraph.start(AppConfig.fromEnvironment(Map.of("PORT", "0",
                "MAX_SUBSCRIPTIONS_PER_CONNECTION", "2", "MAX_WS_CONNECTIONS", "2", "MAX_QUERY_DEPTH", "4",
                "MAX_READ_UNITS", "20")), List.of());
        WsClient first = null;
        WsClient second = null;
        try {
            first = WsClient.connected(server.port());
            second = WsClient.connected(server.port());
            try (WsClient third = WsClient.open(server.port())) {
                assertEquals(1013, third.closeCode(5), third.closeReason());
                assertTrue(third.closeReason().contains("MAX_WS_CONNECTIONS"), third.closeReason());
            }

            first.subscribe("a", TOP, variables);
            first.subscribe("b", TOP, variables);
            assertEquals("next", first.next(10).path("type").asText());
            assertEquals("next", first.next(10).path("type").asText());
            first.subscribe("c", TOP, variables);
            JsonNode refused = first.next(10);
            assertEquals("error", refused.path("type").asText(), refused.toString());
            assertEquals("c", refused.path("id").asText());
            assertEquals("LIMIT_EXCEEDED", refused.path("payload").get(0).path("extensions").path("code").asText());

            // The same limits as a query: depth, and the read budget estimated before any read.
            second.subscribe("deep", "subscription($month: YearMonth!) { topMoviesChanged(month: $month) { movie {"
                    + " cast { edges { node { person { name } } } } } } }", variables);
            JsonNode deep = second.next(10);
            assertEquals("error", deep.path("type").asText(), deep.toString());
            assertTrue(deep.toString().contains("depth"), deep.toString());
            second.subscribe("costly", "subscription($month: YearMonth!) { topMoviesChanged(month: $month, limit: 100)"
                    + " { movie { cast(first: 100) { edges { cursor } } } } }", variables);
            JsonNode costly = second.next(10);
            assertEquals("error", costly.path("type").asText(), costly.toString());
            assertEquals("LIMIT_EXCEEDED", costly.path("payload").get(0).path("extensions").path("code").asText(),
                    costly.toString());

            server.close();
            assertEquals(1001, first.closeCode(10), first.closeReason());
            assertEquals(1001, second.closeCode(10), second.closeReason());
            List<String> left = Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive)
                    .filter(thread -> !before.contains(thread)).map(Thread::getName)
                    .filter(name -> name.startsWith("moviegraph-change-feed") || name.startsWith("moviegraph-ws-"))
                    .toList();
            assertEquals(List.of(), left, "threads left running after the stop");
        } finally {
            if (first != null) {
                first.close();
            }
            if (second != null) {
                second.close();
            }
            server.close();
        }
    }

    @Test
    void withSubscriptionsOffNoSocketIsAccepted() {
        Moviegraph server = Moviegraph.start(AppConfig.fromEnvironment(Map.of("PORT", "0", "SUBSCRIPTIONS", "off")),
                List.of());
        try {
            CompletionException refused = assertThrows(CompletionException.class, () -> WsClient.open(server.port()));
            assertEquals(404, ((WebSocketHandshakeException) refused.getCause()).getResponse().statusCode());
        } finally {
            server.close();
        }
    }
}
