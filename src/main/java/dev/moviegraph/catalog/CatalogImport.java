package dev.moviegraph.catalog;

import java.util.List;
import java.util.Optional;

/** The write port of a bulk import: catalog records in, items out, and the import's checkpoint. */
public interface CatalogImport {
    /** Writes movies, people and credits (any mix), waiting until every one is stored. */
    void write(List<? extends Record> records);

    Optional<ImportCheckpoint> checkpoint(String name);

    void save(ImportCheckpoint checkpoint);

    /** Items written so far by this process. */
    long itemsWritten();
}
