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
 * An HTTP proxy in front of a DynamoDB endpoint that holds back every request whose body contains a
 * marker (a key, say) for a while before forwarding it: a DynamoDB that is slow for one item, so tests
 * can watch the gateway's time limit at work over real HTTP.
 */
public final class DelayingProxy implements AutoCloseable {
    private static final Set<String> HOP_BY_HOP = Set.of("host", "connection", "content-length", "expect",
            "upgrade", "keep-alive", "transfer-encoding");

    private final HttpServer server;
    private final HttpClient upstreamClient = HttpClient.newHttpClient();
    private final URI upstream;
    private final String marker;
    private final Duration delay;
    private final AtomicInteger delayed = new AtomicInteger();

    public DelayingProxy(URI upstream, String marker, Duration delay) throws IOException {
        this.upstream = upstream;
        this.marker = marker;
        this.delay = delay;
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
            if (new String(body, StandardCharsets.UTF_8).contains(marker)) {
                delayed.incrementAndGet();
                Thread.sleep(delay.toMillis());
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
