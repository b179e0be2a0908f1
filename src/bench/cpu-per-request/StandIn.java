import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A DynamoDB stand-in over real HTTP that answers from memory after a fixed latency, so that what a run
 * measures is the gateway: {@code StandIn PORT DYNAMODB_LOCAL_URL LATENCY_MS}. A read (GetItem, Query,
 * BatchGetItem, DescribeTable) is asked of the engine the first time its exact body is seen, and
 * every repeat is answered with the same bytes and headers from memory; writes always go through. Each
 * answer leaves {@code LATENCY_MS} after its request arrived (0: at once), as a regional DynamoDB
 * answers in about 5 ms.
 */
public class StandIn {
    private static final Set<String> READS = Set.of("GetItem", "Query", "BatchGetItem", "DescribeTable");
    private static final Set<String> HOP_BY_HOP = Set.of("host", "content-length", "connection", "transfer-encoding",
            "expect", "upgrade");

    record Answer(int status, Map<String, List<String>> headers, byte[] body) {}

    public static void main(String[] args) throws Exception {
        // Without it the JDK's server writes headers and body apart, and Nagle's algorithm against the
        // client's delayed ACK holds each answer about 40 ms.
        System.setProperty("sun.net.httpserver.nodelay", "true");
        int port = Integer.parseInt(args[0]);
        URI upstream = URI.create(args[1]);
        long latencyNanos = (long) (Double.parseDouble(args[2]) * 1_000_000);
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        Map<String, Answer> memory = new ConcurrentHashMap<>();
        AtomicLong hits = new AtomicLong();
        AtomicLong misses = new AtomicLong();
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 1024);
        server.setExecutor(Executors.newFixedThreadPool(256));
        server.createContext("/", exchange -> {
            long arrived = System.nanoTime();
            try (exchange) {
                byte[] body;
                try (InputStream in = exchange.getRequestBody()) {
                    body = in.readAllBytes();
                }
                String target = exchange.getRequestHeaders().getFirst("X-Amz-Target");
                String operation = target == null ? "" : target.substring(target.indexOf('.') + 1);
                String key = READS.contains(operation) ? target + "\n" + new String(body, java.nio.charset.StandardCharsets.UTF_8) : null;
                Answer answer = key == null ? null : memory.get(key);
                if (answer == null) {
                    answer = forward(client, upstream, exchange, body);
                    misses.incrementAndGet();
                    if (key != null && answer.status() == 200) {
                        memory.put(key, answer);
                    }
                } else {
                    hits.incrementAndGet();
                }
                long wait = latencyNanos - (System.nanoTime() - arrived);
                if (wait > 0) {
                    Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
                }
                answer.headers().forEach((name, values) -> exchange.getResponseHeaders().put(name, values));
                exchange.sendResponseHeaders(answer.status(), answer.body().length == 0 ? -1 : answer.body().length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(answer.body());
                }
            } catch (Exception e) {
                exchange.sendResponseHeaders(500, -1);
            }
        });
        server.start();
        System.out.println("stand-in ready on " + port + ", latency " + args[2] + " ms");
        while (true) {
            Thread.sleep(10_000);
            System.out.println("answered from memory " + hits.get() + ", asked of the engine " + misses.get());
        }
    }

    private static Answer forward(HttpClient client, URI upstream, HttpExchange exchange, byte[] body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(upstream.resolve(exchange.getRequestURI().getRawPath()))
                .method(exchange.getRequestMethod(), HttpRequest.BodyPublishers.ofByteArray(body));
        exchange.getRequestHeaders().forEach((name, values) -> {
            if (!HOP_BY_HOP.contains(name.toLowerCase())) {
                values.forEach(value -> request.header(name, value));
            }
        });
        HttpResponse<byte[]> response = client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
        Map<String, List<String>> headers = new java.util.HashMap<>();
        response.headers().map().forEach((name, values) -> {
            if (!HOP_BY_HOP.contains(name.toLowerCase()) && !name.startsWith(":")) {
                headers.put(name, values);
            }
        });
        return new Answer(response.statusCode(), headers, response.body());
    }
}
