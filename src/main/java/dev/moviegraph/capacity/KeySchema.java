package dev.moviegraph.capacity;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;

/**
 * Where a table's items fall: the table's partition key, and each index's. A local secondary index
 * shares the table's partition key (its writes land in the table's partition); a global one has its
 * own partitions, and only items that carry its key attributes are in it (a sparse index).
 */
public record KeySchema(String table, String partitionKey, String sortKey, List<IndexKeys> indexes) {
    public KeySchema {
        indexes = List.copyOf(indexes);
    }

    /** One index's key attributes; {@code sortKey} is null for an index without one. */
    public record IndexKeys(String name, String partitionKey, String sortKey, boolean global) {
    }

    /** The schema DescribeTable's {@code Table} object describes (DynamoDB's wire format). */
    public static KeySchema of(JsonNode table) {
        List<IndexKeys> indexes = new ArrayList<>();
        for (JsonNode index : table.path("GlobalSecondaryIndexes")) {
            indexes.add(index(index, true));
        }
        for (JsonNode index : table.path("LocalSecondaryIndexes")) {
            indexes.add(index(index, false));
        }
        JsonNode keys = table.path("KeySchema");
        return new KeySchema(table.path("TableName").asText(), key(keys, "HASH"), key(keys, "RANGE"), indexes);
    }

    private static IndexKeys index(JsonNode index, boolean global) {
        JsonNode keys = index.path("KeySchema");
        return new IndexKeys(index.path("IndexName").asText(), key(keys, "HASH"), key(keys, "RANGE"), global);
    }

    private static String key(JsonNode keys, String type) {
        for (JsonNode key : keys) {
            if (type.equals(key.path("KeyType").asText())) {
                return key.path("AttributeName").asText();
            }
        }
        return null;
    }

    /** The index of that name, or null. */
    IndexKeys index(String name) {
        return indexes.stream().filter(index -> index.name().equals(name)).findFirst().orElse(null);
    }
}
