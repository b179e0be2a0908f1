package dev.moviegraph.dynamo.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.catalog.CallContext;
import dev.moviegraph.catalog.MovieId;
import dev.moviegraph.catalog.StoreCall;
import dev.moviegraph.dynamo.model.TableModel;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * Batches against a fake DynamoDB that enforces the API's limits and hands keys or items back as
 * unprocessed on demand: nothing is dropped, retries happen, chunks respect the limits, and a table
 * that never catches up ends in an UnprocessedException instead of a hang.
 */
class BatchesTest {
    static final String TABLE = "moviegraph-test";
    /** Generous: the whole retry budget is a few seconds at most. */
    private static final long TIMEOUT_SECONDS = 30;

    private static Map<String, AttributeValue> key(int i) {
        return TableModel.movieKey(MovieId.of(String.format("tt%07d", i)));
    }

    private static Map<String, AttributeValue> item(int i) {
        Map<String, AttributeValue> item = new HashMap<>(key(i));
        item.put(TableModel.TYPE, AttributeValue.fromS("movie"));
        item.put("title", AttributeValue.fromS("Movie " + i));
        return Map.copyOf(item);
    }

    private static Map<String, AttributeValue> keyOf(Map<String, AttributeValue> item) {
        return Map.of(TableModel.PK, item.get(TableModel.PK), TableModel.SK, item.get(TableModel.SK));
    }

    private static List<Map<String, AttributeValue>> keys(int count) {
        return IntStream.range(0, count).mapToObj(BatchesTest::key).toList();
    }

    private static List<Map<String, AttributeValue>> items(int count) {
        return IntStream.range(0, count).mapToObj(BatchesTest::item).toList();
    }

