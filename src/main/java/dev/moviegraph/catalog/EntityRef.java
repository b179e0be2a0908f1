package dev.moviegraph.catalog;

import java.time.YearMonth;

/**
 * Something that can be fetched by its key alone. Fetches of any mix of these at one level of a query
 * are answered together (one batch read), whatever their types.
 */
public sealed interface EntityRef<T> {
    record MovieRef(MovieId id) implements EntityRef<Movie> {
    }

    record ActorRef(ActorId id) implements EntityRef<Actor> {
    }

    record TotalRef(MovieId movieId, YearMonth month) implements EntityRef<MonthlyStreams> {
    }
}
