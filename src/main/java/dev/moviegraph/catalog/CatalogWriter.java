package dev.moviegraph.catalog;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The write port. Every write is atomic (one transaction, or a sequence of version-guarded ones when an
 * item has more copies than a transaction holds), keeps the copies other items carry (a credit's movie
 * title and year and person name, a total's movie title) equal to the item they copy, and reports its
 * calls like reads do. Inputs arrive validated ({@link Writes}).
 */
public interface CatalogWriter {

    /** Creates or replaces a movie; its credits and totals get the new title and year. */
    CompletableFuture<Movie> putMovie(Movie movie, CallContext context);

    /** Creates or replaces a person; every credit of the person gets the new name. */
    CompletableFuture<Person> putPerson(Person person, CallContext context);

    /**
     * Credits a person in a movie in a role (or replaces that credit's characters and position); fails
     * with {@link NotFoundException} when either does not exist, checked in the same transaction as the
     * write. A crew credit with no position goes after the movie's other credits of that role.
     */
    CompletableFuture<Credit> credit(MovieId movieId, PersonId personId, Role role, List<String> characters,
                                     Integer position, CallContext context);

    /** Takes a person's credit in a role out of a movie; false when there was none. */
    CompletableFuture<Boolean> uncredit(MovieId movieId, PersonId personId, Role role, CallContext context);

    /** Deletes the movie's whole item collection (movie, credits, totals); false when there was no movie. */
    CompletableFuture<Boolean> deleteMovie(MovieId movieId, CallContext context);

    /** Records one stream, exactly once per stream id; see {@link StreamReceipt}. */
    CompletableFuture<StreamReceipt> recordStream(StreamRecord stream, CallContext context);

    /**
     * Records an award or nomination (or changes whether it was won): the movie and person it names must
     * exist (NOT_FOUND otherwise, checked in the same transaction).
     */
    CompletableFuture<Award> recordAward(Award award, CallContext context);

    /** Removes an award or nomination; false when there was none (its {@code won} does not matter). */
    CompletableFuture<Boolean> removeAward(Award award, CallContext context);

    /**
     * Adds {@code entry} to the counted list {@code part} of the private collection of {@code ownerId}, with
     * its owner's count, in one transaction, on condition that the item {@code mustExist} names exists
     * ({@link NotFoundException} otherwise) and that the entry is new: an entry already there is answered as
     * it is stored and nothing changes (a repeat is idempotent). Answers the entry as stored.
     */
    default CompletableFuture<Record> addEntry(Part part, String ownerId, Record entry, ItemRef<?> mustExist,
                                               CallContext context) {
        throw new UnsupportedOperationException("This store keeps no private lists");
    }

    /**
     * Takes the entry with {@code entry}'s key out of the list {@code part} of {@code ownerId}'s private
     * collection, with its owner's count, in one transaction; false when it was not there.
     */
    default CompletableFuture<Boolean> removeEntry(Part part, String ownerId, Record entry, CallContext context) {
        throw new UnsupportedOperationException("This store keeps no private lists");
    }
}
