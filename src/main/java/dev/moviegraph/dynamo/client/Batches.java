package dev.moviegraph.dynamo.client;

import dev.moviegraph.catalog.CallContext;
import dev.moviegraph.dynamo.model.Access;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import software.amazon.awssdk.retries.api.BackoffStrategy;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * BatchGetItem and BatchWriteItem done right: chunks at the API's limits, all chunks in flight together,
 * and the keys or items DynamoDB hands back as unprocessed retried with jittered exponential backoff
 * (the SDK's own strategy) instead of being dropped. Keys still unprocessed after the budget are handed
 * back by name, so only the fields that needed them fail.
 */
public final class Batches {
    static final int MAX_GET_KEYS = Access.MAX_GET_KEYS;
    public static final int MAX_WRITE_ITEMS = 25;
    private static final int MAX_ATTEMPTS = 8;
    private static final BackoffStrategy BACKOFF =
            BackoffStrategy.exponentialDelay(Duration.ofMillis(25), Duration.ofSeconds(2));

    private final DynamoDbAsyncClient client;
    private final String table;

    /** Reads are strongly consistent: what a writer reads back right after writing it. */
    private final boolean consistent;

    public Batches(DynamoDbAsyncClient client, String table) {
        this(client, table, false);
    }

    private Batches(DynamoDbAsyncClient client, String table, boolean consistent) {
        this.consistent = consistent;
        this.client = client;
        this.table = table;
    }

    /**
     * What a read by key returned: the items found, in no particular order, and the keys DynamoDB still
     * left unprocessed after the whole retry budget (each one is an error for whoever asked for it).
     */
    public record GetResult(List<Map<String, AttributeValue>> items, List<Map<String, AttributeValue>> unprocessed) {
        static final GetResult EMPTY = new GetResult(List.of(), List.of());
    }

    /** The same batches with strongly consistent reads (twice the read units). */
    public Batches consistently() {
        return new Batches(client, table, true);
    }

    /** Reads every key (duplicates allowed), each chunk reported to {@code context} as one call. */
    public CompletableFuture<GetResult> getAll(List<Map<String, AttributeValue>> keys, CallContext context) {
        List<Map<String, AttributeValue>> distinct = keys.stream().distinct().toList();
        if (distinct.isEmpty()) {
            return CompletableFuture.completedFuture(GetResult.EMPTY);
        }
        if (Access.byKeys(distinct.size()) == Access.GET_ITEM) {
            // One key is a GetItem: the same read units, and the plainest request for a single item.
            Call call = Call.byKey(context, Access.GET_ITEM, 1);
            GetItemRequest request = GetItemRequest.builder().tableName(table).key(distinct.get(0)).consistentRead(consistent)
                    .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL).overrideConfiguration(call.override()).build();
            return call.reportWhenDone(call.send(() -> client.getItem(request)).thenApply(response -> {
                call.page(response.hasItem() ? 1 : 0, Collections.singletonList(response.consumedCapacity()));
                return new GetResult(response.hasItem() ? List.of(response.item()) : List.of(), List.of());
            }));
        }
        List<CompletableFuture<GetResult>> chunks = new ArrayList<>();
        for (List<Map<String, AttributeValue>> chunk : chunks(distinct, MAX_GET_KEYS)) {
            Call call = Call.byKey(context, Access.BATCH_GET_ITEM, chunk.size());
            chunks.add(call.reportWhenDone(getChunk(call, chunk, 1, new ArrayList<>())));
        }
        return CompletableFuture.allOf(chunks.toArray(CompletableFuture[]::new)).thenApply(ignored -> {
            List<Map<String, AttributeValue>> items = new ArrayList<>();
            List<Map<String, AttributeValue>> unprocessed = new ArrayList<>();
            for (CompletableFuture<GetResult> chunk : chunks) {
                items.addAll(chunk.join().items());
                unprocessed.addAll(chunk.join().unprocessed());
            }
            return new GetResult(items, unprocessed);
        });
    }

    private CompletableFuture<GetResult> getChunk(Call call, List<Map<String, AttributeValue>> keys, int attempt,
                                                  List<Map<String, AttributeValue>> found) {
        BatchGetItemRequest request = BatchGetItemRequest.builder()
                .requestItems(Map.of(table, KeysAndAttributes.builder().keys(keys).consistentRead(consistent).build()))
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .overrideConfiguration(call.override())
                .build();
        return call.send(() -> client.batchGetItem(request)).thenCompose(response -> {
            List<Map<String, AttributeValue>> items = response.responses().getOrDefault(table, List.of());
            call.page(items.size(), response.consumedCapacity());
            found.addAll(items);
            KeysAndAttributes unprocessed = response.unprocessedKeys().get(table);
            if (unprocessed == null || unprocessed.keys().isEmpty()) {
                return CompletableFuture.completedFuture(new GetResult(found, List.of()));
            }
            if (attempt >= MAX_ATTEMPTS) {
                return CompletableFuture.completedFuture(new GetResult(found, unprocessed.keys()));
            }
            return later(attempt + 1).thenCompose(ignored -> getChunk(call, unprocessed.keys(), attempt + 1, found));
        });
    }

    /**
     * Puts every item, 25 per request, at most {@code parallelism} requests in flight. A bulk load is
     * start-up work (the sample catalog): it waits for a busy local DynamoDB as the other start-up calls do.
     */
    public CompletableFuture<Void> putAll(List<Map<String, AttributeValue>> items, int parallelism) {
        List<List<Map<String, AttributeValue>>> chunks = chunks(items, MAX_WRITE_ITEMS);
        List<CompletableFuture<Void>> lanes = new ArrayList<>();
        for (int lane = 0; lane < parallelism; lane++) {
            CompletableFuture<Void> chain = CompletableFuture.completedFuture(null);
            for (int i = lane; i < chunks.size(); i += parallelism) {
                List<WriteRequest> writes = chunks.get(i).stream()
                        .map(item -> WriteRequest.builder().putRequest(PutRequest.builder().item(item).build()).build())
                        .toList();
                chain = chain.thenCompose(ignored -> writeChunk(writes, 1));
            }
            lanes.add(chain);
        }
        return CompletableFuture.allOf(lanes.toArray(CompletableFuture[]::new));
    }

    private CompletableFuture<Void> writeChunk(List<WriteRequest> writes, int attempt) {
        BatchWriteItemRequest request = BatchWriteItemRequest.builder().requestItems(Map.of(table, writes))
                .overrideConfiguration(DynamoClients.STARTUP).build();
        return client.batchWriteItem(request).thenCompose(response -> {
            List<WriteRequest> unprocessed = response.unprocessedItems().getOrDefault(table, List.of());
            if (unprocessed.isEmpty()) {
                return CompletableFuture.completedFuture(null);
            }
            if (attempt >= MAX_ATTEMPTS) {
                return CompletableFuture.failedFuture(new UnprocessedException(unprocessed.size()));
            }
            return later(attempt + 1).thenCompose(ignored -> writeChunk(unprocessed, attempt + 1));
        });
    }

    /** Waits before {@code nextAttempt} (the SDK's strategy numbers attempts from 1, which waits 0). */
    private static CompletableFuture<Void> later(int nextAttempt) {
        long delay = BACKOFF.computeDelay(nextAttempt).toMillis();
        return CompletableFuture.runAsync(() -> { }, CompletableFuture.delayedExecutor(delay, TimeUnit.MILLISECONDS));
    }

    public static <T> List<List<T>> chunks(List<T> all, int size) {
        List<List<T>> chunks = new ArrayList<>();
        for (int i = 0; i < all.size(); i += size) {
            chunks.add(all.subList(i, Math.min(all.size(), i + size)));
        }
        return chunks;
    }

    /** Keys that DynamoDB still refused to process after the whole retry budget. */
    public static final class UnprocessedException extends RuntimeException {
        public UnprocessedException(int count) {
            super(count + " keys or items were still unprocessed after " + MAX_ATTEMPTS + " attempts");
        }
    }
}
