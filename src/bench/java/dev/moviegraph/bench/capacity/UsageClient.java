package dev.moviegraph.bench.capacity;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * The engine's partition limits over its HTTP endpoint (an engine started with them on:
 * {@code EmbeddedDynamo.withPartitionLimits()}): two operations of its own next to DynamoDB's, a POST with
 * {@code X-Amz-Target} {@code MoviegraphEngine.StartPartitionSecond} (simulated time: second n starts, every
 * partition empty, and time stands still until the next) and {@code MoviegraphEngine.DescribePartitionUsage}
 * (what it charged and refused, {@link PartitionUsage}).
 */
public final class UsageClient {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();
    private final URI endpoint;

    public UsageClient(URI endpoint) {
        this.endpoint = endpoint;
    }

    /** Simulated second {@code n} starts (or goes on, when it is the current one). */
    public void startSecond(long n) {
        call("MoviegraphEngine.StartPartitionSecond", JSON.createObjectNode().put("Second", n));
    }

    /** The counts, with the {@code limit} busiest and most refusing partitions (0: none, the cheap call). */
    public PartitionUsage usage(int limit) {
        return PartitionUsage.of(call("MoviegraphEngine.DescribePartitionUsage", JSON.createObjectNode().put("Limit", limit)));
    }

    private JsonNode call(String target, ObjectNode body) {
        try {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(endpoint.resolve("/"))
                    .timeout(Duration.ofSeconds(60))
                    .header("Content-Type", "application/x-amz-json-1.0").header("X-Amz-Target", target)
                    .POST(HttpRequest.BodyPublishers.ofString(body.toString())).build(), HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IllegalStateException(target + " answered " + response.statusCode() + ": " + response.body()
                        + " (is the engine started with partition limits on?)");
            }
            return JSON.readTree(response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(target + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(target + " interrupted", e);
        }
    }
}
