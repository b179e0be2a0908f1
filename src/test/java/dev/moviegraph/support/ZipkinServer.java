package dev.moviegraph.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * A real Zipkin (zipkin-server 3.6.1, copied to target/zipkin by the build), in memory, started once per
 * test JVM on a free port: traces are read back from its API as an operator's UI would read them.
 */
public final class ZipkinServer {
    private static ZipkinServer instance;

    private final Process process;
    private final int port;
    private final HttpClient http = HttpClient.newHttpClient();
    private final ObjectMapper json = new ObjectMapper();

    private ZipkinServer() throws IOException, InterruptedException {
        Path jar = Path.of("target", "zipkin", "zipkin-server.jar");
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(jar + " is missing: the build copies it (mvn generate-test-resources)");
        }
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        Path log = Files.createTempFile("zipkin", ".log");
        ProcessBuilder builder = new ProcessBuilder(ChildJava.command("-Xmx256m", "-jar", jar.toString())).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().put("STORAGE_TYPE", "mem");
        builder.environment().put("QUERY_PORT", String.valueOf(port));
        process = builder.start();
        Runtime.getRuntime().addShutdownHook(new Thread(process::destroy));
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("Zipkin stopped: " + Files.readString(log));
            }
            try {
                if (get("/health").statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // still starting
            }
            Thread.sleep(250);
        }
        throw new IllegalStateException("Zipkin did not start within 120 s: " + Files.readString(log));
    }

    public static synchronized ZipkinServer get() {
        if (instance == null) {
            try {
                instance = new ZipkinServer();
            } catch (IOException e) {
                throw new IllegalStateException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        return instance;
    }

    /** Where spans are sent: OTEL_EXPORTER_ZIPKIN_ENDPOINT. */
    public String spansEndpoint() {
        return "http://127.0.0.1:" + port + "/api/v2/spans";
    }

    private HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private JsonNode read(String path) {
        try {
            HttpResponse<String> response = get(path);
            return response.statusCode() == 200 ? json.readTree(response.body()) : json.createArrayNode();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The spans of trace {@code traceId} once {@code complete} holds of them (spans arrive in batches). */
    public List<JsonNode> trace(String traceId, Predicate<List<JsonNode>> complete) {
        return awaited(() -> {
            List<JsonNode> spans = new ArrayList<>();
            read("/api/v2/trace/" + traceId).forEach(spans::add);
            return spans;
        }, complete);
    }

    /** Every span of {@code service}'s recent traces once {@code complete} holds of them. */
    public List<JsonNode> spansOf(String service, Predicate<List<JsonNode>> complete) {
        return awaited(() -> {
            List<JsonNode> spans = new ArrayList<>();
            read("/api/v2/traces?serviceName=" + service + "&lookback=3600000&limit=100")
                    .forEach(trace -> trace.forEach(spans::add));
            return spans;
        }, complete);
    }

    private static List<JsonNode> awaited(java.util.function.Supplier<List<JsonNode>> read,
                                          Predicate<List<JsonNode>> complete) {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        List<JsonNode> spans = read.get();
        while (!complete.test(spans) && System.nanoTime() < deadline) {
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            spans = read.get();
        }
        return spans;
    }
}
