package dev.moviegraph.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.catalog.CallContext;
import dev.moviegraph.catalog.CatalogChanges;
import dev.moviegraph.catalog.Movie;
import dev.moviegraph.catalog.MovieId;
import dev.moviegraph.catalog.StreamRecord;
import dev.moviegraph.catalog.TotalsMode;
import dev.moviegraph.dynamo.admin.DynamoCatalogImport;
import dev.moviegraph.dynamo.admin.TableAdmin;
import dev.moviegraph.dynamo.client.DynamoClients;
import dev.moviegraph.dynamo.streams.ChangeLog;
import dev.moviegraph.dynamo.streams.ShardCounter;
import dev.moviegraph.dynamo.streams.ShardRecords;
import dev.moviegraph.dynamo.streams.StreamAggregator;
import dev.moviegraph.dynamo.write.DynamoCatalogWriter;
import dev.moviegraph.local.EmbeddedDynamo;
import dev.moviegraph.metrics.GatewayMetrics;
import dev.moviegraph.support.DiesAtTransaction;
import dev.moviegraph.support.LambdaEvents;

import java.time.Clock;
import java.time.Instant;
import java.time.YearMonth;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;

import com.amazonaws.services.lambda.runtime.events.DynamodbEvent.DynamodbStreamRecord;
import com.amazonaws.services.lambda.runtime.events.DynamodbTimeWindowEvent;
import com.amazonaws.services.lambda.runtime.events.TimeWindowEventResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsAsyncClient;

/**
 * The Lambda stream counter against the engine's real stream (a fresh one per test): its records
 * handed to the handler as Lambda hands them (DynamodbTimeWindowEvent, one shard), in windows of several
 * batches, retried whole and in overlapping parts, cut off between two transactions (with the window's
 * state, and with it lost), left pending by the in-process aggregator, and given to two invocations at
 * once. Every total ends exact.
 */
class CountStreamsHandlerTest {
    private static final String TABLE = "moviegraph";
    private static EmbeddedDynamo dynamo;
    private static DynamoDbAsyncClient client;
    private static DynamoDbStreamsAsyncClient streams;
    private static String arn;
    private static int month = 1;
    /** The last record of each shard when the table was set up. */
    private static Map<String, String> setUpTo;

    @BeforeEach
    void table() {
        dynamo = EmbeddedDynamo.ephemeral(false);
        client = DynamoClients.create(dynamo.endpoint(), List.of());
        streams = DynamoClients.createStreams(dynamo.endpoint());
        new TableAdmin(client, TABLE).ensureTable();
        arn = new TableAdmin(client, TABLE).ensureStream(false);
        List<Movie> movies = new ArrayList<>();
        for (int m = 0; m < 150; m++) {
            movies.add(new Movie(MovieId.of(id(m)), "l" + m, 2002, null, List.of(), null));
        }
        new DynamoCatalogImport(client, TABLE, 4).write(movies);
        // The set-up's records are counted (nothing) as Lambda would, so each test's window starts after them.
        setUpTo = new java.util.HashMap<>();
        LambdaEvents.read(streams, arn, record -> true).forEach((shard, records) -> {
            assertTrue(new CountStreamsHandler(client, streams, TABLE).handleRequest(event(shard, records), null)
                    .getBatchItemFailures().isEmpty());
            setUpTo.put(shard, records.get(records.size() - 1).getDynamodb().getSequenceNumber());
        });
    }

    @AfterEach
    void close() {
        streams.close();
        client.close();
        dynamo.close();
    }

    private static String id(int movie) {
        return String.format("tt5%07d", movie);
    }

    /** Records streams of a month of its own through the gateway's writer (TOTALS=stream): movie m, m % 7 + 1 times. */
    private static Map<String, Long> record(String month, int movies) {
        ExecutorService executor = Executors.newFixedThreadPool(4);
        DynamoCatalogWriter writer = new DynamoCatalogWriter(client, TABLE, TotalsMode.STREAM, executor);
        Map<String, Long> expected = new LinkedHashMap<>();
        try {
            for (int m = 0; m < movies; m++) {
                for (int s = 0; s <= m % 7; s++) {
                    writer.recordStream(new StreamRecord(MovieId.of(id(m)), month + "-" + m + "-" + s,
                            Instant.parse(month + "-03T10:00:00Z")), new CallContext(new GatewayMetrics(), List.of("t"))).join();
                }
                expected.put(id(m), (long) m % 7 + 1);
            }
        } finally {
            executor.shutdown();
        }
        return expected;
    }

