package dev.moviegraph.support;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An HTTP proxy in front of a DynamoDB endpoint that may hold back a request before forwarding it: by
 * default every request whose body contains a marker (a key, say) for a while, a DynamoDB that is slow
 * for one item, so tests can watch the gateway's time limit at work over real HTTP; or as a {@link Hold}
 * decides (until other requests arrive, say).
 */
public final class DelayingProxy implements AutoCloseable {
    private static final Set<String> HOP_BY_HOP = Set.of("host", "connection", "content-length", "expect",
            "upgrade", "keep-alive", "transfer-encoding");

    private final HttpServer server;
    private final HttpClient upstreamClient = HttpClient.newHttpClient();
    private final URI upstream;
    private final Hold hold;
    private final AtomicInteger delayed = new AtomicInteger();

    /** Decides, for each request, whether to hold it before it is forwarded, and for how long. */
    public interface Hold {
        /** Whether to hold this request ({@code target}: its X-Amz-Target). */
        boolean holds(String target, String body);

        /** Returns once a held request may go on. */
        void await() throws InterruptedException;
    }

    public DelayingProxy(URI upstream, String marker, Duration delay) throws IOException {
        this(upstream, new Hold() {
            @Override
            public boolean holds(String target, String body) {
                return body.contains(marker);
            }

            @Override
            public void await() throws InterruptedException {
                Thread.sleep(delay.toMillis());
            }
        });
    }

    public DelayingProxy(URI upstream, Hold hold) throws IOException {
        this.upstream = upstream;
        this.hold = hold;
        // Else the JDK's server writes headers and body apart, and Nagle's algorithm against the client's
        // delayed ACKs holds each answer about 40 ms.
        System.setProperty("sun.net.httpserver.nodelay", "true");
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newCachedThreadPool(runnable -> {
            Thread thread = new Thread(runnable, "delaying-proxy");
            thread.setDaemon(true);
            return thread;
        }));
        server.createContext("/", this::forward);
        server.start();
    }

    public URI uri() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    /** How many requests were held back. */
    public int delayed() {
        return delayed.get();
    }

    private void forward(HttpExchange exchange) throws IOException {
        try (exchange) {
            byte[] body = exchange.getRequestBody().readAllBytes();
            if (hold.holds(String.valueOf(exchange.getRequestHeaders().getFirst("X-Amz-Target")),
                    new String(body, StandardCharsets.UTF_8))) {
                delayed.incrementAndGet();
                hold.await();
            }
            HttpRequest.Builder request = HttpRequest.newBuilder(upstream.resolve(exchange.getRequestURI().getPath()))
                    .method(exchange.getRequestMethod(), HttpRequest.BodyPublishers.ofByteArray(body));
            exchange.getRequestHeaders().forEach((name, values) -> {
                if (!HOP_BY_HOP.contains(name.toLowerCase())) {
                    values.forEach(value -> request.header(name, value));
                }
            });
            HttpResponse<byte[]> response = upstreamClient.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
            response.headers().map().forEach((name, values) -> {
                if (!HOP_BY_HOP.contains(name.toLowerCase()) && !name.startsWith(":")) {
                    exchange.getResponseHeaders().put(name, values);
                }
            });
            exchange.sendResponseHeaders(response.statusCode(), response.body().length == 0 ? -1 : response.body().length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(response.body());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException e) {
            // the gateway gave up on this request (its time limit cancelled it): nothing to answer
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
