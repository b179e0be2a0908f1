package dev.moviegraph.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.Moviegraph;
import dev.moviegraph.config.AppConfig;
import dev.moviegraph.local.EmbeddedDynamo;
import dev.moviegraph.support.GraphQLClient;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The calls of one level of a query go out together, not one after another: a proxy between the gateway
 * and DynamoDB Local holds every Query of a level (the casts, read on {@code lsi1}) until as many as the
 * level has are held at once, and only then lets them all through. Issued one after another, the first
 * would be held until the proxy gives up waiting, and at most one would ever be held. No timing is
 * asserted: the proxy's wait only runs out when the calls do not come together.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LevelCallsInFlightTest {
    private static final Set<String> HOP_BY_HOP = Set.of("host", "content-length", "connection", "transfer-encoding",
            "expect", "upgrade");
    /** How long the proxy holds calls waiting for the rest of their level: only reached when they do not come. */
    private static final long GIVE_UP_MILLIS = 3_000;

    private static EmbeddedDynamo dynamo;
    private static HoldingProxy proxy;
    private static Moviegraph server;
    private static GraphQLClient client;

    @BeforeAll
    static void start() throws IOException {
        dynamo = EmbeddedDynamo.ephemeral(true);
        proxy = new HoldingProxy(dynamo.endpoint());
        server = Moviegraph.start(AppConfig.fromEnvironment(Map.of("DYNAMODB_ENDPOINT", proxy.endpoint().toString(),
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
                + " cast(first: 3) { edges { node { person { name } } } } } } } } } }";
        proxy.holdUntil(6, "\"IndexName\":\"lsi1\"");
        JsonNode response = client.query(query).body();
        assertTrue(response.path("errors").isMissingNode(), response.toString());
        JsonNode movies = response.path("data").path("person").path("movies").path("edges");
        assertEquals(6, movies.size(), "a filmography of at least six (65 in the sample): " + response);
        assertEquals(6, proxy.held(), "every cast Query of the level was in flight before any was answered");
        assertEquals(6, proxy.mostHeldAtOnce());
    }

    @Test
    void twentyMoviesCastsGoOutAsFarAsTheInFlightLimitAllows() {
        // DynamoDB Local on loopback takes at most 8 calls at once (DynamoClients.LOCAL_CALLS_IN_FLIGHT):
        // the first 8 of the level's 10 Queries (one per movie's collection) are held together, the last 2
        // follow as those are answered.
        String ids = "\"tt0111161\", \"tt0068646\", \"tt0071562\", \"tt0468569\", \"tt0050083\", \"tt0108052\","
                + " \"tt0167260\", \"tt0110912\", \"tt0120737\", \"tt0060196\"";
        proxy.holdUntil(8, "");
        JsonNode response = client.query("{ movies(ids: [" + ids + "]) { cast(first: 2) { edges { node { person { name } } } } } }")
                .body();
        assertTrue(response.path("errors").isMissingNode(), response.toString());
        assertEquals(10, proxy.held(), "one Query per movie");
        assertEquals(8, proxy.mostHeldAtOnce(), "as many as the limit, at once");
    }

    /** Forwards every request to DynamoDB Local; while armed, holds Queries until N are held at once. */
    private static final class HoldingProxy implements AutoCloseable {
        private final HttpServer http;
        private final HttpClient upstreamClient = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        private final URI upstream;
        private final ExecutorService threads = Executors.newCachedThreadPool();
        private final AtomicBoolean armed = new AtomicBoolean();
        private final AtomicInteger held = new AtomicInteger();
        private final AtomicInteger heldNow = new AtomicInteger();
        private final AtomicInteger mostAtOnce = new AtomicInteger();
        private volatile CountDownLatch gate = new CountDownLatch(0);
        private volatile String index = "";

        HoldingProxy(URI upstream) throws IOException {
            this.upstream = upstream;
            // Else Nagle's algorithm against the SDK's delayed ACKs holds each answer about 40 ms.
            System.setProperty("sun.net.httpserver.nodelay", "true");
            http = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 64);
            http.setExecutor(threads);
            http.createContext("/", this::handle);
            http.start();
        }

        URI endpoint() {
            return URI.create("http://127.0.0.1:" + http.getAddress().getPort());
        }

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

        private void handle(HttpExchange exchange) throws IOException {
            try (exchange) {
                byte[] body;
                try (InputStream in = exchange.getRequestBody()) {
                    body = in.readAllBytes();
                }
                String target = String.valueOf(exchange.getRequestHeaders().getFirst("X-Amz-Target"));
                String text = new String(body, StandardCharsets.UTF_8);
                if (armed.get() && target.endsWith(".Query") && text.contains(index)) {
                    CountDownLatch mine = gate;
                    held.incrementAndGet();
                    mostAtOnce.accumulateAndGet(heldNow.incrementAndGet(), Math::max);
                    mine.countDown();
                    try {
                        mine.await(GIVE_UP_MILLIS, TimeUnit.MILLISECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    heldNow.decrementAndGet();
                }
                forward(exchange, body);
            }
        }

        private void forward(HttpExchange exchange, byte[] body) throws IOException {
            HttpRequest.Builder request = HttpRequest.newBuilder(upstream.resolve(exchange.getRequestURI().getRawPath()))
                    .method(exchange.getRequestMethod(), HttpRequest.BodyPublishers.ofByteArray(body));
            exchange.getRequestHeaders().forEach((name, values) -> {
                if (!HOP_BY_HOP.contains(name.toLowerCase())) {
                    values.forEach(value -> request.header(name, value));
                }
            });
            HttpResponse<byte[]> response;
            try {
                response = upstreamClient.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException(e);
            }
            response.headers().map().forEach((name, values) -> {
                if (!HOP_BY_HOP.contains(name.toLowerCase()) && !name.startsWith(":")) {
                    exchange.getResponseHeaders().put(name, values);
                }
            });
            byte[] answer = response.body();
            exchange.sendResponseHeaders(response.statusCode(), answer.length == 0 ? -1 : answer.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(answer);
            }
        }

        @Override
        public void close() {
            http.stop(0);
            threads.shutdownNow();
        }
    }
}
