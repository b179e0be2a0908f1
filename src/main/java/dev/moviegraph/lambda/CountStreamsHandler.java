package dev.moviegraph.lambda;

import dev.moviegraph.catalog.CallContext;
import dev.moviegraph.config.AppConfig;
import dev.moviegraph.dynamo.ChangeLog;
import dev.moviegraph.dynamo.ShardCounter;
import dev.moviegraph.metrics.GatewayMetrics;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.DynamodbEvent.DynamodbStreamRecord;
import com.amazonaws.services.lambda.runtime.events.DynamodbTimeWindowEvent;
import com.amazonaws.services.lambda.runtime.events.TimeWindowEventResponse;

import java.math.BigInteger;
import java.time.Clock;
import java.util.List;
import java.util.Map;

import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;

/**
 * TOTALS=stream at scale: the stream counter as a Lambda function, in the same jar
 * ({@code dev.moviegraph.lambda.CountStreamsHandler::handleRequest}), one invocation per shard at a
 * time, as Lambda reads a DynamoDB stream. The event source mapping must set TumblingWindowInSeconds
 * (the events then name their shard, which the checkpoint is kept by) and ReportBatchItemFailures, and
 * leave ParallelizationFactor at 1 (docs/operations.md). Each batch is counted by the same
 * {@link ShardCounter} as the in-process aggregator: records at or before the shard's checkpoint are a
 * retried batch's, already counted, and skipped; a batch left pending by an invocation that died is
 * finished first. On any failure the response names the first record not counted, and Lambda retries
 * from it: every stream is counted exactly once whatever is retried, split or raced.
 *
 * <p>Before counting, it publishes what the batch changed to the change feed's log ({@link ChangeLog}),
 * so the gateways (CHANGE_FEED=published) read no stream: one reader per shard, this one. A retried batch
 * publishes again, which only makes subscriptions read once more.
 */
public final class CountStreamsHandler implements RequestHandler<DynamodbTimeWindowEvent, TimeWindowEventResponse> {
    private final ShardCounter counter;
    private final ChangeLog log;

    /** What Lambda calls: the table from TABLE_NAME, DynamoDB from DYNAMODB_ENDPOINT (aws) and the function's role. */
    public CountStreamsHandler() {
        this(AppConfig.fromEnvironment(System.getenv()));
    }

    CountStreamsHandler(AppConfig config) {
        this(StreamRecords.client(config), config.tableName());
    }

    public CountStreamsHandler(DynamoDbAsyncClient client, String table) {
        this.counter = new ShardCounter(client, table, new CallContext(new GatewayMetrics(), List.of("lambda")));
        this.log = new ChangeLog(client, table, Clock.systemUTC());
    }

    @Override
    public TimeWindowEventResponse handleRequest(DynamodbTimeWindowEvent event, Context context) {
        List<DynamodbStreamRecord> records = event.getRecords() == null ? List.of() : event.getRecords();
        CountingWindow window = CountingWindow.decode(event.getState());
        boolean windowEnds = Boolean.TRUE.equals(event.getIsFinalInvokeForWindow());
        if (records.isEmpty() && window.isEmpty()) {
            return counted(CountingWindow.EMPTY);
        }
        String shard = event.getShardId();
        if (shard == null) {
            throw new IllegalStateException("The event names no shard: set TumblingWindowInSeconds on the event source"
                    + " mapping (see docs/operations.md); nothing was counted");
        }
        String first = records.isEmpty() ? null : sequence(records.get(0));
        try {
            if (!records.isEmpty()) {
                log.publish(StreamRecords.changes(records));
            }
            ShardCounter.Position at = counter.position(shard);
            if (window.countedAt(at.sequence())) {
                window = CountingWindow.EMPTY; // its write went through, or another reader counted past it
            } else if (!window.beganAt(at.sequence())) {
                // Another reader counted part of this window: which part, only the records could say, and the
                // earlier batches' are gone. Wait (Lambda retries this batch) until it has counted past them.
                return retryFrom(first, event, context, "another reader moved the checkpoint of shard " + shard
                        + " to " + at.sequence() + " inside this window (" + window.from() + " to " + window.to() + ")");
            }
            List<DynamodbStreamRecord> fresh = after(after(records, at.sequence()), window.to());
            if (at.pending() != null) {
                // A write of this window died between its transactions: the window up to the pending end is that
                // batch (the same sums, so the same transactions). Finish it, then go on with the rest.
                List<DynamodbStreamRecord> pending = fresh.stream().filter(record -> !after(record, at.pending())).toList();
                String reached = pending.isEmpty() ? window.to() : sequence(pending.get(pending.size() - 1));
                if (!at.pending().equals(reached)) {
                    return retryFrom(first, event, context, "the window does not reach the pending batch's end " + at.pending());
                }
                counter.count(shard, at, window.plus(streams(pending), reached, at.sequence()).sums(), at.pending(), false);
                window = CountingWindow.EMPTY;
                fresh = after(fresh, at.pending());
            }
            if (!fresh.isEmpty()) {
                window = window.plus(streams(fresh), sequence(fresh.get(fresh.size() - 1)),
                        at.pending() != null ? at.pending() : at.sequence());
            }
            if (!window.isEmpty() && (windowEnds || window.full())) {
                counter.count(shard, counter.position(shard), window.sums(), window.to(), false);
                window = CountingWindow.EMPTY;
            }
            return counted(window);
        } catch (RuntimeException e) {
            return retryFrom(first, event, context, e.toString());
        }
    }

    /** Every record handed over is counted or summed in {@code window}, which Lambda hands to the next invocation. */
    private static TimeWindowEventResponse counted(CountingWindow window) {
        return TimeWindowEventResponse.builder().withState(window.encode()).withBatchItemFailures(List.of()).build();
    }

    /**
     * Lambda retries the batch from {@code sequence}, with the window as it was before it; a window's end
     * with no records to name fails whole, and Lambda calls it again.
     */
    private static TimeWindowEventResponse retryFrom(String sequence, DynamodbTimeWindowEvent event, Context context, String why) {
        if (sequence == null) {
            throw new IllegalStateException("Writing the window failed (" + why + "); Lambda invokes the window's end again");
        }
        if (context != null && context.getLogger() != null) {
            context.getLogger().log("Counting stopped at " + sequence + " (" + why + "); Lambda retries from there");
        }
        return TimeWindowEventResponse.builder().withState(event.getState() == null ? Map.of() : event.getState())
                .withBatchItemFailures(List.of(new TimeWindowEventResponse.BatchItemFailure(sequence))).build();
    }

    private static List<ShardCounter.Counted> streams(List<DynamodbStreamRecord> records) {
        return records.stream().filter(record -> "INSERT".equals(record.getEventName()))
                .map(record -> record.getDynamodb().getNewImage())
                .filter(image -> image != null)
                .flatMap(image -> ShardCounter.counted(name -> StreamRecords.text(image.get(name))).stream())
                .toList();
    }

    private static List<DynamodbStreamRecord> after(List<DynamodbStreamRecord> records, String sequence) {
        return sequence == null ? records : records.stream().filter(record -> after(record, sequence)).toList();
    }

    private static boolean after(DynamodbStreamRecord record, String sequence) {
        return new BigInteger(sequence(record)).compareTo(new BigInteger(sequence)) > 0;
    }

    private static String sequence(DynamodbStreamRecord record) {
        return StreamRecords.sequence(record);
    }
}