    /**
     * Every record of the stream since the table was set up (the test's), by shard, as Lambda would hand
     * them: the set-up's records were handed to the function already, so its checkpoint is just before.
     */
    private static Map<String, List<DynamodbStreamRecord>> recordsOf(String month) {
        Map<String, List<DynamodbStreamRecord>> since = new LinkedHashMap<>();
        LambdaEvents.read(streams, arn, record -> true).forEach((shard, records) -> since.put(shard, records.stream()
                .filter(record -> setUpTo.get(shard) == null || new java.math.BigInteger(record.getDynamodb().getSequenceNumber())
                        .compareTo(new java.math.BigInteger(setUpTo.get(shard))) > 0).toList()));
        since.values().removeIf(List::isEmpty);
        assertFalse(since.isEmpty(), "records of " + month);
        return since;
    }

    /** A whole window in one invocation: Lambda's last of a window, with no state before it. */
    private static DynamodbTimeWindowEvent event(String shard, List<DynamodbStreamRecord> records) {
        return event(shard, records, Map.of(), true);
    }

    private static DynamodbTimeWindowEvent event(String shard, List<DynamodbStreamRecord> records,
                                                 Map<String, String> state, boolean windowEnds) {
        DynamodbTimeWindowEvent event = new DynamodbTimeWindowEvent();
        event.setShardId(shard);
        event.setRecords(records);
        event.setState(state);
        event.setIsFinalInvokeForWindow(windowEnds);
        event.setEventSourceArn(arn);
        return event;
    }

    private static Map<String, String> summed(TimeWindowEventResponse response) {
        assertTrue(response.getBatchItemFailures().isEmpty(), response.toString());
        return response.getState();
    }

    private static long total(String movie, String month) {
        Map<String, AttributeValue> item = client.getItem(get -> get.tableName(TABLE).consistentRead(true)
                .key(Map.of("pk", AttributeValue.fromS("mov#" + movie), "sk", AttributeValue.fromS("tot#" + month))))
                .join().item();
        return item == null || item.isEmpty() ? 0 : Long.parseLong(item.get("streams").n());
    }

    private static void assertExact(Map<String, Long> expected, String month) {
        Map<String, String> wrong = new java.util.TreeMap<>();
        expected.forEach((movie, streams) -> { if (streams != total(movie, month)) wrong.put(movie, streams + " != " + total(movie, month)); });
        assertEquals(Map.of(), wrong, month);
    }

    private static synchronized String nextMonth() {
        return String.format("2019-%02d", month++);
    }

    @Test
    void aRetriedBatchAndOverlappingBatchesCountEveryStreamOnce() {
        String month = nextMonth();
        Map<String, Long> expected = record(month, 40);
        CountStreamsHandler handler = new CountStreamsHandler(client, streams, TABLE);
        recordsOf(month).forEach((shard, records) -> {
            int half = records.size() / 2;
            assertTrue(handler.handleRequest(event(shard, records.subList(0, half)), null).getBatchItemFailures().isEmpty());
            // Lambda retries the first half whole, then hands a batch that overlaps it.
            assertTrue(handler.handleRequest(event(shard, records.subList(0, half)), null).getBatchItemFailures().isEmpty());
            assertTrue(handler.handleRequest(event(shard, records.subList(Math.max(0, half - 5), records.size())), null)
                    .getBatchItemFailures().isEmpty());
            assertTrue(handler.handleRequest(event(shard, records), null).getBatchItemFailures().isEmpty());
        });
        assertExact(expected, month);
    }

