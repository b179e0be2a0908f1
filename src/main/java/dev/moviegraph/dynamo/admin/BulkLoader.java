package dev.moviegraph.dynamo.admin;

import dev.moviegraph.catalog.BilledCast;
import dev.moviegraph.catalog.Credit;
import dev.moviegraph.catalog.KnownFor;
import dev.moviegraph.catalog.MonthlyStreams;
import dev.moviegraph.catalog.Movie;
import dev.moviegraph.catalog.MovieId;
import dev.moviegraph.catalog.Person;
import dev.moviegraph.catalog.PersonId;
import dev.moviegraph.catalog.RankedPerson;
import dev.moviegraph.catalog.Role;
import dev.moviegraph.dynamo.client.Batches;
import dev.moviegraph.dynamo.client.DynamoClients;
import dev.moviegraph.dynamo.model.SearchEntries;
import dev.moviegraph.dynamo.model.TableModel;
import dev.moviegraph.dynamo.read.ItemWeights;
import dev.moviegraph.dynamo.write.TopLists;

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
                        .overrideConfiguration(DynamoClients.STARTUP).build())
                .join().hasItem();
    }

    /** Whether an import (ImportCheckpoint) wrote into the table: then it holds a catalog of its own. */
    public boolean holdsImport(String name) {
        return client.getItem(GetItemRequest.builder().tableName(table).key(TableModel.IMPORT.key(Map.of("name", name)))
                        .overrideConfiguration(DynamoClients.STARTUP).build())
                .join().hasItem();
    }

    /** Writes every item, then the marker; returns the number of items written. */
    public int load(String marker, List<Movie> movies, List<Person> people, List<Credit> credits,
                    List<MonthlyStreams> totals) {
        return load(marker, movies, people, credits, totals, List.of());
    }

    /**
     * The same with other records of the catalog (awards and nominations, a movie's alternate titles), each
     * written as the items {@link SearchEntries#itemsOf} makes of it.
     */
    public int load(String marker, List<Movie> movies, List<Person> people, List<Credit> credits,
                    List<MonthlyStreams> totals, List<? extends Record> others) {
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        Map<MovieId, Movie> byId = new HashMap<>();
        movies.forEach(movie -> byId.put(movie.id(), movie));
        Map<PersonId, KnownFor> knownFor = new HashMap<>();
        for (Credit credit : credits) {
            Movie movie = byId.get(credit.movieId());
            if (movie != null && movie.numVotes() != null) {
                knownFor.merge(credit.personId(), new KnownFor(movie.id(), movie.title(), movie.year(), movie.numVotes()),
                        KnownFor::better);
            }
        }
        // Every movie and person with its credits counted (and a movie's first-billed cast copied), as the writers keep them.
        Map<MovieId, Integer> castOf = new HashMap<>();
        Map<PersonId, int[]> creditsOf = new HashMap<>();
        for (Credit credit : credits) {
            if (credit.role() == Role.CAST) {
                castOf.merge(credit.movieId(), 1, Integer::sum);
            }
            creditsOf.computeIfAbsent(credit.personId(), id -> new int[Role.values().length])[credit.role().ordinal()]++;
        }
        Map<MovieId, List<BilledCast>> firstCast = BilledCast.firstBilledOf(credits);
        movies.forEach(movie -> items.addAll(DynamoCatalogImport.encode(movie.withCastCount(castOf.getOrDefault(movie.id(), 0))
                .withFirstCast(firstCast.getOrDefault(movie.id(), List.of())))));
        people.forEach(person -> {
            int[] counts = creditsOf.getOrDefault(person.id(), new int[Role.values().length]);
            Person counted = person.withCounts(counts[Role.CAST.ordinal()], counts[Role.DIRECTOR.ordinal()],
                    counts[Role.WRITER.ordinal()]);
            items.addAll(DynamoCatalogImport.encode(new RankedPerson(counted, knownFor.get(person.id()))));
        });
        credits.forEach(credit -> items.add(TableModel.credits(credit.role()).encode(credit)));
        totals.forEach(total -> items.add(TableModel.TOTAL.encode(total)));
        items.addAll(TopLists.built(totals)); // what counting those streams would have merged
        others.forEach(other -> items.addAll(SearchEntries.itemsOf(other)));
        ItemWeights weights = new ItemWeights(client, table).load();
        // The longest lists read whole (awards, titles) are recorded from the items, for read estimates.
        weights.observe(items)
                .thenCompose(ignored -> batches.putAll(items, PARALLEL_WRITES))
                .thenCompose(ignored -> putMarker(marker))
                .join();
        return items.size();
    }

    private CompletableFuture<Void> putMarker(String marker) {
        Map<String, AttributeValue> item = TableModel.META.encode(new TableModel.Meta(marker, null, Instant.now()));
        return client.putItem(PutItemRequest.builder().tableName(table).item(item).build()).thenApply(ignored -> null);
    }

    private static Map<String, AttributeValue> markerKey(String marker) {
        return TableModel.metaKey(marker);
    }
}
