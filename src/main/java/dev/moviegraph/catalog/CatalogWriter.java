package dev.moviegraph.catalog;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The write port. Every write is atomic (one transaction, or a sequence of version-guarded ones when an
 * item has more copies than a transaction holds), keeps the copies other items carry (a cast item's
 * movie title and actor name, a total's movie title) equal to the item they copy, and reports its calls
 * like reads do. Inputs arrive validated ({@link Writes}).
 */
public interface CatalogWriter {

    /** Creates or replaces a movie; its cast items and totals get the new title and year. */
    CompletableFuture<Movie> putMovie(Movie movie, CallContext context);

    /** Creates or replaces an actor; every cast item of the actor gets the new name. */
    CompletableFuture<Actor> putActor(Actor actor, CallContext context);

    /**
     * Puts an actor in a movie's cast (or replaces their entry); fails with {@link NotFoundException}
     * when either does not exist, checked in the same transaction as the write.
     */
    CompletableFuture<CastMember> castActor(MovieId movieId, ActorId actorId, List<String> characters, Integer billing,
                                            CallContext context);

    /** Takes an actor out of a movie's cast; false when they were not in it. */
    CompletableFuture<Boolean> uncastActor(MovieId movieId, ActorId actorId, CallContext context);

    /** Deletes the movie's whole item collection (movie, cast, totals); false when there was no movie. */
    CompletableFuture<Boolean> deleteMovie(MovieId movieId, CallContext context);

    /** Records one stream, exactly once per stream id; see {@link StreamReceipt}. */
    CompletableFuture<StreamReceipt> recordStream(StreamRecord stream, CallContext context);
}
