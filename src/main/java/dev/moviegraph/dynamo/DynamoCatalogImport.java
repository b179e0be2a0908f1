package dev.moviegraph.dynamo;

import dev.moviegraph.catalog.CatalogImport;
import dev.moviegraph.catalog.Credit;
import dev.moviegraph.catalog.ImportCheckpoint;
import dev.moviegraph.catalog.Movie;
import dev.moviegraph.catalog.Person;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;

/**
 * Writes an import through the table model: each record becomes the item its entity declares, 25 to a
 * BatchWriteItem, {@code parallelism} requests in flight, unprocessed items retried with backoff and
 * throttling retried by the SDK's strategy. Puts are idempotent, so a resumed import may write an item
 * again and ends with the same items.
 */
public final class DynamoCatalogImport implements CatalogImport {
    private final DynamoDbAsyncClient client;
    private final String table;
    private final Batches batches;
    private final int parallelism;
    private final AtomicLong written = new AtomicLong();

    public DynamoCatalogImport(DynamoDbAsyncClient client, String table, int parallelism) {
        this.client = client;
        this.table = table;
        this.batches = new Batches(client, table);
        this.parallelism = parallelism;
    }

    @Override
    public void write(List<? extends Record> records) {
        writeAsync(records).join();
    }

    /** Encodes the records, then returns while their BatchWriteItems go on. */
    @Override
    public CompletableFuture<Void> writeAsync(List<? extends Record> records) {
        List<Map<String, AttributeValue>> items = new ArrayList<>(records.size());
        for (Record record : records) {
            items.add(encode(record));
        }
        return batches.putAll(items, parallelism).thenRun(() -> written.addAndGet(items.size()));
    }

    static Map<String, AttributeValue> encode(Record record) {
        if (record instanceof Movie movie) {
            return TableModel.MOVIE.encode(movie);
        }
        if (record instanceof Person person) {
            return TableModel.PERSON.encode(person);
        }
        if (record instanceof Credit credit) {
            return TableModel.credits(credit.role()).encode(credit);
        }
        throw new IllegalArgumentException("An import writes movies, people and credits, not "
                + record.getClass().getSimpleName());
    }

    @Override
    public Optional<ImportCheckpoint> checkpoint(String name) {
        var response = client.getItem(GetItemRequest.builder().tableName(table)
                .key(TableModel.IMPORT.key(Map.of("name", name))).consistentRead(true)
                .overrideConfiguration(TableAdmin.STARTUP).build()).join();
        return response.hasItem() && !response.item().isEmpty()
                ? Optional.of(TableModel.IMPORT.decode(response.item())) : Optional.empty();
    }

    @Override
    public void save(ImportCheckpoint checkpoint) {
        client.putItem(PutItemRequest.builder().tableName(table).item(TableModel.IMPORT.encode(checkpoint))
                .overrideConfiguration(TableAdmin.STARTUP).build()).join();
    }

    @Override
    public long itemsWritten() {
        return written.get();
    }
}
