package dev.moviegraph.dynamo.streams;

import dev.moviegraph.catalog.CatalogChanges;
import dev.moviegraph.catalog.MovieId;
import dev.moviegraph.dynamo.model.ItemCollection;
import dev.moviegraph.dynamo.model.TableModel;

import java.time.YearMonth;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * What a batch of stream records changed, from their keys alone: an item of partition {@code mov#{id}}
 * changed that movie (the movie, its credits, its totals), a sort key {@code tot#{month}} that month's
 * totals; an item of a private collection's partition ({@link ItemCollection#privateOwnerOf}) changed
 * that owner's collection. Other items (people, streams, the feed's own) change nothing a subscription shows: a rename
 * reaches the credits' copies, which are in movie partitions. Whoever reads the stream (the lease
 * holder, a Lambda invocation) maps its records here.
 */
public final class ChangedKeys {
    private final Set<MovieId> movies = new HashSet<>();
    private final Set<YearMonth> months = new HashSet<>();
    private final Set<CatalogChanges.Owner> owners = new HashSet<>();

    /** Notes the record of an item, given its key attributes' values by name (as the stream record holds them). */
    public void add(Function<String, String> keys) {
        add(keys.apply(TableModel.PK), keys.apply(TableModel.SK));
    }

    /** Notes the record of the item with these keys (either may be null: such a record changes nothing). */
    private void add(String partitionKey, String sortKey) {
        if (partitionKey == null || sortKey == null) {
            return;
        }
        Optional<MovieId> movie = TableModel.movieOfPartition(partitionKey);
        if (movie.isPresent()) {
            movies.add(movie.get());
            TableModel.monthOfTotal(sortKey).ifPresent(months::add);
        }
        TableModel.monthOfTopList(partitionKey).ifPresent(months::add); // a merge, a deletion or a rename
        ItemCollection.privateOwnerOf(partitionKey).ifPresent(owners::add); // a viewer's own list: theirs alone
    }

    public CatalogChanges changes() {
        return new CatalogChanges(movies, months, owners, false);
    }
}
