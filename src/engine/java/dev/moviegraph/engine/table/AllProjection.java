package dev.moviegraph.engine.table;

import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * The rows of an index that projects ALL attributes, read through to the table. Such an index keeps, under each
 * row key (which holds the item's table key), only the item's size (the entry {@link Table} writes): the item
 * itself is the table's, read when the index is, so an item in three such indexes is stored once rather than
 * four times. An entry whose item has since moved to another index key, or gone, is passed over, as it would
 * be once the write that moved it is done.
 */
final class AllProjection implements RowStore {
    private final RowStore entries;
    private final RowStore table;
    private final KeySchema indexKey;

    AllProjection(RowStore entries, RowStore table, KeySchema indexKey) {
        this.entries = entries;
        this.table = table;
        this.indexKey = indexKey;
    }

    @Override
    public StoredItem get(RowKey key) {
        return entries.get(key) == null ? null : item(key);
    }

    @Override
    public StoredItem put(RowKey key, StoredItem item) {
        return entries.put(key, item);
    }

    @Override
    public StoredItem remove(RowKey key) {
        return entries.remove(key);
    }

    @Override
    public void write(RowKey key, StoredItem item) {
        entries.write(key, item);
    }

    @Override
    public Iterator<StoredItem> items(RowKey low, boolean lowInclusive, RowKey high, boolean highInclusive,
                                      boolean descending) {
        Iterator<Row> rows = rows(low, lowInclusive, high, highInclusive, descending);
        return new Iterator<>() {
            @Override
            public boolean hasNext() {
                return rows.hasNext();
            }

            @Override
            public StoredItem next() {
                return rows.next().item();
            }
        };
    }

    @Override
    public Iterator<Row> rows(RowKey low, boolean lowInclusive, RowKey high, boolean highInclusive,
                              boolean descending) {
        Iterator<Row> found = entries.rows(low, lowInclusive, high, highInclusive, descending);
        return new Iterator<>() {
            private Row next = advance();

            private Row advance() {
                while (found.hasNext()) {
                    RowKey key = found.next().key();
                    StoredItem item = item(key);
                    if (item != null) {
                        return new Row(key, item);
                    }
                }
                return null;
            }

            @Override
            public boolean hasNext() {
                return next != null;
            }

            @Override
            public Row next() {
                if (next == null) {
                    throw new NoSuchElementException();
                }
                Row row = next;
                next = advance();
                return row;
            }
        };
    }

    /** The table's item of an index row, or null when it is gone or no longer under the row's index key. */
    private StoredItem item(RowKey indexRow) {
        StoredItem item = table.get(indexRow.tableKey());
        if (item == null) {
            return null;
        }
        RowKey now = indexKey.keyOf(item.attributes());
        return now != null && java.util.Objects.equals(now.partition(), indexRow.partition())
                && java.util.Objects.equals(now.sort(), indexRow.sort()) ? item : null;
    }
}
