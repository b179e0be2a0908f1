package dev.moviegraph.engine.table;

import dev.moviegraph.engine.value.Value;

import java.util.Map;

/** A table's or an index's key: the partition key and, when it has one, the sort key, each with its type (S, N or B). */
public record KeySchema(String partition, String partitionType, String sort, String sortType) {

    public boolean hasSort() {
        return sort != null;
    }

    /** Whether {@code name} is one of this schema's key attributes. */
    public boolean isKey(String name) {
        return name.equals(partition) || name.equals(sort);
    }

    /** The item's key values for this schema, or null when it lacks one or has one of another type (sparse indexes). */
    public RowKey keyOf(Map<String, Value> item) {
        Value pk = item.get(partition);
        if (pk == null || !pk.type().equals(partitionType)) {
            return null;
        }
        Value sk = null;
        if (sort != null) {
            sk = item.get(sort);
            if (sk == null || !sk.type().equals(sortType)) {
                return null;
            }
        }
        return RowKey.of(pk, sk);
    }

    /** The key attributes of an item, as a key map. */
    public Map<String, Value> keyAttributes(Map<String, Value> item) {
        Value pk = item.get(partition);
        if (sort == null) {
            return Map.of(partition, pk);
        }
        return Map.of(partition, pk, sort, item.get(sort));
    }
}
