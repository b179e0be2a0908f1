package dev.moviegraph.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.catalog.CallContext;
import dev.moviegraph.catalog.MovieId;
import dev.moviegraph.catalog.StreamRecord;
import dev.moviegraph.catalog.TotalsMode;
import dev.moviegraph.config.AppConfig;
import dev.moviegraph.dynamo.admin.TableAdmin;
import dev.moviegraph.dynamo.client.DynamoClients;
import dev.moviegraph.dynamo.write.DynamoCatalogWriter;
import dev.moviegraph.local.EmbeddedDynamo;
import dev.moviegraph.metrics.GatewayMetrics;
import dev.moviegraph.support.LambdaEvents;
import dev.moviegraph.support.ZipkinServer;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import com.amazonaws.services.lambda.runtime.events.DynamodbEvent.DynamodbStreamRecord;
import com.amazonaws.services.lambda.runtime.events.DynamodbTimeWindowEvent;
import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsAsyncClient;

/**
 * The counting function traced as Lambda would run it with OTEL_TRACES_EXPORTER=zipkin: each invocation a
 * span of its own, the DynamoDB calls that counted its window under it, in a real Zipkin before the
 * invocation returns (Lambda may freeze the environment right after).
 */
class CountStreamsTracingTest {
    private static final String SERVICE = "moviegraph-count-streams-test";

    @Test
    void anInvocationIsASpanWithItsDynamoDbCallsUnderItSentBeforeItReturns() {
        ZipkinServer zipkin = ZipkinServer.get();
        ExecutorService writes = Executors.newFixedThreadPool(2);
        try (EmbeddedDynamo dynamo = EmbeddedDynamo.ephemeral(true);
             DynamoDbAsyncClient client = DynamoClients.create(dynamo.endpoint(), List.of());
             DynamoDbStreamsAsyncClient streams = DynamoClients.createStreams(dynamo.endpoint())) {
            String arn = new TableAdmin(client, "moviegraph").ensureStream(true);
            new DynamoCatalogWriter(client, "moviegraph", TotalsMode.STREAM, writes).recordStream(new StreamRecord(
                    MovieId.of("tt0111161"), "traced-1", Instant.now().minusSeconds(5)),
                    new CallContext(new GatewayMetrics(), List.of("test"))).join();
            Map<String, List<DynamodbStreamRecord>> shards = LambdaEvents.read(streams, arn, record -> true);
            CountStreamsHandler handler = new CountStreamsHandler(AppConfig.fromEnvironment(Map.of(
                    "DYNAMODB_ENDPOINT", dynamo.endpoint().toString(), "TABLE_NAME", "moviegraph",
                    "OTEL_TRACES_EXPORTER", "zipkin", "OTEL_EXPORTER_ZIPKIN_ENDPOINT", zipkin.spansEndpoint(),
                    "OTEL_SERVICE_NAME", SERVICE)));
            shards.forEach((shard, records) -> {
                DynamodbTimeWindowEvent event = new DynamodbTimeWindowEvent();
                event.setShardId(shard);
                event.setRecords(records);
                event.setState(Map.of());
                event.setIsFinalInvokeForWindow(true);
                event.setEventSourceArn(arn);
                assertTrue(handler.handleRequest(event, null).getBatchItemFailures().isEmpty());
            });
            // Zipkin keeps names in lower case
            List<JsonNode> spans = zipkin.spansOf(SERVICE, found -> false == found.isEmpty());
            JsonNode invocation = spans.stream().filter(span -> span.path("name").asText().equals("countstreams")).findFirst()
                    .orElseThrow(() -> new AssertionError("no invocation span in " + spans));
            assertFalse(invocation.has("parentId"), "an invocation is a root: " + invocation);
            assertEquals("CONSUMER", invocation.path("kind").asText());
            assertTrue(shards.containsKey(invocation.path("tags").path("moviegraph.shard").asText()), invocation.toString());
            List<JsonNode> calls = spans.stream().filter(span -> span.path("parentId").asText()
                    .equals(invocation.path("id").asText())).toList();
            assertTrue(calls.stream().allMatch(span -> span.path("name").asText().startsWith("dynamodb.")), calls.toString());
            assertTrue(calls.stream().anyMatch(span -> span.path("tags").path("moviegraph.write_units").asDouble() > 0),
                    "the window's total was written under the invocation: " + calls);
        } finally {
            writes.shutdown();
        }
    }
}
