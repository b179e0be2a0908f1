package dev.moviegraph.engine.api;

import dev.moviegraph.engine.table.StoredItem;
import dev.moviegraph.engine.table.Table;
import dev.moviegraph.engine.value.Value;

/**
 * Where requests are charged against partitions: nothing by default; with partition limits on
 * (capacity/PartitionLimits), past DynamoDB's per-partition ceilings it throws as DynamoDB throttles,
 * before anything is changed.
 */
public interface Throughput {
    Throughput UNLIMITED = new Throughput() {
        @Override
        public void read(Table table, String index, Value partition, double units) {
        }

        @Override
        public void write(Table table, Value partition, StoredItem before, StoredItem after) {
        }
    };

    /** A read of {@code units} from one partition of the table ({@code index} null) or of an index. */
    void read(Table table, String index, Value partition, double units);

    /**
     * A write about to replace {@code before} by {@code after} (either null; the same instance for a
     * transaction's condition check) of the item whose partition key is {@code partition}: it costs the table's
     * partition and each index partition whose entry it puts or removes. Called with the item locked; throwing
     * refuses it.
     */
    void write(Table table, Value partition, StoredItem before, StoredItem after);

    /** A write refused by its condition on {@code current} (null: no item), which DynamoDB charges too. */
    default void conditionFailed(Table table, Value partition, StoredItem current) {
    }
}