    @Test
    void aWindowOfSeveralBatchesIsSummedInTheStateAndWrittenOnceAtItsEnd() {
        String month = nextMonth();
        Map<String, Long> expected = record(month, 40);
        CountStreamsHandler handler = new CountStreamsHandler(client, streams, TABLE);
        recordsOf(month).forEach((shard, records) -> {
            int third = records.size() / 3;
            List<DynamodbStreamRecord> one = records.subList(0, third);
            List<DynamodbStreamRecord> two = records.subList(third, 2 * third);
            List<DynamodbStreamRecord> three = records.subList(2 * third, records.size());
            Map<String, String> afterOne = summed(handler.handleRequest(event(shard, one, Map.of(), false), null));
            Map<String, String> afterTwo = summed(handler.handleRequest(event(shard, two, afterOne, false), null));
            // Lambda retries the second batch with the state from before it: the same sums, counted once.
            assertEquals(afterTwo, summed(handler.handleRequest(event(shard, two, afterOne, false), null)));
            Map<String, String> afterThree = summed(handler.handleRequest(event(shard, three, afterTwo, false), null));
            assertFalse(afterThree.isEmpty());
            expected.keySet().forEach(movie -> assertEquals(0, total(movie, month), "nothing written inside the window"));

            assertEquals(Map.of(), summed(handler.handleRequest(event(shard, List.of(), afterThree, true), null)));
            assertExact(expected, month);
            // The window's end again (its answer lost): the state is at or before the checkpoint, dropped.
            assertEquals(Map.of(), summed(handler.handleRequest(event(shard, List.of(), afterThree, true), null)));
        });
        assertExact(expected, month);
    }

    @Test
    void aWindowWhoseStateLambdaDidNotHandBackIsReadAgainFromTheShard() {
        String month = nextMonth();
        Map<String, Long> expected = record(month, 40);
        CountStreamsHandler handler = new CountStreamsHandler(client, streams, TABLE);
        recordsOf(month).forEach((shard, records) -> {
            int half = records.size() / 2;
            assertFalse(summed(handler.handleRequest(event(shard, records.subList(0, half), Map.of(), false), null)).isEmpty());
            // The window's end comes with a fresh state: the first half's sums are not in it.
            assertEquals(Map.of(), summed(handler.handleRequest(event(shard, records.subList(half, records.size()),
                    Map.of(), true), null)));
        });
        assertExact(expected, month);
    }

    @Test
    void aWindowIntoWhichAnotherReaderMovedTheCheckpointIsReadOnFromThereAndCountedOnce() {
        String month = nextMonth();
        Map<String, Long> expected = record(month, 40);
        CountStreamsHandler handler = new CountStreamsHandler(client, streams, TABLE);
        recordsOf(month).forEach((shard, records) -> {
            int half = records.size() / 2;
            Map<String, String> firstHalf = summed(handler.handleRequest(event(shard, records.subList(0, half), Map.of(),
                    false), null));
            // Another reader counts the first quarter meanwhile (as the in-process aggregator would).
            ShardCounter other = new ShardCounter(client, TABLE, new dev.moviegraph.catalog.CallContext(
                    new GatewayMetrics(), List.of("t")));
            other.count(shard, other.position(shard), streamsOf(records.subList(0, half / 2)),
                    records.get(half / 2 - 1).getDynamodb().getSequenceNumber(), false);
            // The window ends cut short by Lambda (isWindowTerminatedEarly): written like a final one.
            DynamodbTimeWindowEvent early = event(shard, records.subList(half, records.size()), firstHalf, false);
            early.setIsWindowTerminatedEarly(true);
            assertEquals(Map.of(), summed(handler.handleRequest(early, null)));
        });
        assertExact(expected, month);
    }

    /** The streams Lambda's records hold, as the counter takes them. */
    private static List<ShardCounter.Counted> streamsOf(List<DynamodbStreamRecord> records) {
        return records.stream().map(record -> record.getDynamodb().getNewImage())
                .filter(image -> image != null && image.containsKey("month") && image.containsKey("movieId")
                        && "stream".equals(image.get("type").getS()))
                .map(image -> new ShardCounter.Counted(MovieId.of(image.get("movieId").getS()),
                        YearMonth.parse(image.get("month").getS()))).toList();
    }

