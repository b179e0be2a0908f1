package dev.moviegraph.graphql;

import dev.moviegraph.catalog.CallContext;
import dev.moviegraph.catalog.CallObserver;
import dev.moviegraph.catalog.CatalogReader;
import dev.moviegraph.catalog.EntityRef;
import dev.moviegraph.catalog.Fetched;
import dev.moviegraph.catalog.Filmography;
import dev.moviegraph.catalog.FilmographyRead;
import dev.moviegraph.catalog.MovieCollection;
import dev.moviegraph.catalog.MovieRead;
import dev.moviegraph.catalog.StoreUnavailableException;
import dev.moviegraph.metrics.GatewayMetrics;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.BiConsumer;

import org.dataloader.BatchLoaderEnvironment;
import org.dataloader.BatchLoaderWithContext;
import org.dataloader.DataLoader;
import org.dataloader.DataLoaderFactory;
import org.dataloader.DataLoaderOptions;
import org.dataloader.DataLoaderRegistry;
import org.dataloader.Try;

/**
 * The DataLoaders of one request. A fresh registry per request means no cache is ever shared between
 * users; within a request, every load of one kind at one level becomes one batch:
 * <ul>
 *   <li>{@link #ENTITIES}: movies, actors and totals by key, all kinds mixed, in one BatchGetItem;</li>
 *   <li>{@link #MOVIE_COLLECTIONS}: one Query per movie collection, all issued together;</li>
 *   <li>{@link #FILMOGRAPHIES}: one GSI1 Query per actor, all issued together.</li>
 * </ul>
 * Each load carries the GraphQL paths it serves as its key context, so every store call knows which
 * fields it was made for. With batching off (BATCHING=off, for comparison only) every load is its own
 * batch and nothing is cached: one request per key, as a naive resolver makes.
 */
final class Loaders {
    static final String ENTITIES = "entities";
    static final String MOVIE_COLLECTIONS = "movieCollections";
    static final String FILMOGRAPHIES = "filmographies";

    private final boolean batching;
    private final GatewayMetrics metrics;

    Loaders(boolean batching, GatewayMetrics metrics) {
        this.batching = batching;
        this.metrics = metrics;
    }

    /** @param planning whether the registry serves a planning run: its batches are not DynamoDB's, not measured */
    DataLoaderRegistry newRegistry(CatalogReader catalog, CallObserver observer, boolean planning) {
        BiConsumer<String, Integer> batch = planning ? (loader, size) -> { } : metrics::batch;
        BatchLoaderWithContext<EntityRef<?>, Try<Object>> entities = (refs, env) -> {
            batch.accept(ENTITIES, refs.size());
            return catalog.fetch(refs, new CallContext(observer, paths(env)))
                    .thenApply(fetched -> refs.stream().map(ref -> outcome(fetched, ref)).toList());
        };
        BatchLoaderWithContext<MovieRead, Try<MovieCollection>> collections = (reads, env) -> {
            batch.accept(MOVIE_COLLECTIONS, reads.size());
            return eachTogether(reads, env, observer, catalog::readMovie);
        };
        BatchLoaderWithContext<FilmographyRead, Try<Filmography>> filmographies = (reads, env) -> {
            batch.accept(FILMOGRAPHIES, reads.size());
            return eachTogether(reads, env, observer, catalog::readFilmography);
        };
        // Off means batches of one key, not setBatchingEnabled(false): java-dataloader 6.0.0's unbatched
        // path hands a Try loader's raw Try to the caller instead of unwrapping it.
        DataLoaderOptions options = DataLoaderOptions.newOptions()
                .setMaxBatchSize(batching ? -1 : 1)
                .setCachingEnabled(batching)
                .build();
        DataLoader<EntityRef<?>, Object> entityLoader = DataLoaderFactory.newDataLoaderWithTry(entities, options);
        DataLoader<MovieRead, MovieCollection> collectionLoader =
                DataLoaderFactory.newDataLoaderWithTry(collections, options);
        DataLoader<FilmographyRead, Filmography> filmographyLoader =
                DataLoaderFactory.newDataLoaderWithTry(filmographies, options);
        return DataLoaderRegistry.newRegistry()
                .register(ENTITIES, entityLoader)
                .register(MOVIE_COLLECTIONS, collectionLoader)
                .register(FILMOGRAPHIES, filmographyLoader)
                .build();
    }

    /** Found (or absent: null), or an error for this key alone when the store never processed it. */
    private static Try<Object> outcome(Fetched fetched, EntityRef<?> ref) {
        if (fetched.unavailable().contains(ref)) {
            return Try.failed(new StoreUnavailableException("The store was too busy to read this item in time"));
        }
        return Try.succeeded(fetched.found().get(ref));
    }

    /** The paths every load of a batch serves, in order, without repeats. */
    @SuppressWarnings("unchecked")
    private static List<String> paths(BatchLoaderEnvironment env) {
        Set<String> paths = new LinkedHashSet<>();
        for (Object context : env.getKeyContextsList()) {
            if (context instanceof List<?> list) {
                paths.addAll((List<String>) list);
            }
        }
        return List.copyOf(paths);
    }

    @FunctionalInterface
    private interface Read<K, V> {
        CompletableFuture<V> apply(K key, CallContext context);
    }

    /**
     * Starts one read per key at once (they are independent Queries) and keeps each outcome apart, so
     * a bad cursor on one movie fails that movie's field only.
     */
    private static <K, V> CompletableFuture<List<Try<V>>> eachTogether(List<K> keys, BatchLoaderEnvironment env,
                                                                      CallObserver observer, Read<K, V> read) {
        List<Object> contexts = env.getKeyContextsList();
        List<CompletableFuture<Try<V>>> started = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            Object paths = i < contexts.size() ? contexts.get(i) : null;
            @SuppressWarnings("unchecked")
            CallContext context = new CallContext(observer, paths instanceof List<?> list ? (List<String>) list : List.of());
            CompletableFuture<V> future;
            try {
                future = read.apply(keys.get(i), context);
            } catch (RuntimeException e) {
                future = CompletableFuture.failedFuture(e);
            }
            started.add(future.handle((value, failure) -> failure == null ? Try.succeeded(value)
                    : Try.failed(failure instanceof CompletionException
                            && failure.getCause() != null ? failure.getCause() : failure)));
        }
        return CompletableFuture.allOf(started.toArray(CompletableFuture[]::new))
                .thenApply(ignored -> started.stream().map(CompletableFuture::join).toList());
    }
}
