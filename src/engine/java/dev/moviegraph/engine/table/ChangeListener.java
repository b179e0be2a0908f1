package dev.moviegraph.engine.table;

/**
 * Told of every item change while the item is still locked, so what it records (stream records, the
 * journal) is in the order the item changed. {@code byService} marks deletions made by time to live.
 */
public interface ChangeListener {
    void changed(Table table, StoredItem before, StoredItem after, boolean byService);
}
