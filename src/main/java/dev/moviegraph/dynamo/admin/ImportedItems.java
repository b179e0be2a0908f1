package dev.moviegraph.dynamo.admin;

import dev.moviegraph.catalog.CallContext;
import dev.moviegraph.catalog.MovieId;
import dev.moviegraph.catalog.PersonId;
import dev.moviegraph.dynamo.client.Batches;
import dev.moviegraph.dynamo.client.Queries;
import dev.moviegraph.dynamo.model.Access;
import dev.moviegraph.dynamo.model.TableModel;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;

import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;

/**
 * Reads back what an import wrote, by the ids it was given: each movie's whole collection (one Query)
 * and each person (BatchGetItem). For the import benchmark's raw pass, which needs the items without a
 * Scan: DynamoDB Local's Scan gets slower page after page on a table of a million items, its Query and
 * BatchGetItem do not.
 */
public final class ImportedItems {
    private final DynamoDbAsyncClient client;
    private final String table;
    private final int parallel;

    public ImportedItems(DynamoDbAsyncClient client, String table, int parallel) {
        this.client = client;
        this.table = table;
        this.parallel = parallel;
    }

    /** The movie items, credits and derived entries of these movies (none for an id that is not in the table). */
    public List<Map<String, AttributeValue>> movieCollections(List<String> movieIds) {
        Semaphore inFlight = new Semaphore(parallel);
        List<CompletableFuture<List<Map<String, AttributeValue>>>> reads = new ArrayList<>();
        for (String id : movieIds) {
            inFlight.acquireUninterruptibly();
            QueryRequest query = Access.ENTIRE_COLLECTION.query(table, Map.of("movieId", MovieId.of(id)))
                    .build();
            reads.add(Queries.all(client, CallContext.NONE, Access.ENTIRE_COLLECTION, query)
                    .whenComplete((items, failure) -> inFlight.release()));
        }
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        reads.forEach(read -> items.addAll(read.join()));
        return items;
    }

    /** The person items of these people and their search entries (none for an id that is not in the table). */
    public List<Map<String, AttributeValue>> people(List<String> personIds) {
        List<Map<String, AttributeValue>> keys = personIds.stream().map(id -> TableModel.personKey(PersonId.of(id))).toList();
        Batches.GetResult result = new Batches(client, table).getAll(keys, CallContext.NONE).join();
        if (!result.unprocessed().isEmpty()) {
            throw new IllegalStateException(result.unprocessed().size() + " person keys left unprocessed");
        }
        List<Map<String, AttributeValue>> items = new ArrayList<>(result.items());
        Semaphore inFlight = new Semaphore(parallel);
        List<CompletableFuture<List<Map<String, AttributeValue>>>> reads = new ArrayList<>();
        for (String id : personIds) {
            inFlight.acquireUninterruptibly();
            QueryRequest query = Access.PERSON_WORDS.query(table, Map.of("personId", PersonId.of(id))).build();
            reads.add(Queries.all(client, CallContext.NONE, Access.PERSON_WORDS, query)
                    .whenComplete((found, failure) -> inFlight.release()));
        }
        reads.forEach(read -> items.addAll(read.join()));
        return items;
    }
}
