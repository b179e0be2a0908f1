package dev.moviegraph.engine.table;

import java.util.Iterator;

/**
 * A range of a {@link RowStore} in a direction: what a Query or a Scan walks. Narrowed as a
 * {@link java.util.NavigableMap}'s views are ({@link #subMap}, {@link #tailMap}, {@link #descendingMap}),
 * including their refusal ({@link IllegalArgumentException}) of a start outside the range.
 */
public final class Rows implements Iterable<StoredItem> {
    private final RowStore store;
    private final RowKey low;
    private final boolean lowInclusive;
    private final RowKey high;
    private final boolean highInclusive;
    private final boolean descending;

    private Rows(RowStore store, RowKey low, boolean lowInclusive, RowKey high, boolean highInclusive,
                 boolean descending) {
        this.store = store;
        this.low = low;
        this.lowInclusive = lowInclusive;
        this.high = high;
        this.highInclusive = highInclusive;
        this.descending = descending;
    }

    /** Every row of the store, in key order. */
    public static Rows all(RowStore store) {
        return new Rows(store, null, true, null, true, false);
    }

    public StoredItem get(RowKey key) {
        return inRange(key) ? store.get(key) : null;
    }

    /** The rows between two keys (given in key order, whatever the direction). */
    public Rows subMap(RowKey from, boolean fromInclusive, RowKey to, boolean toInclusive) {
        if (descending) {
            // as a descending map's subMap, from is the higher key
            return narrow(to, toInclusive, from, fromInclusive);
        }
        return narrow(from, fromInclusive, to, toInclusive);
    }

    /** The rows after {@code from} in this range's direction. */
    public Rows tailMap(RowKey from, boolean inclusive) {
        if (descending) {
            return narrow(low, lowInclusive, from, inclusive);
        }
        return narrow(from, inclusive, high, highInclusive);
    }

    public Rows descendingMap() {
        return new Rows(store, low, lowInclusive, high, highInclusive, !descending);
    }

    @Override
    public Iterator<StoredItem> iterator() {
        return store.items(low, lowInclusive, high, highInclusive, descending);
    }

    private Rows narrow(RowKey newLow, boolean newLowInclusive, RowKey newHigh, boolean newHighInclusive) {
        if (newLow != null && newLow != low && !inRange(newLow) || newHigh != null && newHigh != high && !inRange(newHigh)) {
            throw new IllegalArgumentException("key out of range");
        }
        return new Rows(store, newLow, newLowInclusive, newHigh, newHighInclusive, descending);
    }

    private boolean inRange(RowKey key) {
        if (low != null) {
            int c = RowKey.ORDER.compare(key, low);
            if (c < 0 || c == 0 && !lowInclusive) {
                return false;
            }
        }
        if (high != null) {
            int c = RowKey.ORDER.compare(key, high);
            return c < 0 || c == 0 && highInclusive;
        }
        return true;
    }
}
