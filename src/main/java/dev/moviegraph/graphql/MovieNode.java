package dev.moviegraph.graphql;

import dev.moviegraph.catalog.CastPage;
import dev.moviegraph.catalog.MonthRange;
import dev.moviegraph.catalog.MonthlyStreams;
import dev.moviegraph.catalog.Movie;
import dev.moviegraph.catalog.MovieCollection;
import dev.moviegraph.catalog.MovieId;
import dev.moviegraph.catalog.MovieRead;
import dev.moviegraph.catalog.PageRequest;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * What the GraphQL layer knows about a movie at some point of a query: at least its id, maybe the
 * whole movie item, maybe only the copies a cast or total item carries (title, year), and maybe a cast
 * page and totals that the same DynamoDB request already returned.
 */
record MovieNode(MovieId id, Movie movie, Map<String, Object> known, PageRequest castRequest,
                 CompletableFuture<CastPage> cast, MonthRange totalsRange, CompletableFuture<List<MonthlyStreams>> totals) {

    static MovieNode reference(MovieId id, Map<String, Object> known) {
        return new MovieNode(id, null, known, null, null, null, null);
    }

    static MovieNode of(Movie movie) {
        return new MovieNode(movie.id(), movie, Map.of(), null, null, null, null);
    }

    /** A node for a collection read, or null when the movie is unknown. */
    static MovieNode of(MovieCollection collection, MovieRead read) {
        if (collection.movie() == null) {
            return null;
        }
        return new MovieNode(collection.movie().id(), collection.movie(), Map.of(),
                read.cast(), read.cast() == null ? null : CompletableFuture.completedFuture(collection.cast()),
                read.totals(), read.totals() == null ? null : CompletableFuture.completedFuture(collection.totals()));
    }

    /** The same node with a cast page that is being read beside it. */
    MovieNode withCast(PageRequest request, CompletableFuture<CastPage> page) {
        return new MovieNode(id, movie, known, request, page, totalsRange, totals);
    }
}
