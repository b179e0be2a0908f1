package dev.moviegraph.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.Moviegraph;
import dev.moviegraph.catalog.Movie;
import dev.moviegraph.config.AppConfig;
import dev.moviegraph.local.EmbeddedDynamo;
import dev.moviegraph.local.SampleCatalog;
import dev.moviegraph.support.DelayingProxy;
import dev.moviegraph.support.GraphQLClient;
import dev.moviegraph.support.StreamedResponse;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The limits of a request hold for its deferred parts, and each part leaves as soon as it is ready, on a
 * server whose DynamoDB is behind a proxy that holds the reads of two movies: one until the test lets it
 * go (so the first part must have arrived while the deferred read was still held: flushed, not buffered),
 * one longer than the request's time limit.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class DeferredPartsTest {
    private static final List<Movie> MOVIES = SampleCatalog.generate(SampleCatalog.DEFAULT_SEED).movies();
    /** Held until a test lets it go. */
    private static final String HELD = MOVIES.get(1).id().value();
    /**
     * Held longer than the time limit and shorter than the SDK's 3 s attempt timeout: a call that times out
     * opens the outage breaker, and the next tests' reads would fail at once.
     */
    private static final String STUCK = MOVIES.get(2).id().value();
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final long TIME_LIMIT_MILLIS = 1_000;
    private static final long STUCK_MILLIS = 1_800;

    private static volatile CountDownLatch release = new CountDownLatch(1);
    private static final CountDownLatch closing = new CountDownLatch(1);
    private static EmbeddedDynamo dynamo;
    private static DelayingProxy proxy;
    private static Moviegraph server;

    @BeforeAll
    static void start() throws IOException {
        dynamo = EmbeddedDynamo.ephemeral(true);
        proxy = new DelayingProxy(dynamo.endpoint(), new DelayingProxy.Hold() {
            private final ThreadLocal<String> held = new ThreadLocal<>();

            @Override
            public boolean holds(String target, String body) {
                held.set(body.contains("mov#" + HELD) ? HELD : body.contains("mov#" + STUCK) ? STUCK : null);
                return held.get() != null;
            }

            @Override
            public void await() throws InterruptedException {
                if (HELD.equals(held.get())) {
                    release.await(60, TimeUnit.SECONDS);
                } else {
                    closing.await(STUCK_MILLIS, TimeUnit.MILLISECONDS);
                }
            }
        });
        server = Moviegraph.start(AppConfig.fromEnvironment(Map.of("DYNAMODB_ENDPOINT", proxy.uri().toString(),
                "PORT", "0", "CREATE_TABLE", "false", "LOAD_SAMPLE", "false",
                "REQUEST_TIMEOUT_MS", String.valueOf(TIME_LIMIT_MILLIS),
                "MAX_RESULT_NODES", "100", "MAX_DEFERRED_FRAGMENTS", "2")), List.of());
    }

    @AfterAll
    static void stop() {
        release.countDown();
        closing.countDown();
        if (server != null) {
            server.close();
        }
        if (proxy != null) {
            proxy.close();
        }
        if (dynamo != null) {
            dynamo.close();
        }
    }

    private static StreamedResponse multipart(String query) {
        return StreamedResponse.post(server.port(), GraphQLClient.body(query, Map.of()), DeferTest.APOLLO_ACCEPT, Map.of());
    }

    @Test
    void theFirstPartLeavesWhileADeferredReadIsStillHeld() {
        release = new CountDownLatch(1);
        try (StreamedResponse response = multipart("{ fast: movie(id: \"" + MOVIES.get(0).id().value()
                + "\") { title } ... @defer { held: movie(id: \"" + HELD + "\") { title } } }")) {
            StreamedResponse.Piece first = response.next(WAIT);
            assertNotNull(first, "the first part did not arrive while the deferred read was held: " + response.raw());
            assertEquals(MOVIES.get(0).title(), first.json().path("data").path("fast").path("title").asText());
            assertTrue(first.json().path("hasNext").asBoolean(), first.json().toString());
            assertEquals(1, release.getCount(), "the deferred read is still held");

            release.countDown();
            List<JsonNode> rest = response.jsonUntilEnd(WAIT);
            assertEquals(1, rest.size(), response.raw());
            JsonNode item = rest.get(0).path("incremental").get(0);
            // Let go as soon as the first part was read: its title, unless this machine took longer than the
            // time limit to hand the first part to the test (then the held read was stopped, TIMEOUT).
            if (item.path("errors").isMissingNode()) {
                assertEquals(MOVIES.get(1).title(), item.path("data").path("held").path("title").asText(), response.raw());
            } else {
                assertEquals("TIMEOUT", item.path("errors").get(0).path("extensions").path("code").asText(), response.raw());
            }
            assertTrue(response.closedProperly(), response.raw());
        }
    }

    @Test
    void aDeferredPartPastTheTimeLimitIsStoppedWithItsErrorAndTheResponseStillCloses() {
        // TIMEOUT in the part is the proof: had the read come back first, its data would be there.
        try (StreamedResponse response = multipart("{ fast: movie(id: \"" + MOVIES.get(0).id().value()
                + "\") { title } ... @defer { stuck: movie(id: \"" + STUCK + "\") { title } } }")) {
            List<JsonNode> parts = response.jsonUntilEnd(WAIT);
            assertTrue(response.closedProperly(), "the closing boundary after a failed part: " + response.raw());
            assertEquals(2, parts.size(), response.raw());
            JsonNode item = parts.get(1).path("incremental").get(0);
            assertTrue(item.path("data").path("stuck").isNull(), item.toString());
            assertEquals("TIMEOUT", item.path("errors").get(0).path("extensions").path("code").asText(), item.toString());
            assertFalse(parts.get(1).path("hasNext").asBoolean(true));
        }
    }

    @Test
    void theResultSizeLimitHoldsForDeferredParts() {
        String ids = MOVIES.stream().skip(3).limit(30).map(movie -> "\"" + movie.id().value() + "\"")
                .collect(Collectors.joining(", ", "[", "]"));
        try (StreamedResponse response = multipart("{ movie(id: \"" + MOVIES.get(0).id().value() + "\") { title }"
                + " ... @defer { movies(ids: " + ids + ") { title year genres } } }")) {
            List<JsonNode> parts = response.jsonUntilEnd(WAIT);
            assertTrue(response.closedProperly(), response.raw());
            JsonNode last = parts.get(parts.size() - 1);
            assertFalse(last.path("hasNext").asBoolean(true), last.toString());
            assertEquals("LIMIT_EXCEEDED", last.path("errors").get(0).path("extensions").path("code").asText(),
                    last.toString());
            assertTrue(last.path("errors").get(0).path("message").asText().contains("MAX_RESULT_NODES"), last.toString());
        }
    }

    @Test
    void moreDeferredFragmentsThanAllowedAreRefusedBeforeAnyRead() {
        GraphQLClient.Response response = new GraphQLClient(server.port()).post(GraphQLClient.body("""
                fragment T on Movie { ... @defer { year } }
                { movie(id: "%s") { title ... @defer { genres } ... T ... @defer { runtimeMinutes } } }"""
                .formatted(MOVIES.get(0).id().value()), Map.of()), "application/json", DeferTest.APOLLO_ACCEPT);

        assertEquals("LIMIT_EXCEEDED", response.firstErrorCode(), response.raw().body());
        assertTrue(response.errors().get(0).path("message").asText().contains("3 deferred fragments"),
                response.raw().body());
        assertTrue(response.body().path("data").isMissingNode() || response.body().path("data").isNull(),
                response.raw().body());
    }
}
