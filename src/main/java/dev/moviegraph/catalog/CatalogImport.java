package dev.moviegraph.catalog;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/** The write port of a bulk import: catalog records in, items out, and the import's checkpoint. */
public interface CatalogImport {
    /** Writes movies, people and credits (any mix), waiting until every one is stored. */
    void write(List<? extends Record> records);

    /**
     * Starts writing the records and returns at once (or when the records are encoded), the future
     * completing once every one is stored; this default writes them before returning.
     */
    default CompletableFuture<Void> writeAsync(List<? extends Record> records) {
        try {
            write(records);
            return CompletableFuture.completedFuture(null);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /**
     * How many items {@code record} becomes (this default: one): an import fills its chunks, and so what a
     * kill can lose, by items, not records.
     */
    default int itemsOf(Record record) {
        return 1;
    }

    Optional<ImportCheckpoint> checkpoint(String name);

    void save(ImportCheckpoint checkpoint);

    /** A credit of a movie, without the movie: who, in which role. */
    record CreditKey(PersonId personId, Role role) {
    }

    /**
     * After a re-import of {@code movie}: deletes the credits the new release no longer has (any not in
     * {@code credits}), the search entries of an earlier title, and the other titles it no longer has (any
     * whose ordering is not in {@code titles}, with their search entries; {@code null} when the import read
     * no title.akas, which leaves them), and makes the movie's monthly totals copy {@code title}, leaving their
     * counts as they are. Returns the number of items it changed.
     */
    int reconcile(MovieId movie, Set<CreditKey> credits, String title, Set<Integer> titles);

    /**
     * After a re-import of {@code person}: deletes the search entries of a name the person no longer has
     * (a rename's old words). Returns the number of items it deleted.
     */
    int reconcilePerson(PersonId person, String name);

    /** Items written so far by this process. */
    long itemsWritten();
}
