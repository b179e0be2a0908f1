package dev.moviegraph.lambda;

import dev.moviegraph.catalog.CallContext;
import dev.moviegraph.config.AppConfig;
import dev.moviegraph.dynamo.streams.ChangeLog;
import dev.moviegraph.dynamo.streams.ShardCounter;
import dev.moviegraph.dynamo.streams.ShardRecords;
import dev.moviegraph.metrics.GatewayMetrics;
import dev.moviegraph.telemetry.Telemetry;

import java.math.BigInteger;
import java.time.Clock;
import java.util.List;
import java.util.Map;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.DynamodbEvent.DynamodbStreamRecord;
import com.amazonaws.services.lambda.runtime.events.DynamodbTimeWindowEvent;
import com.amazonaws.services.lambda.runtime.events.TimeWindowEventResponse;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsAsyncClient;

/**
 * TOTALS=stream at scale: the stream counter as a Lambda function, in the same jar
 * ({@code dev.moviegraph.lambda.CountStreamsHandler::handleRequest}), one invocation per shard at a
 * time, as Lambda reads a DynamoDB stream. The event source mapping must set TumblingWindowInSeconds
 * and ReportBatchItemFailures, and leave ParallelizationFactor at 1 (docs/operations.md). Each
 * invocation adds its batch's streams to the window's sums, kept in the state Lambda hands to the next
 * ({@link CountingWindow}); the window's last invocation (or one whose state nears Lambda's 1 MB) has
 * them counted by the same {@link ShardCounter} as the in-process aggregator, so each total is written
 * once a window, not once a batch. Records at or before the shard's checkpoint, or already in the
 * window, are skipped (a retried batch); a state at or before the checkpoint is dropped (its write went
 * through). A window is written up to its last record, counting or not, so the next one starts right
 * after the checkpoint; one that does not (a state Lambda did not hand back), a write that died between
 * its transactions and a checkpoint another reader moved into the window are resolved from the shard's
 * own records ({@link ShardRecords}). A failed batch is answered with its first record and the state from
 * before it, and Lambda retries it; a failed window end throws, and Lambda invokes it again: every
 * stream is counted exactly once whatever is retried, split or raced.
 *
 * <p>Before counting, it publishes what the batch changed to the change feed's log ({@link ChangeLog}),
 * so the gateways (CHANGE_FEED=published) read no stream: one reader per shard, this one. A retried batch
 * publishes again, which only makes subscriptions read once more.
 */
public final class CountStreamsHandler implements RequestHandler<DynamodbTimeWindowEvent, TimeWindowEventResponse> {
    private final ShardCounter counter;
    private final InvocationTrace trace;
    private final ChangeLog log;
    private final DynamoDbStreamsAsyncClient streams;
    /** A shard's parent in the stream (null: none); the stream's own listing but in tests. */
    private final java.util.function.BiFunction<ShardRecords, String, String> parents;
    /** Shards whose parent this instance saw counted to its end. */
    private final java.util.Set<String> parentsDone = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /** What Lambda calls: the table from TABLE_NAME, DynamoDB from DYNAMODB_ENDPOINT (aws) and the function's role. */
    public CountStreamsHandler() {
        this(AppConfig.fromEnvironment(System.getenv()));
    }

    /** The function as Lambda builds it from {@code config}: traces when its OTEL_* variables ask for them. */
    CountStreamsHandler(AppConfig config) {
        this(StreamRecords.client(config), StreamRecords.streamsClient(config), config.tableName(), ShardRecords::parentOf,
                Telemetry.fromEnvironment(config.telemetry(), "moviegraph-count-streams", config.tableName()));
    }

    public CountStreamsHandler(DynamoDbAsyncClient client, DynamoDbStreamsAsyncClient streams, String table) {
        this(client, streams, table, ShardRecords::parentOf);
    }

    CountStreamsHandler(DynamoDbAsyncClient client, DynamoDbStreamsAsyncClient streams, String table,
                        java.util.function.BiFunction<ShardRecords, String, String> parents) {
        this(client, streams, table, parents, Telemetry.OFF);
    }

