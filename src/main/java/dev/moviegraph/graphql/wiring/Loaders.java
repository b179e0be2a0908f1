package dev.moviegraph.graphql.wiring;

import dev.moviegraph.catalog.CallContext;
import dev.moviegraph.catalog.CallObserver;
import dev.moviegraph.catalog.CatalogReader;
import dev.moviegraph.catalog.CollectionPage;
import dev.moviegraph.catalog.CollectionRead;
import dev.moviegraph.catalog.Fetched;
import dev.moviegraph.catalog.ItemRef;
import dev.moviegraph.catalog.Part;
import dev.moviegraph.catalog.StoreUnavailableException;
import dev.moviegraph.metrics.GatewayMetrics;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.BiConsumer;

import graphql.schema.DataFetchingEnvironment;
import org.dataloader.BatchLoaderWithContext;
import org.dataloader.DataLoader;
import org.dataloader.DataLoaderFactory;
import org.dataloader.DataLoaderOptions;
import org.dataloader.DataLoaderRegistry;
import org.dataloader.Try;

/**
 * The DataLoaders of one request, registered by the type of their keys. A fresh registry per request
 * means no cache is ever shared between users; within a request, every load of one kind at one level
 * becomes one batch:
 * <ul>
 *   <li>{@link ItemRef}: movies, people and totals by key, all kinds mixed, in one BatchGetItem;</li>
 *   <li>{@link CollectionRead}: the reads of collections, one loader per kind (movies', people's,
 *   months'), each batch's reads all issued together.</li>
 * </ul>
 * Each load carries the GraphQL paths it serves as its key context, so every store call knows which
 * fields it was made for. With batching off (BATCHING=off, for comparison only) every load is its own
 * batch and nothing is cached: one request per key, as a naive resolver makes.
 */
public final class Loaders {
    private final boolean batching;
    private final GatewayMetrics metrics;

    public Loaders(boolean batching, GatewayMetrics metrics) {
        this.batching = batching;
        this.metrics = metrics;
    }

    /** The request's loader of items by key. */
    static DataLoader<ItemRef<?>, Record> items(DataFetchingEnvironment env) {
        return env.getDataLoader(ItemRef.class.getName());
    }

    /**
     * The request's loader of reads of {@code read}'s kind of collection. Each kind has its own loader, so
     * that reads of one kind made while another kind's batch completes wait for their own level's
     * dispatch: a planning run, whose reads complete at once, then batches as the real run does.
     */
    static DataLoader<CollectionRead, CollectionPage> collections(DataFetchingEnvironment env, CollectionRead read) {
        return env.getDataLoader(collectionsName(read.collection()));
    }

    private static String collectionsName(Part.Collection kind) {
        return CollectionRead.class.getName() + "." + kind;
    }

    /**
     * @param planning whether the registry serves a planning run: its batches are not DynamoDB's, not measured
     * @param hold     where batches wait while deferred fragments start, and are answered in turn ({@link BatchHold})
     */
    public DataLoaderRegistry newRegistry(CatalogReader catalog, CallObserver observer, boolean planning, BatchHold hold) {
        BiConsumer<String, Integer> batch = planning ? (loader, size) -> { } : metrics::batch;
        BatchHold.Batch<ItemRef<?>, Try<Record>> items = (refs, contexts) -> {
            batch.accept("items", refs.size());
            return catalog.fetch(refs, new CallContext(observer, paths(contexts)))
                    .thenApply(fetched -> refs.stream().map(ref -> outcome(fetched, ref)).toList());
        };
        // Off means batches of one key, not setBatchingEnabled(false): java-dataloader 6.0.0's unbatched
        // path hands a Try loader's raw Try to the caller instead of unwrapping it.
        DataLoaderOptions options = DataLoaderOptions.newOptions()
                .setMaxBatchSize(batching ? -1 : 1)
                .setCachingEnabled(batching)
                .build();
        DataLoaderRegistry.Builder registry = DataLoaderRegistry.newRegistry()
                .register(ItemRef.class.getName(), DataLoaderFactory.newDataLoaderWithTry(held(hold, items), options));
        for (Part.Collection kind : Part.Collection.values()) {
            // One function per kind: held batches of one kind run together, never with another kind's.
            BatchHold.Batch<CollectionRead, Try<CollectionPage>> collections = (reads, contexts) -> {
                batch.accept("collections", reads.size());
                return eachTogether(reads, contexts, observer, catalog::read);
            };
            registry.register(collectionsName(kind), DataLoaderFactory.newDataLoaderWithTry(held(hold, collections), options));
        }
        return registry.build();
    }

    private static <K, V> BatchLoaderWithContext<K, V> held(BatchHold hold, BatchHold.Batch<K, V> batch) {
        return (keys, env) -> hold.load(batch, keys, env.getKeyContextsList());
    }

    /** Found (or absent: null), or an error for this key alone when the store never processed it. */
    private static Try<Record> outcome(Fetched fetched, ItemRef<?> ref) {
        if (fetched.unavailable().contains(ref)) {
            return Try.failed(new StoreUnavailableException("The store was too busy to read this item in time"));
        }
        return Try.succeeded(fetched.found().get(ref));
    }

    /** The paths every load of a batch serves, in order, without repeats. */
    @SuppressWarnings("unchecked")
    private static List<String> paths(List<Object> contexts) {
        Set<String> paths = new LinkedHashSet<>();
        for (Object context : contexts) {
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
    private static <K, V> CompletableFuture<List<Try<V>>> eachTogether(List<K> keys, List<Object> contexts,
                                                                      CallObserver observer, Read<K, V> read) {
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
