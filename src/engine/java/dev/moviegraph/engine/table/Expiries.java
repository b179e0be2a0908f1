package dev.moviegraph.engine.table;

import dev.moviegraph.engine.value.Ordering;
import dev.moviegraph.engine.value.Value;

import java.util.Iterator;
import java.util.Map;

/**
 * A table's items by the time they expire, for time to live: one row per item whose time to live attribute is a
 * number, in one partition sorted by that number, then by the item's key. The sweep reads the rows due and
 * nothing else, where reading every item of a table on disk every sweep would read the whole file each time.
 * Kept by the table's writers under the item's lock; a row can outlive its item's time (a write it raced with
 * while time to live was being turned on), which the sweep finds stale against the item and removes.
 */
final class Expiries {
    /** The one partition: every row sorts by its time alone. */
    private static final Value PARTITION = new Value.S("");
    private static final StoredItem MARK = new StoredItem(Map.of(), 0);

    private final RowStore rows;

    Expiries(RowStore rows) {
        this.rows = rows;
    }

    /** The store's name beside the table's: no index is named with a '#'. */
    static String storeName(String tableStore) {
        return tableStore + "/#expiries";
    }

    /** After a write of {@code key}: its row moves from the old item's time to the new one's. */
    void update(String attribute, RowKey key, StoredItem before, StoredItem after) {
        Value was = before == null ? null : time(before, attribute);
        Value now = after == null ? null : time(after, attribute);
        boolean same = was != null && now != null && Ordering.compareKeys(was, now) == 0;
        if (was != null && !same) {
            rows.remove(row(was, key));
        }
        if (now != null && !same) {
            rows.put(row(now, key), MARK);
        }
    }

    /** Adds the row of an item already there (time to live turned on), under the item's lock. */
    void add(String attribute, RowKey key, StoredItem item) {
        Value time = time(item, attribute);
        if (time != null) {
            rows.put(row(time, key), MARK);
        }
    }

    /** The rows whose time is in [{@code from}, {@code before}): each row's key gives its time and its item's key. */
    Iterator<RowStore.Row> due(Value from, Value before) {
        return rows.rows(RowKey.at(PARTITION, from, false), true, RowKey.at(PARTITION, before, false), false, false);
    }

    /** After the sweep kept {@code item} (null: gone): removes the row unless it still holds the item's time. */
    void forgetIfStale(String attribute, RowKey row, StoredItem item) {
        Value time = item == null ? null : time(item, attribute);
        if (time == null || Ordering.compareKeys(time, row.sort()) != 0) {
            rows.remove(row);
        }
    }

    /** The item's time to live, when the attribute is a number (DynamoDB ignores any other type). */
    static Value time(StoredItem item, String attribute) {
        Value value = item.attributes().get(attribute);
        return value instanceof Value.N ? value : null;
    }

    private static RowKey row(Value time, RowKey key) {
        return RowKey.of(PARTITION, time).inIndex(key);
    }
}
