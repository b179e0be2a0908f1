package dev.moviegraph.graphql.wiring;

import dev.moviegraph.catalog.CatalogReader;
import dev.moviegraph.catalog.Credit;
import dev.moviegraph.catalog.ItemRef.MovieRef;
import dev.moviegraph.catalog.Movie;
import dev.moviegraph.catalog.Page;
import dev.moviegraph.catalog.Part;
import dev.moviegraph.catalog.Slice;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

import graphql.schema.DataFetchingEnvironment;

/**
 * A movie's first cast page from the copy its movie item carries ({@link Movie#firstCast}). The movie is read
 * by key, through the request's item loader, so the casts of every movie of one level of a query are one
 * BatchGetItem (ten movies of a filmography: one request, not ten Queries), batched with the level's other
 * keys. Only a first page the copy can hold is answered so ({@link #answers}); a later page, a longer one, or
 * a movie whose item has no copy yet (written before copies were kept) is read from its credits as before.
 * The planning run goes through the same code, so it plans the same requests.
 */
final class FirstCastPages {
    private FirstCastPages() {
    }

    /** Whether a cast slice is a first page no longer than the copy. */
    static boolean answers(Slice slice) {
        return slice.page() != null && slice.page().after() == null && slice.page().first() <= Movie.FIRST_CAST;
    }

    /**
     * The page from the movie item's copy, or {@code otherwise} (the credits' Query) when the item has none.
     * The cursors are the ones the credits' Query gives, so a client pages on with {@code after} as before.
     */
    static CompletableFuture<Object> page(DataFetchingEnvironment env, MovieNode node, Slice slice,
                                          Supplier<CompletableFuture<Object>> otherwise) {
        CompletableFuture<Movie> movie = node.movie() != null ? CompletableFuture.completedFuture(node.movie())
                : NodeReads.item(env, new MovieRef(node.id()), Paths.of(env));
        int first = slice.page().first();
        return movie.thenCompose(found -> {
            if (found == null) {
                // No movie item: its collection was deleted with it, so it has no cast either.
                return CompletableFuture.completedFuture(new Page<Credit>(List.of(), false, 0));
            }
            if (!found.copiesFirstCast(first)) {
                return otherwise.get();
            }
            CatalogReader catalog = RequestScope.of(env).catalog();
            List<Page.Entry<Credit>> entries = found.firstCast().subList(0, Math.min(first, found.firstCast().size()))
                    .stream().map(billed -> billed.credit(found))
                    .map(credit -> new Page.Entry<>(() -> catalog.cursor(Part.CAST, credit), credit)).toList();
            return CompletableFuture.completedFuture(new Page<>(entries, found.castCount() > first, found.castCount()));
        });
    }
}