    @Test
    void aParentsLastWindowThatLambdaNeverEndedIsCountedBeforeItsChildsFirstWrite() {
        String month = nextMonth();
        Map<String, Long> expected = record(month, 40);
        recordsOf(month).forEach((shard, records) -> {
            // Lambda read the shard to its end, but its last window's state went with it (no final invocation).
            assertFalse(summed(new CountStreamsHandler(client, streams, TABLE)
                    .handleRequest(event(shard, records, Map.of(), false), null)).isEmpty());
            expected.keySet().forEach(movie -> assertEquals(0, total(movie, month), movie));

            String child = shard + "-child";
            CountStreamsHandler childs = new CountStreamsHandler(client, streams, TABLE,
                    (stream, id) -> id.equals(child) ? shard : null);
            childs.finishParent(new ShardRecords(streams, arn), child);
            assertExact(expected, month);
            // The engine's shard is open for hours, so it is not closed; asked again (another instance, after a
            // restart), the parent's rest is past its checkpoint and nothing is counted twice.
            assertFalse(new ShardCounter(client, TABLE, new dev.moviegraph.catalog.CallContext(new GatewayMetrics(),
                    List.of("t"))).position(shard).closed());
            new CountStreamsHandler(client, streams, TABLE, (stream, id) -> id.equals(child) ? shard : null)
                    .finishParent(new ShardRecords(streams, arn), child);
        });
        assertExact(expected, month);
    }

    @Test
    void aWindowsWriteKilledBetweenTransactionsIsFinishedFromTheShardEvenWithItsStateLost() {
        String month = nextMonth();
        Map<String, Long> expected = record(month, 150); // 150 totals: two transactions
        DynamoDbAsyncClient dying = DynamoClients.create(dynamo.endpoint(), List.of(new DiesAtTransaction(2)));
        try {
            recordsOf(month).forEach((shard, records) -> {
                int half = records.size() / 2;
                List<DynamodbStreamRecord> last = records.subList(half, records.size());
                Map<String, String> before = summed(new CountStreamsHandler(client, streams, TABLE)
                        .handleRequest(event(shard, records.subList(0, half), Map.of(), false), null));
                // The window's end fails: Lambda invokes it again (it does not go on past a failed window end).
                assertThrows(IllegalStateException.class, () -> new CountStreamsHandler(dying, streams, TABLE)
                        .handleRequest(event(shard, last, before, true), null));
                long halfway = expected.keySet().stream().mapToLong(movie -> total(movie, month)).sum();
                assertTrue(halfway > 0 && halfway < expected.values().stream().mapToLong(Long::longValue).sum(),
                        "the first transaction is in: " + halfway);

                // Invoked again without the window's first half (a state lost): the shard's records finish it.
                assertEquals(Map.of(), summed(new CountStreamsHandler(client, streams, TABLE)
                        .handleRequest(event(shard, last, Map.of(), true), null)));
                assertExact(expected, month);
                // And again with the state from before (the answer lost): counted already, nothing twice.
                assertEquals(Map.of(), summed(new CountStreamsHandler(client, streams, TABLE)
                        .handleRequest(event(shard, last, before, true), null)));
            });
        } finally {
            dying.close();
        }
        assertExact(expected, month);
    }

    @Test
    void aBatchLeftPendingByTheInProcessAggregatorIsFinishedByTheFunctionFromTheShard() {
        String month = nextMonth();
        Map<String, Long> expected = record(month, 150);
        DynamoDbAsyncClient dying = DynamoClients.create(dynamo.endpoint(), List.of(new DiesAtTransaction(2)));
        try {
            // A gateway's aggregator dies between the two transactions of its window, then Lambda takes over.
            StreamAggregator aggregator = new StreamAggregator(dying, streams, TABLE, arn, new GatewayMetrics());
            assertThrows(RuntimeException.class, () -> aggregator.countOnce(StreamAggregator.Window.DEFAULT));
        } finally {
            dying.close();
        }
        recordsOf(month).forEach((shard, records) -> {
            // Lambda's batch holds only the last ten records of the aggregator's pending batch.
            List<DynamodbStreamRecord> lastTen = records.subList(records.size() - 10, records.size());
            assertEquals(Map.of(), summed(new CountStreamsHandler(client, streams, TABLE)
                    .handleRequest(event(shard, lastTen, Map.of(), true), null)));
        });
        assertExact(expected, month);
    }