    private CountStreamsHandler(DynamoDbAsyncClient client, DynamoDbStreamsAsyncClient streams, String table,
                                java.util.function.BiFunction<ShardRecords, String, String> parents, Telemetry telemetry) {
        this.streams = streams;
        this.parents = parents;
        this.trace = new InvocationTrace(telemetry, new GatewayMetrics());
        this.counter = new ShardCounter(client, table, new CallContext(trace, List.of("lambda")));
        this.log = new ChangeLog(client, table, Clock.systemUTC());
    }

    /** One invocation, in a span of its own when traced (its DynamoDB calls under it). */
    @Override
    public TimeWindowEventResponse handleRequest(DynamodbTimeWindowEvent event, Context context) {
        int records = event.getRecords() == null ? 0 : event.getRecords().size();
        trace.begin("CountStreams", Map.of("faas.trigger", "datasource", "moviegraph.shard",
                String.valueOf(event.getShardId()), "moviegraph.records", String.valueOf(records),
                "moviegraph.window_ends", String.valueOf(Boolean.TRUE.equals(event.getIsFinalInvokeForWindow()))));
        String error = null;
        try {
            TimeWindowEventResponse response = count(event, context);
            if (!response.getBatchItemFailures().isEmpty()) {
                error = "batch failed from " + response.getBatchItemFailures().get(0).getItemIdentifier();
            }
            return response;
        } catch (RuntimeException e) {
            error = e.toString();
            throw e;
        } finally {
            trace.end(error);
        }
    }

