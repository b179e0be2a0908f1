package dev.moviegraph.engine.table;

import java.util.Iterator;

/**
 * The rows of one table or one index: items sorted by {@link RowKey#ORDER}. Reads never wait for writes and see
 * each item whole; a range read sees the store as it stood when the read began. Writers of one key are kept
 * apart by the caller ({@link ItemLocks}).
 */
public interface RowStore {
    StoredItem get(RowKey key);

    /** Stores the item; returns the one it replaced, or null. */
    StoredItem put(RowKey key, StoredItem item);

    /** Removes the row; returns the item it held, or null. */
    StoredItem remove(RowKey key);

    /** Stores the item, or removes the row when it is null, for a caller that knows what it replaces. */
    void write(RowKey key, StoredItem item);

    /**
     * The items between two keys (null: unbounded), in key order or reversed, as they stood at the call. The
     * iterator reads lazily, so a Query that stops after a page reads about a page.
     */
    Iterator<StoredItem> items(RowKey low, boolean lowInclusive, RowKey high, boolean highInclusive, boolean descending);

    /** The same range as rows: each item with its key. */
    Iterator<Row> rows(RowKey low, boolean lowInclusive, RowKey high, boolean highInclusive, boolean descending);

    /** A stored row: its key and its item. */
    record Row(RowKey key, StoredItem item) {
    }
}