    @Test
    void anInvocationKilledBetweenTransactionsIsInvokedAgainAndFinishedOnce() {
        String month = nextMonth();
        Map<String, Long> expected = record(month, 150); // 150 totals: two transactions
        DynamoDbAsyncClient dying = DynamoClients.create(dynamo.endpoint(), List.of(new DiesAtTransaction(2)));
        try {
            CountStreamsHandler killed = new CountStreamsHandler(dying, streams, TABLE);
            recordsOf(month).forEach((shard, records) -> {
                assertThrows(IllegalStateException.class, () -> killed.handleRequest(event(shard, records), null));
                assertTrue(new CountStreamsHandler(client, streams, TABLE).handleRequest(event(shard, records), null)
                        .getBatchItemFailures().isEmpty());
            });
        } finally {
            dying.close();
        }
        assertExact(expected, month);
    }

    @Test
    void twoInvocationsOnOneShardAtOnceCountItOnce() throws Exception {
        String month = nextMonth();
        Map<String, Long> expected = record(month, 120);
        ExecutorService two = Executors.newFixedThreadPool(2);
        try {
            for (Map.Entry<String, List<DynamodbStreamRecord>> shard : recordsOf(month).entrySet()) {
                List<Future<TimeWindowEventResponse>> running = new ArrayList<>();
                for (int i = 0; i < 2; i++) {
                    running.add(two.submit(() -> new CountStreamsHandler(client, streams, TABLE)
                            .handleRequest(event(shard.getKey(), shard.getValue()), null)));
                }
                boolean lost = false;
                for (Future<TimeWindowEventResponse> invocation : running) {
                    try {
                        lost |= !invocation.get().getBatchItemFailures().isEmpty();
                    } catch (java.util.concurrent.ExecutionException failedWindowEnd) {
                        lost = true; // a window's end that lost the race fails whole
                    }
                }
                if (lost) { // the one that lost: Lambda invokes it again, once both have returned
                    assertTrue(new CountStreamsHandler(client, streams, TABLE).handleRequest(event(shard.getKey(),
                            shard.getValue()), null).getBatchItemFailures().isEmpty());
                }
            }
        } finally {
            two.shutdown();
        }
        assertExact(expected, month);
    }

    @Test
    void eachBatchPublishesWhatItChangedToTheFeedSoGatewaysReadNoStream() {
        String month = nextMonth();
        Map<String, Long> expected = record(month, 6);
        ChangeLog.Reader gateway = new ChangeLog(client, TABLE, Clock.systemUTC()).reader();
        CountStreamsHandler handler = new CountStreamsHandler(client, streams, TABLE);
        recordsOf(month).forEach((shard, records) ->
                assertTrue(handler.handleRequest(event(shard, records), null).getBatchItemFailures().isEmpty()));
        // The totals the counter wrote reach the stream in turn, and Lambda hands them over as later batches
        // (with the stream items again here: a retried batch, counted once).
        recordsOf(month).forEach((shard, records) ->
                assertTrue(handler.handleRequest(event(shard, records), null).getBatchItemFailures().isEmpty()));
        assertExact(expected, month);

        CatalogChanges heard = gateway.poll();
        assertFalse(heard.everything(), heard.toString());
        assertEquals(expected.keySet(), heard.movies().stream().map(MovieId::value).collect(Collectors.toSet()));
        assertEquals(Set.of(YearMonth.parse(month)), heard.months());
    }

    @Test
    void anEventWithoutItsShardIsRefusedBeforeCountingAnything() {
        DynamodbStreamRecord record = new DynamodbStreamRecord();
        record.setDynamodb(new com.amazonaws.services.lambda.runtime.events.models.dynamodb.StreamRecord()
                .withSequenceNumber("1"));
        IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> new CountStreamsHandler(client, streams, TABLE).handleRequest(event(null, List.of(record)), null));
        assertTrue(refused.getMessage().contains("TumblingWindowInSeconds"), refused.getMessage());
        assertFalse(new CountStreamsHandler(client, streams, TABLE).handleRequest(event("s", List.of()), null) == null);
    }
}
