package dev.moviegraph.engine.table;

import dev.moviegraph.engine.value.Bytes;
import dev.moviegraph.engine.value.Ordering;
import dev.moviegraph.engine.value.Value;

import java.util.Comparator;

/**
 * Where a row sits in a sorted store: a stable hash of the partition key first (so partitions spread over
 * the key space as DynamoDB's do, which is what parallel Scan segments split), then the partition key, the
 * sort key, and, in an index whose keys are not unique, the table's key of the item.
 */
public record RowKey(int hash, Value partition, Value sort, Value tablePartition, Value tableSort) {
    public static final Comparator<RowKey> ORDER = RowKey::compare;

    public static RowKey of(Value partition, Value sort) {
        return new RowKey(hashOf(partition), partition, sort, null, null);
    }

    /** The same key extended by the item's table key, as rows of an index are. */
    public RowKey inIndex(RowKey tableKey) {
        return new RowKey(hash, partition, sort, tableKey.partition, tableKey.sort);
    }

    /** The table key of an index row. */
    public RowKey tableKey() {
        return RowKey.of(tablePartition, tableSort);
    }

    /** The lowest and highest possible rows of a partition, for range scans. */
    public static RowKey partitionStart(Value partition) {
        return new RowKey(hashOf(partition), partition, Bound.LOW, null, null);
    }

    public static RowKey partitionEnd(Value partition) {
        return new RowKey(hashOf(partition), partition, Bound.HIGH, null, null);
    }

    /** The first position of a hash (parallel Scan segments start there). */
    public static RowKey hashStart(int hash) {
        return new RowKey(hash, Bound.LOW, null, null, null);
    }

    /** A position just below or above a sort key value in a partition (inclusive bounds of range queries). */
    public static RowKey at(Value partition, Value sort, boolean high) {
        return new RowKey(hashOf(partition), partition, sort, high ? Bound.HIGH : Bound.LOW, null);
    }

    private static int compare(RowKey a, RowKey b) {
        int c = Integer.compareUnsigned(a.hash, b.hash);
        if (c != 0) {
            return c;
        }
        c = compareNullable(a.partition, b.partition);
        if (c != 0) {
            return c;
        }
        c = compareNullable(a.sort, b.sort);
        if (c != 0) {
            return c;
        }
        c = compareNullable(a.tablePartition, b.tablePartition);
        if (c != 0) {
            return c;
        }
        return compareNullable(a.tableSort, b.tableSort);
    }

    private static int compareNullable(Value a, Value b) {
        if (a == b) {
            return 0;
        }
        if (a == null) {
            return b == Bound.LOW ? 1 : -1;
        }
        if (b == null) {
            return a == Bound.LOW ? -1 : 1;
        }
        if (a == Bound.LOW || b == Bound.HIGH) {
            return -1;
        }
        if (a == Bound.HIGH || b == Bound.LOW) {
            return 1;
        }
        return Ordering.compareKeys(a, b);
    }

    /** A stable hash of a partition key value (the same across restarts and machines). */
    public static int hashOf(Value value) {
        int h;
        if (value instanceof Value.S s) {
            h = s.value().hashCode();
        } else if (value instanceof Value.N n) {
            h = n.text().hashCode() * 31 + 7;
        } else if (value instanceof Value.B b) {
            h = b.value().hashCode() * 31 + 11;
        } else {
            h = value.hashCode();
        }
        // murmur3's finalizer: spreads similar keys over the whole range
        h ^= h >>> 16;
        h *= 0x85ebca6b;
        h ^= h >>> 13;
        h *= 0xc2b2ae35;
        h ^= h >>> 16;
        return h;
    }

    /** Sentinels below and above every real value. */
    static final class Bound {
        static final Value LOW = new Value.B(Bytes.copyOf(new byte[0]));
        static final Value HIGH = new Value.B(Bytes.copyOf(new byte[] {(byte) 0xff, (byte) 0xff}));

        private Bound() {
        }
    }
}
