package dev.moviegraph.catalog;

import java.time.YearMonth;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The read port the GraphQL layer calls. Every method is one access pattern of the table; none of them
 * scans. Implementations must answer a whole batch with the fewest requests the pattern allows.
 */
public interface CatalogReader {

    /** Fetches items by key, any types mixed; absent keys are missing from the map. */
    CompletableFuture<Map<EntityRef<?>, Object>> fetch(Collection<EntityRef<?>> refs);

    /** Reads parts of a movie's item collection. */
    CompletableFuture<MovieCollection> readMovie(MovieRead read);

    /** Reads a page of an actor's filmography through the inverted index. */
    CompletableFuture<Filmography> readFilmography(FilmographyRead read);

    /** The most streamed movies of a month, most streamed first. */
    CompletableFuture<List<MonthlyStreams>> topMovies(YearMonth month, int limit);

    /** Whether the store answers at all. */
    CompletableFuture<Boolean> ping();
}
