package dev.moviegraph.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.Moviegraph;
import dev.moviegraph.config.AppConfig;
import dev.moviegraph.local.EmbeddedDynamo;
import dev.moviegraph.support.DelayingProxy;
import dev.moviegraph.support.GraphQLClient;

import com.fasterxml.jackson.databind.JsonNode;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The calls of one level of a query go out together, not one after another: a proxy between the gateway
 * and the engine holds every Query of a level (the casts, read on {@code lsi1}) until as many as the
 * level has are held at once, and only then lets them all through. Issued one after another, the first
 * would be held until the proxy gives up waiting, and at most one would ever be held. No timing is
 * asserted: the proxy's wait only runs out when the calls do not come together.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LevelCallsInFlightTest {
    /** How long the proxy holds calls waiting for the rest of their level: only reached when they do not come. */
    private static final long GIVE_UP_MILLIS = 3_000;

    private static final LevelGate gate = new LevelGate();
    private static EmbeddedDynamo dynamo;
    private static DelayingProxy proxy;
    private static Moviegraph server;
    private static GraphQLClient client;

    @BeforeAll
    static void start() throws IOException {
        dynamo = EmbeddedDynamo.ephemeral(true);
        proxy = new DelayingProxy(dynamo.endpoint(), gate);
        server = Moviegraph.start(AppConfig.fromEnvironment(Map.of("DYNAMODB_ENDPOINT", proxy.uri().toString(),
                "PORT", "0", "CREATE_TABLE", "false", "LOAD_SAMPLE", "false")), List.of());
        client = new GraphQLClient(server.port());
    }

    @AfterAll
    static void stop() {
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

    @Test
    void theCastQueriesOfOneLevelAreAllInFlightAtOnce() {
        String query = "{ person(id: \"nm5161932\") { movies(first: 6) { edges { node { movie { title"
                + " cast(first: 6) { edges { node { person { name } } } } } } } } } }"; // past the movies' copies
        gate.holdUntil(6, "\"IndexName\":\"lsi1\"");
        JsonNode response = client.query(query).body();
        assertTrue(response.path("errors").isMissingNode(), response.toString());
        JsonNode movies = response.path("data").path("person").path("movies").path("edges");
        assertEquals(6, movies.size(), "a filmography of at least six (65 in the sample): " + response);
        assertEquals(6, gate.held(), "every cast Query of the level was in flight before any was answered");
        assertEquals(6, gate.mostHeldAtOnce());
    }

    @Test
    void twentyMoviesCastsGoOutAsFarAsTheInFlightLimitAllows() {
        // A DynamoDB on loopback takes at most 8 calls at once (DynamoClients.LOCAL_CALLS_IN_FLIGHT):
        // the first 8 of the level's 10 Queries (one per movie's collection) are held together, the last 2
        // follow as those are answered. Six is past the first five each movie item copies (a page of five
        // or fewer is read with the movies, in one BatchGetItem: FirstCastCopyTest).
        String ids = "\"tt0111161\", \"tt0068646\", \"tt0071562\", \"tt0468569\", \"tt0050083\", \"tt0108052\","
                + " \"tt0167260\", \"tt0110912\", \"tt0120737\", \"tt0060196\"";
        gate.holdUntil(8, "");
        JsonNode response = client.query("{ movies(ids: [" + ids + "]) { cast(first: 6) { edges { node { person { name } } } } } }")
                .body();
        assertTrue(response.path("errors").isMissingNode(), response.toString());
        assertEquals(10, gate.held(), "one Query per movie");
        assertEquals(8, gate.mostHeldAtOnce(), "as many as the limit, at once");
    }

    /** While armed, holds the Queries whose body names an index until N of them are held at once. */
    private static final class LevelGate implements DelayingProxy.Hold {
        private final AtomicBoolean armed = new AtomicBoolean();
        private final AtomicInteger held = new AtomicInteger();
        private final AtomicInteger heldNow = new AtomicInteger();
        private final AtomicInteger mostAtOnce = new AtomicInteger();
        private volatile CountDownLatch gate = new CountDownLatch(0);
        private volatile String index = "";

        /**
         * From now on, hold each Query whose body names {@code index} until {@code calls} of them are held
         * (or the wait runs out); later ones go straight through.
         */
        void holdUntil(int calls, String index) {
            this.index = index;
            held.set(0);
            mostAtOnce.set(0);
            gate = new CountDownLatch(calls);
            armed.set(true);
        }

        int held() {
            return held.get();
        }

        int mostHeldAtOnce() {
            return mostAtOnce.get();
        }

        @Override
        public boolean holds(String target, String body) {
            return armed.get() && target.endsWith(".Query") && body.contains(index);
        }

        @Override
        public void await() throws InterruptedException {
            CountDownLatch mine = gate;
            held.incrementAndGet();
            mostAtOnce.accumulateAndGet(heldNow.incrementAndGet(), Math::max);
            mine.countDown();
            try {
                mine.await(GIVE_UP_MILLIS, TimeUnit.MILLISECONDS);
            } finally {
                heldNow.decrementAndGet();
            }
        }
    }
}
