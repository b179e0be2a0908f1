package dev.moviegraph.dynamo.write;

import dev.moviegraph.catalog.PersistedQueryStore;
import dev.moviegraph.dynamo.client.StoreFailures;
import dev.moviegraph.dynamo.model.TableModel.PersistedQuery;
import dev.moviegraph.dynamo.model.TableModel;

import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;

/**
 * Persisted queries in the single table ({@link TableModel#PERSISTED_QUERY}): one item per hash, read
 * with one eventually consistent GetItem and written with one PutItem. DynamoDB's time to live deletes
 * an expired item only eventually (within days), so a read checks the expiry itself.
 */
public final class DynamoPersistedQueries implements PersistedQueryStore {
    private final DynamoDbAsyncClient client;
    private final String table;
    private final Clock clock;

    public DynamoPersistedQueries(DynamoDbAsyncClient client, String table, Clock clock) {
        this.client = client;
        this.table = table;
        this.clock = clock;
    }

    @Override
    public CompletableFuture<Optional<String>> find(String sha256) {
        GetItemRequest request = GetItemRequest.builder().tableName(table)
                .key(TableModel.PERSISTED_QUERY.key(Map.of("hash", sha256))).build();
        return StoreFailures.translated(client.getItem(request)).thenApply(response -> {
            if (!response.hasItem() || response.item().isEmpty()) {
                return Optional.empty();
            }
            PersistedQuery stored = TableModel.PERSISTED_QUERY.decode(response.item());
            return stored.expiresAt() > clock.instant().getEpochSecond()
                    ? Optional.of(stored.document()) : Optional.empty();
        });
    }

    @Override
    public CompletableFuture<Void> save(String sha256, String document, Instant expiresAt) {
        PutItemRequest request = PutItemRequest.builder().tableName(table).item(TableModel.PERSISTED_QUERY.encode(
                new PersistedQuery(sha256, document, expiresAt.getEpochSecond()))).build();
        return StoreFailures.translated(client.putItem(request)).thenApply(response -> null);
    }
}
