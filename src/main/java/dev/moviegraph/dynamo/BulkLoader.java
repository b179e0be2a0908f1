package dev.moviegraph.dynamo;

import dev.moviegraph.catalog.Actor;
import dev.moviegraph.catalog.CastMember;
import dev.moviegraph.catalog.MonthlyStreams;
import dev.moviegraph.catalog.Movie;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;

/**
 * Loads a whole catalog with BatchWriteItem. A marker item is written last, so a load that was cut
 * short is simply redone at the next start (puts are idempotent) and a finished one is never repeated.
 */
public final class BulkLoader {
    private static final int PARALLEL_WRITES = 32;

    private final DynamoDbAsyncClient client;
    private final String table;
    private final Batches batches;

    public BulkLoader(DynamoDbAsyncClient client, String table) {
        this.client = client;
        this.table = table;
        this.batches = new Batches(client, table);
    }

    public boolean isLoaded(String marker) {
        return client.getItem(GetItemRequest.builder().tableName(table).key(markerKey(marker))
                        .overrideConfiguration(TableAdmin.STARTUP).build())
                .join().hasItem();
    }

    /** Writes every item, then the marker; returns the number of items written. */
    public int load(String marker, List<Movie> movies, List<Actor> actors, List<CastMember> cast,
                    List<MonthlyStreams> totals) {
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        movies.forEach(movie -> items.add(ItemCodec.movieItem(movie)));
        actors.forEach(actor -> items.add(ItemCodec.actorItem(actor)));
        cast.forEach(member -> items.add(ItemCodec.castItem(member)));
        totals.forEach(total -> items.add(ItemCodec.totalItem(total)));
        batches.putAll(items, PARALLEL_WRITES)
                .thenCompose(ignored -> putMarker(marker))
                .join();
        return items.size();
    }

    private CompletableFuture<Void> putMarker(String marker) {
        Map<String, AttributeValue> item = new HashMap<>(markerKey(marker));
        item.put(TableLayout.TYPE, AttributeValue.fromS("meta"));
        item.put("loadedAt", AttributeValue.fromS(Instant.now().toString()));
        return client.putItem(PutItemRequest.builder().tableName(table).item(item).build()).thenApply(ignored -> null);
    }

    private static Map<String, AttributeValue> markerKey(String marker) {
        return TableLayout.key("meta#" + marker, "meta#" + marker);
    }
}
