package dev.moviegraph.support;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.IntFunction;
import java.util.stream.Collectors;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A DynamoDB HTTP endpoint in a few lines: it answers each operation (the X-Amz-Target header) with
 * what the test scripted for its n-th attempt, and records every attempt, so a real SDK client can be
 * pointed at it to see what it does with throttling and the like.
 */
public final class FakeDynamoEndpoint implements AutoCloseable {
    /** What DynamoDB answers when a table or index is over its throughput. */
    public static final Answer THROTTLED = new Answer(400, "{\"__type\":\"com.amazonaws.dynamodb.v20120810"
            + "#ProvisionedThroughputExceededException\",\"message\":\"The level of configured provisioned "
            + "throughput for the table was exceeded. Consider increasing your provisioning level\"}");

    /** An HTTP status and a JSON body. */
    public record Answer(int status, String body) {
        public static Answer ok(String body) {
            return new Answer(200, body);
        }
    }

    private final HttpServer server;
    private final ExecutorService executor = Executors.newFixedThreadPool(4, runnable -> {
        Thread thread = new Thread(runnable, "fake-dynamodb");
        thread.setDaemon(true);
        return thread;
    });
    private final Map<String, IntFunction<Answer>> scripts = new ConcurrentHashMap<>();
    /** Fixed answers to requests of an operation that name one key (operation, key text, answer). */
    private final List<String[]> keyed = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final Map<String, Answer> keyedAnswers = new ConcurrentHashMap<>();
    private final List<String> attempts = new ArrayList<>();
    private final List<Long> times = new ArrayList<>();

    public FakeDynamoEndpoint() {
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.setExecutor(executor);
        server.createContext("/", this::handle);
        server.start();
    }

    /** Answers {@code operation} (GetItem, DescribeTable, ...) with {@code script.apply(attempt)}, attempt from 1. */
    public FakeDynamoEndpoint on(String operation, IntFunction<Answer> script) {
        scripts.put(operation, script);
        return this;
    }

    /**
     * Answers every request of {@code operation} whose body holds {@code keyText} (a key value, such as
     * the table's layout item at start-up) with {@code answer}. Those requests are recorded as
     * "{operation} {keyText}", so they are neither attempts of {@code operation} nor seen by its script.
     */
    public FakeDynamoEndpoint onKey(String operation, String keyText, Answer answer) {
        keyed.add(new String[] {operation, keyText});
        keyedAnswers.put(operation + " " + keyText, answer);
        return this;
    }

    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    /** The operations received so far, one entry per HTTP request, in order. */
    public synchronized List<String> attempts() {
        return List.copyOf(attempts);
    }

    public synchronized long attempts(String operation) {
        return attempts.stream().filter(operation::equals).count();
    }

    /** Milliseconds from the first request of {@code operation} to its last: the time its retries took. */
    public synchronized long retryMillis(String operation) {
        List<Long> of = new ArrayList<>();
        for (int i = 0; i < attempts.size(); i++) {
            if (attempts.get(i).equals(operation)) {
                of.add(times.get(i));
            }
        }
        return of.isEmpty() ? 0 : (of.get(of.size() - 1) - of.get(0)) / 1_000_000;
    }

    private void handle(HttpExchange exchange) throws IOException {
        String request = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        String target = exchange.getRequestHeaders().getFirst("X-Amz-Target");
        String operation = target == null ? "" : target.substring(target.indexOf('.') + 1);
        for (String[] key : keyed) {
            if (key[0].equals(operation) && request.contains(key[1])) {
                operation = operation + " " + key[1];
                break;
            }
        }
        int attempt;
        synchronized (this) {
            attempts.add(operation);
            times.add(System.nanoTime());
            attempt = (int) attempts.stream().filter(operation::equals).count();
        }
        IntFunction<Answer> script = scripts.get(operation);
        Answer answer = keyedAnswers.containsKey(operation) ? keyedAnswers.get(operation) : script == null
                ? new Answer(400, "{\"__type\":\"com.amazon.coral.validate#ValidationException\",\"message\":\"no script\"}")
                : script.apply(attempt);
        byte[] body = answer.body().getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/x-amz-json-1.0");
        exchange.sendResponseHeaders(answer.status(), body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    /** A DescribeTable answer for an active table. */
    public static Answer activeTable(String table) {
        return Answer.ok("{\"Table\":{\"TableName\":\"" + table + "\",\"TableStatus\":\"ACTIVE\"}}");
    }

    /** A GetItem answer with this item. */
    public static Answer item(Map<String, AttributeValue> item) {
        return Answer.ok("{\"Item\":" + json(item) + "}");
    }

    /** DynamoDB's JSON for an item (the attribute types the codec writes). */
    private static String json(Map<String, AttributeValue> item) {
        return item.entrySet().stream()
                .map(entry -> quote(entry.getKey()) + ":" + json(entry.getValue()))
                .collect(Collectors.joining(",", "{", "}"));
    }

    private static String json(AttributeValue value) {
        return switch (value.type()) {
            case S -> "{\"S\":" + quote(value.s()) + "}";
            case N -> "{\"N\":" + quote(value.n()) + "}";
            case BOOL -> "{\"BOOL\":" + value.bool() + "}";
            case SS -> value.ss().stream().map(FakeDynamoEndpoint::quote)
                    .collect(Collectors.joining(",", "{\"SS\":[", "]}"));
            case L -> value.l().stream().map(FakeDynamoEndpoint::json).collect(Collectors.joining(",", "{\"L\":[", "]}"));
            case M -> "{\"M\":" + json(value.m()) + "}";
            default -> throw new IllegalArgumentException("not needed by the tests: " + value.type());
        };
    }

    private static String quote(String text) {
        return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
