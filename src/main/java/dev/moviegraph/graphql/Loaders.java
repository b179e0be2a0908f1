package dev.moviegraph.graphql;

import dev.moviegraph.catalog.CatalogReader;
import dev.moviegraph.catalog.EntityRef;
import dev.moviegraph.catalog.Filmography;
import dev.moviegraph.catalog.FilmographyRead;
import dev.moviegraph.catalog.MovieCollection;
import dev.moviegraph.catalog.MovieRead;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;

import org.dataloader.BatchLoader;
import org.dataloader.DataLoader;
import org.dataloader.DataLoaderFactory;
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
 */
final class Loaders {
    static final String ENTITIES = "entities";
    static final String MOVIE_COLLECTIONS = "movieCollections";
    static final String FILMOGRAPHIES = "filmographies";

    private final CatalogReader catalog;

    Loaders(CatalogReader catalog) {
        this.catalog = catalog;
    }

    DataLoaderRegistry newRegistry() {
        BatchLoader<EntityRef<?>, Object> entities = refs -> catalog.fetch(refs)
                .thenApply(found -> refs.stream().map(found::get).toList());
        BatchLoader<MovieRead, Try<MovieCollection>> collections = reads -> eachTogether(reads, catalog::readMovie);
        BatchLoader<FilmographyRead, Try<Filmography>> filmographies =
                reads -> eachTogether(reads, catalog::readFilmography);
        DataLoader<EntityRef<?>, Object> entityLoader = DataLoaderFactory.newDataLoader(entities);
        DataLoader<MovieRead, MovieCollection> collectionLoader = DataLoaderFactory.newDataLoaderWithTry(collections);
        DataLoader<FilmographyRead, Filmography> filmographyLoader =
                DataLoaderFactory.newDataLoaderWithTry(filmographies);
        return DataLoaderRegistry.newRegistry()
                .register(ENTITIES, entityLoader)
                .register(MOVIE_COLLECTIONS, collectionLoader)
                .register(FILMOGRAPHIES, filmographyLoader)
                .build();
    }

    /**
     * Starts one read per key at once (they are independent Queries) and keeps each outcome apart, so
     * a bad cursor on one movie fails that movie's field only.
     */
    private static <K, V> CompletableFuture<List<Try<V>>> eachTogether(List<K> keys,
                                                                      Function<K, CompletableFuture<V>> read) {
        List<CompletableFuture<Try<V>>> started = new ArrayList<>();
        for (K key : keys) {
            CompletableFuture<V> future;
            try {
                future = read.apply(key);
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
