package dev.moviegraph.graphql.wiring;

import dev.moviegraph.catalog.CatalogChanges;
import dev.moviegraph.catalog.MovieId;
import dev.moviegraph.catalog.Part;

import java.time.YearMonth;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import graphql.schema.DataFetchingEnvironment;

/**
 * What one reading of a subscription depended on, noted by its fetchers: the months whose top lists it
 * read, the movies it showed, and the owners of the private collections it read (a viewer's own lists). A change to any of them (or to "everything") means it must be
 * read again. Lives in the GraphQL context of a subscription's reading; other requests note nothing.
 */
public final class LiveInterest {
    private static final LiveInterest NONE = new LiveInterest();

    private final Set<YearMonth> months = ConcurrentHashMap.newKeySet();
    private final Set<MovieId> movies = ConcurrentHashMap.newKeySet();
    private final Set<CatalogChanges.Owner> owners = ConcurrentHashMap.newKeySet();

    static LiveInterest of(DataFetchingEnvironment env) {
        LiveInterest interest = env.getGraphQlContext().get(LiveInterest.class);
        return interest == null ? NONE : interest;
    }

    void month(YearMonth month) {
        if (this != NONE) {
            months.add(month);
        }
    }

    void movie(MovieId movie) {
        if (this != NONE) {
            movies.add(movie);
        }
    }

    /** A collection of one owner's was read: a change of any of its items reads this again, and no one else's does. */
    void owner(Part.Collection collection, String id) {
        if (this != NONE) {
            owners.add(new CatalogChanges.Owner(collection, id));
        }
    }

    public boolean touchedBy(CatalogChanges changes) {
        return changes.everything() || changes.months().stream().anyMatch(months::contains)
                || changes.movies().stream().anyMatch(movies::contains)
                || changes.owners().stream().anyMatch(owners::contains);
    }

    @Override
    public String toString() {
        return "months " + months + ", movies " + movies + ", owners " + owners;
    }
}
