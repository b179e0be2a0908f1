package dev.moviegraph.catalog;

import java.util.List;
import java.util.Optional;
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

    Optional<ImportCheckpoint> checkpoint(String name);

    void save(ImportCheckpoint checkpoint);

    /** Items written so far by this process. */
    long itemsWritten();
}
