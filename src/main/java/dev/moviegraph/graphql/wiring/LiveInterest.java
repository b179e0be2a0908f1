package dev.moviegraph.graphql.wiring;

import dev.moviegraph.catalog.CatalogChanges;
import dev.moviegraph.catalog.MovieId;

import java.time.YearMonth;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import graphql.schema.DataFetchingEnvironment;

/**
 * What one reading of a subscription depended on, noted by its root field's fetcher: the months whose top
 * lists it read and the movies it showed. A change to any of them (or to "everything") means it must be
 * read again. Lives in the GraphQL context of a subscription's reading; other requests note nothing.
 */
public final class LiveInterest {
    private static final LiveInterest NONE = new LiveInterest();

    private final Set<YearMonth> months = ConcurrentHashMap.newKeySet();
    private final Set<MovieId> movies = ConcurrentHashMap.newKeySet();

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

    public boolean touchedBy(CatalogChanges changes) {
        return changes.everything() || changes.months().stream().anyMatch(months::contains)
                || changes.movies().stream().anyMatch(movies::contains);
    }

    @Override
    public String toString() {
        return "months " + months + ", movies " + movies;
    }
}
