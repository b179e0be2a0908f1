package dev.moviegraph.catalog;

import java.time.YearMonth;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The read port the GraphQL layer calls. Every method is one kind of read ({@link CatalogAccess}) that a
 * store answers with its access patterns; none of them scans. Implementations must answer a whole
 * batch with the fewest requests the pattern allows, and report every call to the context's observer.
 *
 * <p>The {@code plan...} methods answer which calls a read would make, without making them; stores
 * must take the same decision there as in the read itself.
 */
public interface CatalogReader {

    /** Fetches items by key, any types mixed. */
    CompletableFuture<Fetched> fetch(Collection<EntityRef<?>> refs, CallContext context);

    /** Reads parts of a movie's item collection. */
    CompletableFuture<MovieCollection> readMovie(MovieRead read, CallContext context);

    /** Reads a page of an actor's filmography through the inverted index. */
    CompletableFuture<Filmography> readFilmography(FilmographyRead read, CallContext context);

    /** The most streamed movies of a month, most streamed first. */
    CompletableFuture<List<MonthlyStreams>> topMovies(YearMonth month, int limit, CallContext context);

    /** Whether the store answers at all. */
    CompletableFuture<Boolean> ping();

    /** The calls {@link #fetch} makes for this many distinct keys. */
    List<PlannedCall> planFetch(int distinctKeys);

    List<PlannedCall> planMovie(MovieRead read);

    List<PlannedCall> planFilmography(FilmographyRead read);

    List<PlannedCall> planTopMovies(YearMonth month, int limit);

    /** Every access pattern the store has; each serves one {@link CatalogAccess}. */
    List<AccessPattern> accessPatterns();
}
