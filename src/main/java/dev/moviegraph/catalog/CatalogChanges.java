package dev.moviegraph.catalog;

import java.time.YearMonth;
import java.util.Set;

/**
 * What changed in the table, as its change stream tells it: movies any of whose items (the movie, its
 * credits, its totals) were written or deleted, and months any of whose totals were. {@code everything}
 * means changes may have been missed (a new stream reader took over, an iterator was lost): whoever
 * keeps a view of the catalog must read it again.
 */
public record CatalogChanges(Set<MovieId> movies, Set<YearMonth> months, boolean everything) {
    public static final CatalogChanges EVERYTHING = new CatalogChanges(Set.of(), Set.of(), true);

    public CatalogChanges {
        movies = Set.copyOf(movies);
        months = Set.copyOf(months);
    }

    public boolean isEmpty() {
        return !everything && movies.isEmpty() && months.isEmpty();
    }
}