    private static <T> T await(CompletableFuture<T> future) throws Exception {
        return future.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    /** The cause of the future's failure, past the CompletionException wrappers. */
    private static Throwable failureOf(CompletableFuture<?> future) {
        ExecutionException e = assertThrows(ExecutionException.class, () -> future.get(TIMEOUT_SECONDS, TimeUnit.SECONDS));
        Throwable cause = e.getCause();
        while (cause instanceof CompletionException && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }

    /**
     * A DynamoDB of one table in memory. It refuses requests that break the API's rules (over 100 keys
     * or 25 writes, duplicate keys, another table), and returns a key or an item as unprocessed as many
     * times as {@link #refuse} says, or always when {@link #alwaysRefuse} is set. GetItem is served too.
     */
    static final class FakeDynamo implements DynamoDbAsyncClient {
        final Map<Map<String, AttributeValue>, Map<String, AttributeValue>> stored = new HashMap<>();
        final Map<Map<String, AttributeValue>, Integer> refusals = new HashMap<>();
        final List<List<Map<String, AttributeValue>>> getRequests = new ArrayList<>();
        final List<List<Map<String, AttributeValue>>> writeRequests = new ArrayList<>();
        final List<Map<String, AttributeValue>> singleReads = new ArrayList<>();
        final List<String> ruleBreaks = new ArrayList<>();
        final AtomicInteger inFlight = new AtomicInteger();
        final AtomicInteger maxInFlight = new AtomicInteger();
        boolean alwaysRefuse;
        /** Answer after this many milliseconds on another thread; 0 answers at once. */
        long latencyMillis;

        void refuse(Map<String, AttributeValue> key, int times) {
            refusals.put(key, times);
        }

        /** Whether to hand this key back as unprocessed this time (and count the refusal). */
        private boolean refused(Map<String, AttributeValue> key) {
            if (alwaysRefuse) {
                return true;
            }
            int left = refusals.getOrDefault(key, 0);
            if (left > 0) {
                refusals.put(key, left - 1);
                return true;
            }
            return false;
        }

        private <T> CompletableFuture<T> answer(T response) {
            maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
            if (latencyMillis == 0) {
                inFlight.decrementAndGet();
                return CompletableFuture.completedFuture(response);
            }
            return CompletableFuture.supplyAsync(() -> {
                inFlight.decrementAndGet();
                return response;
            }, CompletableFuture.delayedExecutor(latencyMillis, TimeUnit.MILLISECONDS));
        }

        private synchronized <T> CompletableFuture<T> breakRule(String rule) {
            ruleBreaks.add(rule);
            return CompletableFuture.failedFuture(DynamoDbException.builder().message(rule).statusCode(400).build());
        }

        @Override
        public synchronized CompletableFuture<BatchGetItemResponse> batchGetItem(BatchGetItemRequest request) {
            if (!request.requestItems().keySet().equals(Set.of(TABLE))) {
                return breakRule("BatchGetItem on tables " + request.requestItems().keySet());
            }
            List<Map<String, AttributeValue>> keys = request.requestItems().get(TABLE).keys();
            getRequests.add(List.copyOf(keys));
            if (keys.isEmpty() || keys.size() > Batches.MAX_GET_KEYS) {
                return breakRule("BatchGetItem with " + keys.size() + " keys");
            }
            if (new HashSet<>(keys).size() != keys.size()) {
                return breakRule("Provided list of item keys contains duplicates");
            }
            List<Map<String, AttributeValue>> found = new ArrayList<>();
            List<Map<String, AttributeValue>> unprocessed = new ArrayList<>();
            for (Map<String, AttributeValue> key : keys) {
                if (refused(key)) {
                    unprocessed.add(key);
                } else if (stored.containsKey(key)) {
                    found.add(stored.get(key));
                }
            }
            BatchGetItemResponse.Builder response = BatchGetItemResponse.builder().responses(Map.of(TABLE, found));
            if (!unprocessed.isEmpty()) {
                response.unprocessedKeys(Map.of(TABLE, KeysAndAttributes.builder().keys(unprocessed).build()));
            }
            return answer(response.build());
        }

        @Override
        public synchronized CompletableFuture<BatchWriteItemResponse> batchWriteItem(BatchWriteItemRequest request) {
            if (!request.requestItems().keySet().equals(Set.of(TABLE))) {
                return breakRule("BatchWriteItem on tables " + request.requestItems().keySet());
            }
            List<WriteRequest> writes = request.requestItems().get(TABLE);
            List<Map<String, AttributeValue>> items = writes.stream().map(w -> w.putRequest().item()).toList();
            writeRequests.add(items);
            if (writes.isEmpty() || writes.size() > Batches.MAX_WRITE_ITEMS) {
                return breakRule("BatchWriteItem with " + writes.size() + " items");
            }
            if (items.stream().map(BatchesTest::keyOf).distinct().count() != items.size()) {
                return breakRule("Provided list of item keys contains duplicates");
            }
            List<WriteRequest> unprocessed = new ArrayList<>();
            for (WriteRequest write : writes) {
                Map<String, AttributeValue> item = write.putRequest().item();
                if (refused(keyOf(item))) {
                    unprocessed.add(write);
                } else {
                    stored.put(keyOf(item), item);
                }
            }
            BatchWriteItemResponse.Builder response = BatchWriteItemResponse.builder();
            if (!unprocessed.isEmpty()) {
                response.unprocessedItems(Map.of(TABLE, unprocessed));
            }
            return answer(response.build());
        }

        /** Single reads are served too, so a single key may be read either way. */
        @Override
        public synchronized CompletableFuture<GetItemResponse> getItem(GetItemRequest request) {
            if (!TABLE.equals(request.tableName())) {
                return breakRule("GetItem on table " + request.tableName());
            }
            singleReads.add(request.key());
            Map<String, AttributeValue> item = stored.get(request.key());
            return answer(item == null ? GetItemResponse.builder().build() : GetItemResponse.builder().item(item).build());
        }

        synchronized int getCalls() {
            return getRequests.size();
        }

        synchronized int writeCalls() {
            return writeRequests.size();
        }

        synchronized List<Integer> getSizes() {
            return getRequests.stream().map(List::size).toList();
        }

        synchronized List<Integer> writeSizes() {
            return writeRequests.stream().map(List::size).toList();
        }

        @Override
        public String serviceName() {
            return "dynamodb";
        }

        @Override
        public void close() {
        }
    }

    private static FakeDynamo storing(int count) {
        FakeDynamo dynamo = new FakeDynamo();
        items(count).forEach(item -> dynamo.stored.put(keyOf(item), item));
        return dynamo;
    }

    private static Set<String> ids(Collection<Map<String, AttributeValue>> items) {
        return items.stream().map(item -> item.get(TableModel.PK).s()).collect(Collectors.toCollection(TreeSet::new));
    }

    /** {@code actual} holds exactly the {@code expected} items, each once (failures name the ids, not whole items). */
    private static void assertExactly(List<Map<String, AttributeValue>> expected, Collection<Map<String, AttributeValue>> actual) {
        Set<String> missing = ids(expected);
        missing.removeAll(ids(actual));
        assertEquals(Set.of(), missing, "dropped");
        Set<String> extra = ids(actual);
        extra.removeAll(ids(expected));
        assertEquals(Set.of(), extra, "not asked for");
        assertEquals(expected.size(), actual.size(), "an item was returned twice");
        assertEquals(Set.copyOf(expected), Set.copyOf(actual), "items are returned as stored");
    }

    // ---------------------------------------------------------------- getAll

    @Test
    void unprocessedKeysAreRetriedUntilEveryItemIsRead() throws Exception {
        FakeDynamo dynamo = storing(250);
        int refusals = 0;
        for (int i = 0; i < 250; i++) {
            int times = i % 7 == 0 ? 2 : i % 3 == 0 ? 1 : 0;
            dynamo.refuse(key(i), times);
            refusals += times;
        }

        List<Map<String, AttributeValue>> found = await(new Batches(dynamo, TABLE).getAll(keys(250), CallContext.NONE)).items();

        assertExactly(items(250), found);
        assertEquals(List.of(), dynamo.ruleBreaks);
        // Three chunks, each needing two retries (its keys refused twice), each retry only the keys left.
        assertEquals(9, dynamo.getCalls(), dynamo.getSizes().toString());
        assertEquals(250 + refusals, dynamo.getSizes().stream().mapToInt(Integer::intValue).sum(),
                "retries ask only for the unprocessed keys: " + dynamo.getSizes());
    }

    @Test
    void keysUnprocessedOnlyOnTheFirstCallAreReadOnTheSecond() throws Exception {
        FakeDynamo dynamo = storing(40);
        for (int i = 0; i < 40; i += 2) {
            dynamo.refuse(key(i), 1);
        }

        List<Map<String, AttributeValue>> found = await(new Batches(dynamo, TABLE).getAll(keys(40), CallContext.NONE)).items();

        assertExactly(items(40), found);
        assertEquals(List.of(40, 20), dynamo.getSizes());
        Set<Map<String, AttributeValue>> retried = new HashSet<>(dynamo.getRequests.get(1));
        assertEquals(IntStream.range(0, 40).filter(i -> i % 2 == 0).mapToObj(BatchesTest::key).collect(Collectors.toSet()),
                retried, "the retry is exactly the unprocessed keys");
    }

    @Test
    void twoHundredFiftyKeysAreSentInChunksOfAtMostOneHundred() throws Exception {
        FakeDynamo dynamo = storing(250);

        List<Map<String, AttributeValue>> found = await(new Batches(dynamo, TABLE).getAll(keys(250), CallContext.NONE)).items();

        assertExactly(items(250), found);
        assertEquals(List.of(), dynamo.ruleBreaks);
        List<Integer> sizes = new ArrayList<>(dynamo.getSizes());
        Collections.sort(sizes);
        assertEquals(List.of(50, 100, 100), sizes);
        Set<Map<String, AttributeValue>> sent = new HashSet<>();
        dynamo.getRequests.forEach(sent::addAll);
        assertEquals(ids(keys(250)), ids(sent), "every key asked for");
        assertEquals(250, dynamo.getSizes().stream().mapToInt(Integer::intValue).sum(), "each key in exactly one chunk");
    }

    @Test
    void allChunksAreInFlightTogether() throws Exception {
        FakeDynamo dynamo = storing(350);
        dynamo.latencyMillis = 200;

        List<Map<String, AttributeValue>> found = await(new Batches(dynamo, TABLE).getAll(keys(350), CallContext.NONE)).items();

        assertExactly(items(350), found);
        assertEquals(4, dynamo.getCalls());
        assertEquals(4, dynamo.maxInFlight.get(), "the four chunks were sent one after another");
    }

    @Test
    void duplicateKeysAreSentOnceAndReadOnce() throws Exception {
        FakeDynamo dynamo = storing(30);
        List<Map<String, AttributeValue>> keys = new ArrayList<>();
        for (int round = 0; round < 3; round++) {
            keys.addAll(keys(30));
        }
        Collections.shuffle(keys, new Random(7));
        // Equal keys built separately (not the same instance) are duplicates too.
        keys.add(new HashMap<>(key(5)));

        List<Map<String, AttributeValue>> found = await(new Batches(dynamo, TABLE).getAll(keys, CallContext.NONE)).items();

        assertEquals(List.of(), dynamo.ruleBreaks, "DynamoDB refuses a batch with duplicate keys");
        assertEquals(List.of(30), dynamo.getSizes());
        assertExactly(items(30), found);
    }

    @Test
    void duplicatesAcrossChunkBoundariesAreStillSentOnce() throws Exception {
        FakeDynamo dynamo = storing(150);
        List<Map<String, AttributeValue>> keys = new ArrayList<>(keys(150));
        keys.addAll(keys(150));

        List<Map<String, AttributeValue>> found = await(new Batches(dynamo, TABLE).getAll(keys, CallContext.NONE)).items();

        assertEquals(150, dynamo.getSizes().stream().mapToInt(Integer::intValue).sum(), dynamo.getSizes().toString());
        assertExactly(items(150), found);
    }

    @Test
    void missingKeysAreAbsentFromTheResultAndNotRetried() throws Exception {
        FakeDynamo dynamo = storing(10);

        List<Map<String, AttributeValue>> found = await(new Batches(dynamo, TABLE).getAll(keys(20), CallContext.NONE)).items();

        assertExactly(items(10), found);
        assertEquals(1, dynamo.getCalls());
    }

    @Test
    void aSingleKeyAskedTwiceIsReadOnceWithOneRequest() throws Exception {
        FakeDynamo dynamo = storing(10);

        List<Map<String, AttributeValue>> found = await(new Batches(dynamo, TABLE).getAll(List.of(key(3), key(3)), CallContext.NONE)).items();

        assertExactly(List.of(item(3)), found);
        assertEquals(1, dynamo.getCalls() + dynamo.singleReads.size(), "one request, BatchGetItem or GetItem");
        assertEquals(List.of(), dynamo.ruleBreaks);
    }

    @Test
    void noKeysMeansNoRequest() throws Exception {
        FakeDynamo dynamo = storing(10);

        assertEquals(List.of(), await(new Batches(dynamo, TABLE).getAll(List.of(), CallContext.NONE)).items());
        assertEquals(0, dynamo.getCalls() + dynamo.singleReads.size());
    }

    @Test
    void keysThatStayUnprocessedAreHandedBackAfterEightAttempts() throws Exception {
        FakeDynamo dynamo = storing(10);
        dynamo.alwaysRefuse = true;

        long started = System.nanoTime();
        Batches.GetResult result = await(new Batches(dynamo, TABLE).getAll(keys(10), CallContext.NONE));
        long elapsedMillis = (System.nanoTime() - started) / 1_000_000;

        assertEquals(List.of(), result.items());
        assertExactly(keys(10), result.unprocessed());
        assertEquals(8, dynamo.getCalls(), "one call plus seven retries");
        // Backoff is capped at 2 s per wait: seven waits cannot exceed 14 s.
        assertTrue(elapsedMillis < 14_000, "took " + elapsedMillis + " ms");
    }

    @Test
    void onlyTheKeysThatStayUnprocessedAreHandedBackTheOthersAreRead() throws Exception {
        FakeDynamo dynamo = storing(150);
        for (int i = 100; i < 150; i++) {
            dynamo.refuse(key(i), Integer.MAX_VALUE);
        }

        Batches.GetResult result = await(new Batches(dynamo, TABLE).getAll(keys(150), CallContext.NONE));

        assertExactly(items(150).subList(0, 100), result.items());
        assertExactly(keys(150).subList(100, 150), result.unprocessed());
    }

    @Test
    void eachChunkIsReportedAsOneCallWithItsRoundsAndItsPaths() throws Exception {
        FakeDynamo dynamo = storing(150);
        for (int i = 0; i < 150; i += 10) {
            dynamo.refuse(key(i), 1);
        }
        List<StoreCall> calls = new java.util.concurrent.CopyOnWriteArrayList<>();

        await(new Batches(dynamo, TABLE).getAll(keys(150), new CallContext(calls::add, List.of("movies"))));

        assertEquals(2, calls.size(), calls.toString());
        assertEquals(List.of(50, 100), calls.stream().map(StoreCall::keys).sorted().toList());
        assertEquals(150, calls.stream().mapToInt(StoreCall::items).sum());
        for (StoreCall call : calls) {
            assertEquals("BatchGetItem", call.operation());
            assertEquals(2, call.pages(), "a first round and one for the refused keys: " + call);
            assertEquals(List.of("movies"), call.paths());
        }
    }

    // ---------------------------------------------------------------- putAll

    @Test
    void unprocessedItemsAreRetriedUntilEveryItemIsWritten() throws Exception {
        FakeDynamo dynamo = new FakeDynamo();
        int refusals = 0;
        for (int i = 0; i < 260; i++) {
            int times = i % 5 == 0 ? 2 : i % 2 == 0 ? 1 : 0;
            dynamo.refuse(key(i), times);
            refusals += times;
        }

        await(new Batches(dynamo, TABLE).putAll(items(260), 4));

        assertEquals(List.of(), dynamo.ruleBreaks);
        assertExactly(items(260), dynamo.stored.values());
        // 11 chunks (10 of 25, 1 of 10), each with items refused twice: three calls each.
        assertEquals(33, dynamo.writeCalls(), dynamo.writeSizes().toString());
        assertEquals(260 + refusals, dynamo.writeSizes().stream().mapToInt(Integer::intValue).sum(),
                "retries send only the unprocessed items: " + dynamo.writeSizes());
    }

    @Test
    void itemsAreWrittenInChunksOfAtMostTwentyFive() throws Exception {
        FakeDynamo dynamo = new FakeDynamo();

        await(new Batches(dynamo, TABLE).putAll(items(260), 3));

        assertEquals(List.of(), dynamo.ruleBreaks);
        List<Integer> sizes = new ArrayList<>(dynamo.writeSizes());
        Collections.sort(sizes);
        List<Integer> expected = new ArrayList<>(Collections.nCopies(10, 25));
        expected.add(0, 10);
        assertEquals(expected, sizes);
        assertEquals(260, dynamo.stored.size());
    }

    @Test
    void writesKeepAtMostParallelismRequestsInFlight() throws Exception {
        FakeDynamo dynamo = new FakeDynamo();
        dynamo.latencyMillis = 20;

        await(new Batches(dynamo, TABLE).putAll(items(500), 4));

        assertEquals(500, dynamo.stored.size());
        assertEquals(20, dynamo.writeCalls());
        int max = dynamo.maxInFlight.get();
        assertTrue(max <= 4, "max in flight " + max);
        assertTrue(max >= 2, "writes were not parallel: max in flight " + max);
    }

    @Test
    void noItemsMeansNoWrite() throws Exception {
        FakeDynamo dynamo = new FakeDynamo();

        await(new Batches(dynamo, TABLE).putAll(List.of(), 4));

        assertEquals(0, dynamo.writeCalls());
    }

    @Test
    void itemsThatStayUnprocessedFailWithUnprocessedExceptionAfterEightAttempts() {
        FakeDynamo dynamo = new FakeDynamo();
        dynamo.alwaysRefuse = true;

        Throwable failure = failureOf(new Batches(dynamo, TABLE).putAll(items(20), 2));

        assertInstanceOf(Batches.UnprocessedException.class, failure);
        assertEquals(8, dynamo.writeCalls(), "one call plus seven retries");
        assertTrue(dynamo.stored.isEmpty());
    }

    @Test
    void aFailedWriteChunkFailsTheWholeLoadEvenWhenOthersSucceed() {
        FakeDynamo dynamo = new FakeDynamo();
        dynamo.refuse(key(30), Integer.MAX_VALUE);

        Throwable failure = failureOf(new Batches(dynamo, TABLE).putAll(items(75), 3));

        assertInstanceOf(Batches.UnprocessedException.class, failure);
        assertFalse(dynamo.stored.containsKey(key(30)));
        assertEquals(74, dynamo.stored.size(), "the other items were written");
    }
}
