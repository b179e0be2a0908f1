package dev.moviegraph.lambda;

import dev.moviegraph.catalog.CallContext;
import dev.moviegraph.catalog.MovieId;
import dev.moviegraph.catalog.StreamRecord;
import dev.moviegraph.catalog.TotalsMode;
import dev.moviegraph.dynamo.client.DynamoClients;
import dev.moviegraph.dynamo.write.DynamoCatalogWriter;
import dev.moviegraph.metrics.GatewayMetrics;
import dev.moviegraph.support.LambdaEvents;

import java.lang.management.ManagementFactory;
import java.net.URI;
import java.time.Instant;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import com.amazonaws.services.lambda.runtime.events.DynamodbEvent.DynamodbStreamRecord;
import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import com.amazonaws.services.lambda.runtime.events.DynamodbTimeWindowEvent;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsAsyncClient;

/**
 * Runs the functions from the slim jar alone, as Lambda would (.ci/lambda-check.sh puts only
 * target/moviegraph-lambda.jar and this class's folder on the class path, so a class the jar left out fails
 * here): the handler's init in a fresh JVM (the cold start Lambda's init phase pays, SnapStart aside), then a
 * stream recorded through the writer, read from the table's real stream and counted by
 * {@link CountStreamsHandler} and published by {@link PublishChangesHandler}. Prints {@code init_ms=},
 * {@code first_invoke_ms=} and the total before and after; exits 1 if the stream was not counted once.
 *
 * <p>Environment: DYNAMODB_ENDPOINT (an engine with the sample table and its stream) and TABLE_NAME.
 */
public final class SlimJarRun {
    private static final String MOVIE = "tt0111161";

    private SlimJarRun() {
    }

    public static void main(String[] args) {
        CountStreamsHandler counter = new CountStreamsHandler();
        long initMs = ManagementFactory.getRuntimeMXBean().getUptime();
        PublishChangesHandler publisher = new PublishChangesHandler();
        String table = System.getenv().getOrDefault("TABLE_NAME", "moviegraph");
        URI endpoint = URI.create(System.getenv("DYNAMODB_ENDPOINT"));
        String month = YearMonth.now(ZoneOffset.UTC).toString();
        ExecutorService writes = Executors.newFixedThreadPool(2);
        try (DynamoDbAsyncClient client = DynamoClients.create(endpoint, List.of());
             DynamoDbStreamsAsyncClient streams = DynamoClients.createStreams(endpoint)) {
            long before = total(client, table, month);
            new DynamoCatalogWriter(client, table, TotalsMode.STREAM, writes)
                    .recordStream(new StreamRecord(MovieId.of(MOVIE), "slim-jar-" + UUID.randomUUID(),
                            Instant.now().minusSeconds(1)), new CallContext(new GatewayMetrics(), List.of("slim-jar")))
                    .join();
            String arn = streams.listStreams(list -> list.tableName(table)).join().streams().get(0).streamArn();
            Map<String, List<DynamodbStreamRecord>> shards = LambdaEvents.read(streams, arn, record -> true);
            long invokeStart = System.nanoTime();
            long invokes = 0;
            for (Map.Entry<String, List<DynamodbStreamRecord>> shard : shards.entrySet()) {
                DynamodbTimeWindowEvent event = new DynamodbTimeWindowEvent();
                event.setShardId(shard.getKey());
                event.setRecords(shard.getValue());
                event.setState(Map.of());
                event.setIsFinalInvokeForWindow(true);
                event.setEventSourceArn(arn);
                if (!counter.handleRequest(event, null).getBatchItemFailures().isEmpty()) {
                    throw new IllegalStateException("the counting function failed a batch of " + shard.getKey());
                }
                if (invokes++ == 0) {
                    System.out.printf("first_invoke_ms=%d%n", (System.nanoTime() - invokeStart) / 1_000_000);
                }
                DynamodbEvent published = new DynamodbEvent();
                published.setRecords(shard.getValue());
                if (!publisher.handleRequest(published, null).getBatchItemFailures().isEmpty()) {
                    throw new IllegalStateException("the publisher failed a batch of " + shard.getKey());
                }
            }
            long after = total(client, table, month);
            System.out.printf("init_ms=%d shards=%d total_before=%d total_after=%d%n", initMs, shards.size(), before, after);
            if (after != before + 1) {
                System.out.println("FAILED: the stream was not counted exactly once");
                System.exit(1);
            }
        } finally {
            writes.shutdown();
        }
        System.exit(0); // the clients' event loops are not daemons
    }

    private static long total(DynamoDbAsyncClient client, String table, String month) {
        Map<String, AttributeValue> item = client.getItem(get -> get.tableName(table).consistentRead(true)
                .key(Map.of("pk", AttributeValue.fromS("mov#" + MOVIE), "sk", AttributeValue.fromS("tot#" + month))))
                .join().item();
        return item == null || item.isEmpty() ? 0 : Long.parseLong(item.get("streams").n());
    }
}
