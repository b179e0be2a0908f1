package dev.moviegraph.catalog;

import java.time.YearMonth;
import java.util.Set;

/**
 * What changed in the table, as its change stream tells it: movies any of whose items (the movie, its
 * credits, its totals) were written or deleted, months any of whose totals were, and the owners of
 * private collections (a viewer's) any of whose items were: a change there must reach only that owner's
 * subscriptions, never everyone's. {@code everything} means changes may have been missed (a new stream
 * reader took over, an iterator was lost): whoever keeps a view of the catalog must read it again.
 */
public record CatalogChanges(Set<MovieId> movies, Set<YearMonth> months, Set<Owner> owners, boolean everything) {
    public static final CatalogChanges EVERYTHING = new CatalogChanges(Set.of(), Set.of(), Set.of(), true);

    /** The owner of one collection: its kind and its id (a viewer's subject). */
    public record Owner(Part.Collection collection, String id) {
        private static final char SEPARATOR = ':';

        /** As the change feed stores it: the kind, a colon, the id (which may hold colons itself). */
        public String text() {
            return collection.name() + SEPARATOR + id;
        }

        /** The owner {@link #text()} wrote; null for one of a kind this version does not know (a newer one's). */
        public static Owner parse(String text) {
            int at = text.indexOf(SEPARATOR);
            if (at < 0) {
                return null;
            }
            try {
                return new Owner(Part.Collection.valueOf(text.substring(0, at)), text.substring(at + 1));
            } catch (IllegalArgumentException unknown) {
                return null;
            }
        }
    }

    public CatalogChanges {
        movies = Set.copyOf(movies);
        months = Set.copyOf(months);
        owners = Set.copyOf(owners);
    }

    public CatalogChanges(Set<MovieId> movies, Set<YearMonth> months, boolean everything) {
        this(movies, months, Set.of(), everything);
    }

    public boolean isEmpty() {
        return !everything && movies.isEmpty() && months.isEmpty() && owners.isEmpty();
    }
}
