package dev.moviegraph.bench.capacity;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Where a table's items fall: the table's partition key, and each index's. A local secondary index
 * shares the table's partition key (its writes land in the table's partition); a global one has its
 * own partitions, and only items that carry its key attributes are in it (a sparse index). Each index
 * also has its projection: which of an item's attributes its entry copies, so which writes it sees.
 */
public record KeySchema(String table, String partitionKey, String sortKey, List<IndexKeys> indexes) {
    public KeySchema {
        indexes = List.copyOf(indexes);
    }

    /** DynamoDB's projection types: what an index entry holds besides the table's and the index's keys. */
    public enum Projection {
        /** The keys alone. */
        KEYS_ONLY,
        /** The keys and the index's {@code NonKeyAttributes}. */
        INCLUDE,
        /** Every attribute of the item. */
        ALL
    }

    /**
     * One index's key attributes ({@code sortKey} is null for an index without one), its projection, and
     * for {@link Projection#INCLUDE} the non-key attributes it copies (empty otherwise).
     */
    public record IndexKeys(String name, String partitionKey, String sortKey, boolean global, Projection projection,
                            Set<String> nonKeyAttributes) {
        public IndexKeys {
            nonKeyAttributes = Set.copyOf(nonKeyAttributes);
        }

        /** An index projecting every attribute (DynamoDB's {@code ALL}). */
        public IndexKeys(String name, String partitionKey, String sortKey, boolean global) {
            this(name, partitionKey, sortKey, global, Projection.ALL, Set.of());
        }
    }

    /**
     * The schema a table's description gives, in DynamoDB's wire format: DescribeTable's {@code Table}
     * object, or a CreateTable request's body (the same fields: {@code KeySchema}, and each index's
     * {@code KeySchema} and {@code Projection}). An index without a {@code Projection} is taken as
     * {@code ALL}, the one that charges every write.
     */
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
        JsonNode projection = index.path("Projection");
        Projection type = Projection.valueOf(projection.path("ProjectionType").asText("ALL").toUpperCase(Locale.ROOT));
        Set<String> nonKey = new LinkedHashSet<>();
        if (type == Projection.INCLUDE) {
            projection.path("NonKeyAttributes").forEach(name -> nonKey.add(name.asText()));
        }
        return new IndexKeys(index.path("IndexName").asText(), key(keys, "HASH"), key(keys, "RANGE"), global, type, nonKey);
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

    /**
     * The attributes an entry of {@code index} holds, or null when it holds every one ({@code ALL}): the
     * table's keys, the index's keys and, for {@code INCLUDE}, its non-key attributes.
     */
    Set<String> projected(IndexKeys index) {
        if (index.projection() == Projection.ALL) {
            return null;
        }
        Set<String> names = new LinkedHashSet<>();
        names.add(partitionKey);
        if (sortKey != null) {
            names.add(sortKey);
        }
        names.add(index.partitionKey());
        if (index.sortKey() != null) {
            names.add(index.sortKey());
        }
        names.addAll(index.nonKeyAttributes());
        return names;
    }
}
