package dev.moviegraph.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.Moviegraph;
import dev.moviegraph.catalog.Movie;
import dev.moviegraph.config.AppConfig;
import dev.moviegraph.local.SampleCatalog;
import dev.moviegraph.support.GraphQLClient;
import dev.moviegraph.support.GraphQLClient.Response;
import dev.moviegraph.support.RequestCounter;
import dev.moviegraph.support.WsClient;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Each client's read units per second on a real server (CLIENT_READ_UNITS_PER_SECOND=1, so a bucket of 5
 * units, behind a trusted proxy's X-Forwarded-For): a client that spent them is refused with 429,
 * Retry-After and RATE_LIMITED before any DynamoDB call, over HTTP and WebSocket alike, while other
 * clients are not. One query over 50 movies costs far more than the bucket holds, so no refill can
 * make a refused client admitted again within the test (the refill itself: ClientBudgetsTest).
 */
class ClientRateTest {
    private static final String JSON = "application/json";
    private static final String WRITE_TOKEN = "client-rate-write-token";
    private static final RequestCounter counter = new RequestCounter();
    private static Moviegraph server;
    private static GraphQLClient client;
    private static String spend;

    @BeforeAll
    static void start() {
        server = Moviegraph.start(AppConfig.fromEnvironment(Map.of("PORT", "0", "CLIENT_READ_UNITS_PER_SECOND", "1",
                "CLIENT_ADDRESS_HEADER", "X-Forwarded-For", "WRITE_TOKEN", WRITE_TOKEN)), List.of(counter));
        client = new GraphQLClient(server.port());
        String ids = SampleCatalog.generate(SampleCatalog.DEFAULT_SEED).movies().stream().limit(50).map(Movie::id)
                .map(id -> "\"" + id.value() + "\"").collect(Collectors.joining(", ", "[", "]"));
        spend = GraphQLClient.body("{ movies(ids: " + ids + ") { title } }", Map.of());
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static Response send(Map<String, String> headers) {
        return client.post(spend, JSON, JSON, headers);
    }

    @Test
    void aClientThatSpentItsUnitsGets429WithRetryAfterBeforeAnyCallCountedAndAnotherClientDoesNot() {
        Map<String, String> spender = Map.of("X-Forwarded-For", "10.0.1.1");
        double chargedBefore = metric("moviegraph_client_charged_read_units_total");
        Response spent = send(spender);
        assertEquals(200, spent.status(), spent.raw().body());
        double consumed = spent.body().path("extensions").path("cost").path("readUnits").asDouble();
        assertTrue(consumed > 5, spent.raw().body());
        assertEquals(chargedBefore + consumed, metric("moviegraph_client_charged_read_units_total"), 1e-9,
                "what the request consumed is charged to its client, in /metrics");
        double before = refusals("http");
        counter.reset();

        Response refused = send(spender);

        assertEquals(429, refused.status(), refused.raw().body());
        assertEquals("RATE_LIMITED", refused.firstErrorCode());
        long retryAfter = Long.parseLong(refused.raw().headers().firstValue("Retry-After").orElseThrow());
        assertTrue(retryAfter >= 1, "whole seconds: " + retryAfter);
        assertEquals(retryAfter, refused.errors().get(0).path("extensions").path("retryAfterSeconds").asLong());
        assertEquals(List.of(), counter.operations(), "refused before any DynamoDB call");
        Response get = client.get("/graphql", Map.of("query", "{ movie(id: \"tt0111161\") { title } }"), JSON, spender);
        assertEquals(429, get.status(), "GET too");
        assertEquals(before + 2, refusals("http"), "counted in /metrics");
        Response invented = send(Map.of("X-Forwarded-For", "10.0.1.1", "Authorization", "Bearer invented-credential-2"));
        assertEquals(429, invented.status(), "a credential nobody verifies is no new budget: " + invented.raw().body());
        Response writer = send(Map.of("X-Forwarded-For", "10.0.1.1", "Authorization", "Bearer " + WRITE_TOKEN));
        assertEquals(200, writer.status(), "the write token's bearer, the deployment's own writer, is exempt: "
                + writer.raw().body());
        Response other = send(Map.of("X-Forwarded-For", "10.0.1.2"));
        assertEquals(200, other.status(), "another client has its own units: " + other.raw().body());
    }

    @Test
    void behindTheTrustedProxyTheAddressItAppendedIsTheClientWhateverTheClientPutBeforeIt() {
        Response spent = send(Map.of("X-Forwarded-For", "203.0.113.7, 10.0.0.1"));
        assertEquals(200, spent.status(), spent.raw().body());

        Response forged = send(Map.of("X-Forwarded-For", "198.51.100.99, 10.0.0.1"));
        Response otherAddress = send(Map.of("X-Forwarded-For", "203.0.113.7, 10.0.0.2"));

        assertEquals(429, forged.status(), "the left-most address is the client's own claim: " + forged.raw().body());
        assertEquals(200, otherAddress.status(), "another address the proxy saw: " + otherAddress.raw().body());
    }

    @Test
    void aSpentClientsSubscriptionGetsAnErrorMessageWithTheCodeAndTheRefusalIsCounted() {
        // The socket connects from this machine's address, without the proxy's header: so does this spender.
        assertEquals(200, send(Map.of()).status());
        double before = refusals("websocket");

        try (WsClient ws = WsClient.open(server.port())) {
            ws.send(Map.of("type", "connection_init", "payload", Map.of("Authorization", "Bearer invented-credential-3")));
            assertEquals("connection_ack", ws.next(5).path("type").asText());
            ws.subscribe("top", "subscription { topMoviesChanged(month: \"2024-05\", limit: 3) { streams } }", Map.of());
            JsonNode message = ws.next(10);

            assertEquals("error", message.path("type").asText(), message.toString());
            assertEquals("top", message.path("id").asText());
            assertEquals("RATE_LIMITED", message.path("payload").path(0).path("extensions").path("code").asText());
        }
        assertEquals(before + 1, refusals("websocket"));
    }

    private static double refusals(String transport) {
        return metric("moviegraph_client_refusals_total{transport=\"" + transport + "\"}");
    }

    /** A series of /metrics by its name and labels as Prometheus prints them; 0 when it is not there yet. */
    private static double metric(String series) {
        String text = client.get("/metrics", Map.of(), "text/plain").raw().body();
        Matcher matcher = Pattern.compile("(?m)^" + Pattern.quote(series) + " ([0-9.eE+-]+)$").matcher(text);
        return matcher.find() ? Double.parseDouble(matcher.group(1)) : 0;
    }
}
