package dev.moviegraph.engine.capacity;

import dev.moviegraph.engine.table.Capacity;
import dev.moviegraph.engine.table.IndexSpec;
import dev.moviegraph.engine.table.RowKey;
import dev.moviegraph.engine.table.StoredItem;
import dev.moviegraph.engine.table.TableSpec;
import dev.moviegraph.engine.value.Sizes;
import dev.moviegraph.engine.value.Value;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What a write costs, partition by partition, by the rules the engine's tables keep their indexes by
 * ({@code Table.updateIndexes}): the table's partition 1 unit per KB of the larger of the item before and
 * after (at least 1), and each index whose entry the write touches, by the size of that entry (its projected
 * attributes): an entry put or removed once in its partition; an entry whose index key moved twice, the old
 * one removed in its partition and the new one put in its own; an entry under the same key rewritten once
 * when what it holds changed, not at all when it did not. A local index's entries are charged to the table's
 * partition (they share its partition key value). {@code factor} multiplies everything: 2 in a transaction.
 */
final class WriteCharges {
    private WriteCharges() {
    }

    /**
     * The charges of replacing {@code before} by {@code after} (either null) under the table partition key value
     * {@code partition}. The same instance on both sides (a condition check, a write refused by its condition)
     * charges the table's partition alone.
     */
    static List<Charge> of(TableSpec spec, Value partition, StoredItem before, StoredItem after, double factor) {
        List<Charge> charges = new ArrayList<>(2 + spec.indexes().size());
        long larger = Math.max(size(before), size(after));
        Charge.Partition tablePartition = new Charge.Partition(spec.name(), null, partition);
        charges.add(new Charge(tablePartition, Charge.Kind.WRITE, factor * Capacity.write(larger)));
        if (before == after) {
            return charges;
        }
        for (IndexSpec index : spec.indexes()) {
            RowKey oldKey = before == null ? null : index.key().keyOf(before.attributes());
            RowKey newKey = after == null ? null : index.key().keyOf(after.attributes());
            if (oldKey == null && newKey == null) {
                continue; // in neither image: a sparse index the item is not in
            }
            Map<String, Value> oldEntry = oldKey == null ? null : entry(spec, index, before);
            Map<String, Value> newEntry = newKey == null ? null : entry(spec, index, after);
            if (oldKey != null && oldKey.equals(newKey)) {
                if (!newEntry.equals(oldEntry)) {
                    charges.add(new Charge(partition(spec, index, newKey), Charge.Kind.WRITE,
                            factor * Capacity.write(Math.max(entrySize(index, before, oldEntry),
                                    entrySize(index, after, newEntry)))));
                }
                continue;
            }
            if (oldKey != null) {
                charges.add(new Charge(partition(spec, index, oldKey), Charge.Kind.WRITE,
                        factor * Capacity.write(entrySize(index, before, oldEntry))));
            }
            if (newKey != null) {
                charges.add(new Charge(partition(spec, index, newKey), Charge.Kind.WRITE,
                        factor * Capacity.write(entrySize(index, after, newEntry))));
            }
        }
        return charges;
    }

    /** The table's partition key value of a write, from whichever image there is; null when there is none. */
    static Value partitionOf(TableSpec spec, StoredItem before, StoredItem after) {
        StoredItem any = after != null ? after : before;
        return any == null ? null : any.attributes().get(spec.key().partition());
    }

    private static Charge.Partition partition(TableSpec spec, IndexSpec index, RowKey key) {
        return new Charge.Partition(spec.name(), index.global() ? index.name() : null, key.partition());
    }

    private static Map<String, Value> entry(TableSpec spec, IndexSpec index, StoredItem item) {
        return index.projection().project(item.attributes(), spec.key(), index.key());
    }

    private static long entrySize(IndexSpec index, StoredItem item, Map<String, Value> entry) {
        return index.projection().type().equals("ALL") ? item.size() : Sizes.item(entry);
    }

    private static long size(StoredItem item) {
        return item == null ? 0 : item.size();
    }
}
