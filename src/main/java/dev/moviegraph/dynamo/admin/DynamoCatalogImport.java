package dev.moviegraph.dynamo.admin;

import dev.moviegraph.catalog.CallContext;
import dev.moviegraph.catalog.CatalogImport;
import dev.moviegraph.catalog.Credit;
import dev.moviegraph.catalog.ImportCheckpoint;
import dev.moviegraph.catalog.MovieId;
import dev.moviegraph.catalog.MovieTitle;
import dev.moviegraph.catalog.Records;
import dev.moviegraph.catalog.PersonId;
import dev.moviegraph.dynamo.client.Batches;
import dev.moviegraph.dynamo.client.DynamoClients;
import dev.moviegraph.dynamo.client.Queries;
import dev.moviegraph.dynamo.model.Access;
import dev.moviegraph.dynamo.model.Condition;
import dev.moviegraph.dynamo.model.Entity;
import dev.moviegraph.dynamo.model.Expression;
import dev.moviegraph.dynamo.model.ItemUpdate;
import dev.moviegraph.dynamo.model.SearchEntries;
import dev.moviegraph.dynamo.model.TableModel;
import dev.moviegraph.dynamo.read.ItemWeights;
import dev.moviegraph.dynamo.write.TopLists;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

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
    private final TopLists topLists;
    private final ItemWeights weights;

    /** Write units a second at most, 0 for no limit ({@code --max-write-units}). */
    private final int maxWriteUnits;
    private long pacedSince;
    private double unitsSpent;

    public DynamoCatalogImport(DynamoDbAsyncClient client, String table, int parallelism) {
        this(client, table, parallelism, 0);
    }

    /**
     * {@code maxWriteUnits}: the most write units a second the import may use (a provisioned table's
     * capacity, say); writes are then sent in slices paced to that rate instead of as fast as they go.
     */
    public DynamoCatalogImport(DynamoDbAsyncClient client, String table, int parallelism, int maxWriteUnits) {
        this.maxWriteUnits = maxWriteUnits;
        this.client = client;
        this.table = table;
        this.batches = new Batches(client, table);
        this.parallelism = parallelism;
        this.weights = new ItemWeights(client, table).load();
        this.topLists = new TopLists(client, table);
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
            items.addAll(encode(record));
        }
        if (maxWriteUnits <= 0) {
            return weights.observe(items).thenCompose(ignored -> batches.putAll(items, parallelism))
                    .thenRun(() -> written.addAndGet(items.size()));
        }
        // Paced: slices of about a tenth of a second's units, each sent once the rate allows it.
        weights.observe(items).join();
        int slice = Math.max(Batches.MAX_WRITE_ITEMS, maxWriteUnits / 10);
        for (List<Map<String, AttributeValue>> part : Batches.chunks(items, slice)) {
            pace(part.stream().mapToInt(item -> (ItemWeights.sizeOf(item) + 1023) / 1024).sum());
            batches.putAll(part, parallelism).join();
        }
        written.addAndGet(items.size());
        return CompletableFuture.completedFuture(null);
    }

    /** Waits until {@code units} more fit in the rate: a put costs one unit per KB of item, rounded up. */
    private void pace(int units) {
        long now = System.nanoTime();
        if (pacedSince == 0) {
            pacedSince = now;
        }
        unitsSpent += units;
        long due = pacedSince + (long) ((unitsSpent - units) * 1e9 / maxWriteUnits);
        if (due > now) {
            try {
                Thread.sleep((due - now) / 1_000_000, (int) ((due - now) % 1_000_000));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Import interrupted; run it again to go on", e);
            }
        }
    }

    /** A credit is one item; a movie or a person is counted by encoding it. */
    @Override
    public int itemsOf(Record record) {
        return record instanceof Credit ? 1 : encode(record).size(); // encoded again when written: microseconds
    }

    /** A record's items ({@link SearchEntries#itemsOf}): a movie or a person with its search entries, a credit. */
    public static List<Map<String, AttributeValue>> encode(Record record) {
        return SearchEntries.itemsOf(record);
    }

    @Override
    public Optional<ImportCheckpoint> checkpoint(String name) {
        var response = client.getItem(GetItemRequest.builder().tableName(table)
                .key(TableModel.IMPORT.key(Map.of("name", name))).consistentRead(true)
                .overrideConfiguration(DynamoClients.STARTUP).build()).join();
        return response.hasItem() && !response.item().isEmpty()
                ? Optional.of(TableModel.IMPORT.decode(response.item())) : Optional.empty();
    }

    @Override
    public void save(ImportCheckpoint checkpoint) {
        client.putItem(PutItemRequest.builder().tableName(table).item(TableModel.IMPORT.encode(checkpoint))
                .overrideConfiguration(DynamoClients.STARTUP).build()).join();
    }

    @Override
    public int reconcile(MovieId movie, Set<CreditKey> credits, String title, Set<Integer> titles) {
        QueryRequest query = Access.ENTIRE_COLLECTION.query(table, Map.of("movieId", movie))
                .consistentRead(true).build();
        List<Map<String, AttributeValue>> collection = Queries.all(client, CallContext.NONE, Access.ENTIRE_COLLECTION,
                query).join();
        Set<Map<String, AttributeValue>> kept = new HashSet<>();
        credits.forEach(credit -> kept.add(TableModel.creditKey(movie, credit.personId(), credit.role())));
        // The entries the movie item as now stored has (its search words, its lists): any other is stale.
        collection.stream().filter(item -> TableModel.is(item, TableModel.MOVIE)).findFirst()
                .ifPresent(item -> SearchEntries.of(TableModel.MOVIE.decode(item))
                        .forEach(entry -> kept.add(TableModel.keyOf(entry))));
        // The other titles this import has, and the entries they derive with the title it wrote.
        List<MovieTitle> others = titles == null ? List.of() : collection.stream()
                .filter(item -> TableModel.is(item, TableModel.MOVIE_TITLE)).map(TableModel.MOVIE_TITLE::decode)
                .filter(other -> titles.contains(other.ordering())).toList();
        others.forEach(other -> kept.add(TableModel.MOVIE_TITLE.key(Records.components(other))));
        if (!others.isEmpty()) {
            SearchEntries.of(new MovieTitle.OfMovie(movie, title, null, null, others))
                    .forEach(entry -> kept.add(TableModel.keyOf(entry)));
        }
        List<WriteRequest> deletes = new ArrayList<>();
        List<CompletableFuture<?>> updates = new ArrayList<>();
        List<java.time.YearMonth> retitled = new ArrayList<>();
        for (Map<String, AttributeValue> item : collection) {
            Map<String, AttributeValue> key = TableModel.keyOf(item);
            boolean reconciled = TableModel.CREDITS.stream().anyMatch(entity -> TableModel.is(item, entity))
                    || TableModel.is(item, TableModel.MOVIE_WORD) || TableModel.is(item, TableModel.MOVIE_LIST)
                    || titles != null && (TableModel.is(item, TableModel.MOVIE_TITLE) || TableModel.is(item, TableModel.TITLE_WORD));
            if (reconciled && !kept.contains(key)) {
                deletes.add(WriteRequest.builder().deleteRequest(delete -> delete.key(key)).build());
            } else if (TableModel.is(item, TableModel.TOTAL)) {
                Entity.Copy copy = TableModel.TOTAL.copies().get(0);
                String titleAttribute = copy.attributes().keySet().iterator().next();
                AttributeValue copied = item.get(titleAttribute);
                if (copied == null || !title.equals(copied.s())) {
                    retitled.add(TableModel.TOTAL.decode(item).month());
                }
                if (copied == null || !title.equals(copied.s()) || item.containsKey(copy.versionAttribute())) {
                    // The import wrote the movie without a version: the copy becomes older than any
                    // version a later putMovie writes, so that write updates it too.
                    Expression unversioned = Expression.of(ItemUpdate.create().set(titleAttribute, AttributeValue.fromS(title))
                            .remove(copy.versionAttribute()), Condition.exists(TableModel.PK));
                    updates.add(client.updateItem(UpdateItemRequest.builder().tableName(table).key(key)
                            .conditionExpression(unversioned.condition())
                            .updateExpression(unversioned.update())
                            .expressionAttributeNames(unversioned.names())
                            .expressionAttributeValues(unversioned.values()).build()));
                }
            }
        }
        deleteAll(deletes);
        CompletableFuture.allOf(updates.toArray(CompletableFuture[]::new)).join();
        // The months' top lists show the title too (a GetItem each, a PutItem where the movie is listed).
        retitled.forEach(month -> topLists.retitle(month, movie, title, CallContext.NONE));
        written.addAndGet(deletes.size() + updates.size());
        return deletes.size() + updates.size();
    }

    @Override
    public int reconcilePerson(PersonId person, String name) {
        QueryRequest query = Access.PERSON_WORDS.query(table, Map.of("personId", person))
                .consistentRead(true).build();
        Set<Map<String, AttributeValue>> wanted = new HashSet<>(SearchEntries.keys(TableModel.PERSON_WORD, person.value(), name));
        List<WriteRequest> deletes = new ArrayList<>();
        for (Map<String, AttributeValue> item : Queries.all(client, CallContext.NONE, Access.PERSON_WORDS, query).join()) {
            Map<String, AttributeValue> key = TableModel.keyOf(item);
            if (!wanted.contains(key)) {
                deletes.add(WriteRequest.builder().deleteRequest(delete -> delete.key(key)).build());
            }
        }
        deleteAll(deletes);
        written.addAndGet(deletes.size());
        return deletes.size();
    }

    private void deleteAll(List<WriteRequest> deletes) {
        for (List<WriteRequest> chunk : Batches.chunks(deletes, Batches.MAX_WRITE_ITEMS)) {
            List<WriteRequest> left = chunk;
            for (int attempt = 0; !left.isEmpty(); attempt++) {
                if (attempt == 8) {
                    throw new Batches.UnprocessedException(left.size());
                }
                left = client.batchWriteItem(BatchWriteItemRequest.builder().requestItems(Map.of(table, left)).build())
                        .join().unprocessedItems().getOrDefault(table, List.of());
            }
        }
    }

    @Override
    public long itemsWritten() {
        return written.get();
    }
}
