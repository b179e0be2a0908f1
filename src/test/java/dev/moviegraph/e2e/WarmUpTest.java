package dev.moviegraph.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.Moviegraph;
import dev.moviegraph.config.AppConfig;
import dev.moviegraph.local.EmbeddedDynamo;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * WARMUP_SECONDS: a starting server sends itself real queries of every read path through HTTP before it
 * reports ready, and /health says 503 WARMING_UP meanwhile, so a load balancer sends users only to a
 * warm server.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class WarmUpTest {
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    @Test
    void aServerWarmsEveryReadPathBeforeItIsReadyAndHealthSaysSoMeanwhile() throws Exception {
        int port = EmbeddedDynamo.freePort();
        AppConfig config = AppConfig.fromEnvironment(Map.of("PORT", Integer.toString(port), "WARMUP_SECONDS", "3"));
        CompletableFuture<Moviegraph> starting = CompletableFuture.supplyAsync(() -> Moviegraph.start(config, List.of()));
        List<String> healthWhileStarting = new ArrayList<>();
        while (!starting.isDone()) {
            HttpResponse<String> health = get(port, "/health");
            if (health != null) {
                healthWhileStarting.add(health.statusCode() + " " + health.body());
            }
            Thread.sleep(50);
        }
        try (Moviegraph server = starting.get()) {
            assertTrue(healthWhileStarting.contains("503 {\"status\":\"WARMING_UP\"}"),
                    "503 while warming up: " + healthWhileStarting);
            assertEquals(200, get(port, "/health").statusCode(), "ready once start returns");
            String metrics = get(port, "/metrics").body();
            for (String operation : List.of("WarmupDiscover", "WarmupMovie", "WarmupPerson", "WarmupLists", "WarmupBatch")) {
                assertTrue(count(metrics, operation) > 0, operation + " ran with data and no error: " + metrics.lines()
                        .filter(line -> line.contains("Warmup")).toList());
            }
        }
    }

    @Test
    void withoutWarmUpSecondsAServerStartsColdAsBefore() {
        try (Moviegraph server = Moviegraph.start(AppConfig.fromEnvironment(Map.of("PORT", "0")), List.of())) {
            assertEquals(0, AppConfig.fromEnvironment(Map.of()).warmUpSeconds(), "off by default");
            assertEquals(0, count(get(server.port(), "/metrics").body(), "WarmupMovie"));
        }
    }

    /** Requests of an operation answered ok, from /metrics. */
    private static double count(String metrics, String operation) {
        Matcher matcher = Pattern.compile("(?m)^moviegraph_graphql_requests_seconds_count\\{operation=\""
                + operation + "\",outcome=\"ok\"} ([0-9.eE+-]+)$").matcher(metrics);
        return matcher.find() ? Double.parseDouble(matcher.group(1)) : 0;
    }

    private HttpResponse<String> get(int port, String path) {
        try {
            return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                    .timeout(Duration.ofSeconds(5)).GET().build(), HttpResponse.BodyHandlers.ofString());
        } catch (Exception e) {
            return null;
        }
    }
}