    private TimeWindowEventResponse count(DynamodbTimeWindowEvent event, Context context) {
        List<DynamodbStreamRecord> records = event.getRecords() == null ? List.of() : event.getRecords();
        CountingWindow window = CountingWindow.decode(event.getState());
        // A window cut short by Lambda (its state past 1 MB, which this function's never reaches) ends too.
        boolean windowEnds = Boolean.TRUE.equals(event.getIsFinalInvokeForWindow())
                || Boolean.TRUE.equals(event.getIsWindowTerminatedEarly());
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
            ShardRecords stream = new ShardRecords(streams, streamArn(event, records));
            ShardCounter.Position at = counter.position(shard);
            if (window.countedAt(at.sequence())) {
                window = CountingWindow.EMPTY; // its write went through, or another reader counted past it
            }
            List<DynamodbStreamRecord> fresh = after(after(records, at.sequence()), window.to());
            if (at.pending() != null) {
                // A write died between its transactions (this function's, or another reader's): finish it with
                // the sums of exactly its records, which the shard itself still has (the window in hand may
                // not hold them all: a state lost, or a batch longer than Lambda's).
                counter.count(shard, at, stream.between(shard, at.sequence(), at.pending()).sums(), at.pending(), false);
                window = window.isEmpty() || !after(window.to(), at.pending()) ? CountingWindow.EMPTY
                        : rebuilt(stream, shard, at.pending(), window.to());
                fresh = after(fresh, at.pending());
            } else if (!window.beganAt(at.sequence())) {
                // Another reader counted part of this window: the shard's records say which part is left.
                window = rebuilt(stream, shard, at.sequence(), window.to());
            }
            String begins = at.pending() != null ? at.pending() : at.sequence();
            if (!fresh.isEmpty()) {
                window = window.plus(streams(fresh), sequence(fresh.get(0)), sequence(fresh.get(fresh.size() - 1)), begins);
            }
            if (windowEnds && window.sums().isEmpty()) {
                // Records that count nothing (the counter's own writes among them): not written, or each write
                // would feed the next window forever. The checkpoint stays behind them; they count nothing.
                window = CountingWindow.EMPTY;
            }
            if (!window.sums().isEmpty() && (windowEnds || window.full())) {
                finishParent(stream, shard);
                ShardCounter.Position from = at.pending() == null ? at : new ShardCounter.Position(at.pending(), false, null, 0);
                if (!java.util.Objects.equals(window.from(), from.sequence())) {
                    throw new IllegalStateException("The window of shard " + shard + " begins at " + window.from()
                            + ", not at its checkpoint " + from.sequence());
                }
                if (!stream.nothingCountedBetween(shard, window.from(), window.first())) {
                    // Streams between the checkpoint and the window's first record: a state Lambda did not hand
                    // back (summed in it, they would be skipped). The shard's records say what the window is.
                    window = rebuilt(stream, shard, window.from(), window.to());
                }
                // Written from where the window began: if another reader moved the checkpoint meanwhile, the
                // first transaction's condition fails and nothing is counted twice.
                counter.count(shard, from, window.sums(), window.to(), false);
                window = CountingWindow.EMPTY;
            }
            return counted(window);
        } catch (RuntimeException e) {
            if (windowEnds) {
                // The window's end failed: Lambda holds the shard and invokes it again, with the same state.
                throw new IllegalStateException("Writing the window of shard " + shard + " failed; Lambda invokes its end again", e);
            }
            return retryFrom(first, event, context, e.toString());
        }
    }

    /**
     * Before a shard's writes, until its parent is closed: the parent's records past its checkpoint,
     * counted from the stream (its own parent's first), and the parent closed once read to its end.
     * Lambda reads a parent to its end before its children, but whether it ends the parent's last window
     * with a final invocation (which writes it) it does not say; if it did not, that window's sums went
     * with its state, and this counts them.
     */
    void finishParent(ShardRecords stream, String shard) {
        if (parentsDone.contains(shard)) {
            return;
        }
        String parent = parents.apply(stream, shard);
        if (parent == null || finish(stream, parent)) {
            parentsDone.add(shard);
        }
    }

    /** Counts the shard's records past its checkpoint; true once it is closed (read to its end). */
    private boolean finish(ShardRecords stream, String shard) {
        ShardCounter.Position at = counter.position(shard);
        if (at.closed()) {
            return true;
        }
        finishParent(stream, shard);
        if (at.pending() != null) {
            counter.count(shard, at, stream.between(shard, at.sequence(), at.pending()).sums(), at.pending(), false);
            at = counter.position(shard);
        }
        ShardRecords.Stretch rest = stream.rest(shard, at.sequence());
        String to = rest.last() != null ? rest.last() : at.sequence();
        if (to != null && (rest.last() != null || rest.ended())) {
            counter.count(shard, at, rest.sums(), to, rest.ended());
        }
        return rest.ended();
    }

    /** The window of the shard's records after {@code after} up to {@code to}, read from the stream. */
    private static CountingWindow rebuilt(ShardRecords stream, String shard, String after, String to) {
        ShardRecords.Stretch stretch = stream.between(shard, after, to);
        return new CountingWindow(after, stretch.first(), to, stretch.sums());
    }

    /** The stream the event's records come from (the event names it at a window's end without records). */
    private static String streamArn(DynamodbTimeWindowEvent event, List<DynamodbStreamRecord> records) {
        if (event.getEventSourceArn() != null) {
            return event.getEventSourceArn();
        }
        return records.isEmpty() ? null : records.get(0).getEventSourceARN();
    }

    /** Every record handed over is counted or summed in {@code window}, which Lambda hands to the next invocation. */
    private static TimeWindowEventResponse counted(CountingWindow window) {
        return TimeWindowEventResponse.builder().withState(window.encode()).withBatchItemFailures(List.of()).build();
    }

    /** Lambda retries the batch from {@code sequence}, with the window as it was before it. */
    private static TimeWindowEventResponse retryFrom(String sequence, DynamodbTimeWindowEvent event, Context context, String why) {
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
        return after(sequence(record), sequence);
    }

    private static boolean after(String sequence, String than) {
        return new BigInteger(sequence).compareTo(new BigInteger(than)) > 0;
    }

    private static String sequence(DynamodbStreamRecord record) {
        return StreamRecords.sequence(record);
    }
}
