package dev.moviegraph.graphql.wiring;

import dev.moviegraph.catalog.Movie;
import dev.moviegraph.catalog.MovieId;
import dev.moviegraph.catalog.Part;

import java.util.Map;

/**
 * What the GraphQL layer knows about a movie at some point of a query: at least its id, maybe the
 * whole movie item, maybe only the copies a credit or total carries, and maybe parts of its collection
 * (cast, crew, totals) that the same DynamoDB request already returned.
 */
record MovieNode(MovieId id, Movie movie, Copy copy, Map<Part, Prefetched> parts) {
    /**
     * The movie's fields another item copies: a credit copies title and year, a total the title only, a
     * list entry title, year and (when {@code hasRating}) rating and votes, each null for a movie without.
     */
    record Copy(String title, boolean hasYear, Integer year, boolean hasRating, Double averageRating,
                Integer numVotes) {
        Copy(String title, boolean hasYear, Integer year) {
            this(title, hasYear, year, false, null, null);
        }
    }

    MovieNode {
        parts = Map.copyOf(parts);
    }

    static MovieNode reference(MovieId id, Copy copy) {
        return new MovieNode(id, null, copy, Map.of());
    }

    static MovieNode of(Movie movie) {
        return new MovieNode(movie.id(), movie, null, Map.of());
    }
}
