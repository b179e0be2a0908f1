package dev.moviegraph.graphql;

import dev.moviegraph.catalog.AccessPattern;
import dev.moviegraph.catalog.Actor;
import dev.moviegraph.catalog.CallContext;
import dev.moviegraph.catalog.CatalogAccess;
import dev.moviegraph.catalog.CatalogReader;
import dev.moviegraph.catalog.EntityRef;
import dev.moviegraph.catalog.EntityRef.ActorRef;
import dev.moviegraph.catalog.EntityRef.MovieRef;
import dev.moviegraph.catalog.Fetched;
import dev.moviegraph.catalog.Filmography;
import dev.moviegraph.catalog.FilmographyRead;
import dev.moviegraph.catalog.MonthlyStreams;
import dev.moviegraph.catalog.Movie;
import dev.moviegraph.catalog.MovieCollection;
import dev.moviegraph.catalog.MovieRead;
import dev.moviegraph.catalog.PlannedCall;

import java.time.YearMonth;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * A catalog in memory for the GraphQL layer's own tests: every movie and actor exists (named after its
 * id) except the keys marked unavailable, which it reports as never processed, as DynamoDB's
 * UnprocessedKeys do after the retry budget. Records each fetch's keys.
 */
final class StubCatalog implements CatalogReader {
    private final Set<String> unavailableIds;
    private final List<AccessPattern> patterns;
    final List<Set<EntityRef<?>>> fetches = new ArrayList<>();

    StubCatalog(Set<String> unavailableIds, CatalogAccess... served) {
        this.unavailableIds = unavailableIds;
        this.patterns = Arrays.stream(served)
                .map(read -> new AccessPattern("STUB_" + read, read, "Stub", "table", "pk = stub"))
                .toList();
    }

    static StubCatalog complete(Set<String> unavailableIds) {
        return new StubCatalog(unavailableIds, CatalogAccess.values());
    }

    @Override
    public synchronized CompletableFuture<Fetched> fetch(Collection<EntityRef<?>> refs, CallContext context) {
        fetches.add(new HashSet<>(refs));
        Map<EntityRef<?>, Object> found = new HashMap<>();
        Set<EntityRef<?>> unavailable = new HashSet<>();
        for (EntityRef<?> ref : refs) {
            if (ref instanceof MovieRef movie) {
                if (unavailableIds.contains(movie.id().value())) {
                    unavailable.add(ref);
                } else {
                    found.put(ref, new Movie(movie.id(), "Title of " + movie.id().value(), 2000, null, List.of(), null));
                }
            } else if (ref instanceof ActorRef actor) {
                if (unavailableIds.contains(actor.id().value())) {
                    unavailable.add(ref);
                } else {
                    found.put(ref, new Actor(actor.id(), "Name of " + actor.id().value(), 1970));
                }
            }
        }
        return CompletableFuture.completedFuture(new Fetched(found, unavailable));
    }

    @Override
    public CompletableFuture<MovieCollection> readMovie(MovieRead read, CallContext context) {
        return CompletableFuture.failedFuture(new UnsupportedOperationException("not in this stub"));
    }

    @Override
    public CompletableFuture<Filmography> readFilmography(FilmographyRead read, CallContext context) {
        return CompletableFuture.failedFuture(new UnsupportedOperationException("not in this stub"));
    }

    @Override
    public CompletableFuture<List<MonthlyStreams>> topMovies(YearMonth month, int limit, CallContext context) {
        return CompletableFuture.completedFuture(List.of());
    }

    @Override
    public CompletableFuture<Boolean> ping() {
        return CompletableFuture.completedFuture(true);
    }

    @Override
    public List<PlannedCall> planFetch(int distinctKeys) {
        return List.of();
    }

    @Override
    public List<PlannedCall> planMovie(MovieRead read) {
        return List.of();
    }

    @Override
    public List<PlannedCall> planFilmography(FilmographyRead read) {
        return List.of();
    }

    @Override
    public List<PlannedCall> planTopMovies(YearMonth month, int limit) {
        return List.of();
    }

    @Override
    public List<AccessPattern> accessPatterns() {
        return patterns;
    }
}
