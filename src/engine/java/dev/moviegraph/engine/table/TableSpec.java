package dev.moviegraph.engine.table;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A table as declared and as it stands: key, attribute types, billing, indexes, stream and time to live.
 * Immutable; a change makes a new one ({@link Table#spec()} is swapped whole).
 *
 * @param streamViewType NEW_IMAGE, OLD_IMAGE, NEW_AND_OLD_IMAGES or KEYS_ONLY while the stream is on; null off
 * @param streamLabel    the label of the latest stream (kept after the stream is turned off, as DynamoDB does)
 * @param ttlAttribute   the attribute time to live reads, null when it is off
 * @param tags           the table's tags (TagResource, CreateTable's Tags), by key in key order; empty when none
 */
public record TableSpec(String name, String tableId, Instant created, KeySchema key, Map<String, String> attributeTypes,
                        String billingMode, long readUnits, long writeUnits, List<IndexSpec> indexes,
                        String streamViewType, String streamLabel, String ttlAttribute, String status,
                        Map<String, String> tags) {
    /** The account in every ARN the engine makes (one account: the engine's). */
    public static final String ACCOUNT = "000000000000";

    public TableSpec {
        indexes = List.copyOf(indexes);
        attributeTypes = Map.copyOf(attributeTypes);
        tags = Collections.unmodifiableMap(new TreeMap<>(tags));
    }

    /** A table without tags. */
    public TableSpec(String name, String tableId, Instant created, KeySchema key, Map<String, String> attributeTypes,
                     String billingMode, long readUnits, long writeUnits, List<IndexSpec> indexes,
                     String streamViewType, String streamLabel, String ttlAttribute, String status) {
        this(name, tableId, created, key, attributeTypes, billingMode, readUnits, writeUnits, indexes, streamViewType,
                streamLabel, ttlAttribute, status, Map.of());
    }

    public Optional<IndexSpec> index(String indexName) {
        return indexes.stream().filter(index -> index.name().equals(indexName)).findFirst();
    }

    public TableSpec withIndexes(List<IndexSpec> newIndexes) {
        return new TableSpec(name, tableId, created, key, attributeTypes, billingMode, readUnits, writeUnits,
                newIndexes, streamViewType, streamLabel, ttlAttribute, status, tags);
    }

    public TableSpec withIndex(IndexSpec replaced) {
        List<IndexSpec> list = new ArrayList<>();
        for (IndexSpec index : indexes) {
            list.add(index.name().equals(replaced.name()) ? replaced : index);
        }
        return withIndexes(list);
    }

    public TableSpec withAttributeTypes(Map<String, String> types) {
        return new TableSpec(name, tableId, created, key, types, billingMode, readUnits, writeUnits, indexes,
                streamViewType, streamLabel, ttlAttribute, status, tags);
    }

    public TableSpec withStream(String viewType, String label) {
        return new TableSpec(name, tableId, created, key, attributeTypes, billingMode, readUnits, writeUnits, indexes,
                viewType, label, ttlAttribute, status, tags);
    }

    public TableSpec withTtl(String attribute) {
        return new TableSpec(name, tableId, created, key, attributeTypes, billingMode, readUnits, writeUnits, indexes,
                streamViewType, streamLabel, attribute, status, tags);
    }

    public TableSpec withBilling(String mode, long reads, long writes) {
        return new TableSpec(name, tableId, created, key, attributeTypes, mode, reads, writes, indexes,
                streamViewType, streamLabel, ttlAttribute, status, tags);
    }

    public TableSpec withTags(Map<String, String> newTags) {
        return new TableSpec(name, tableId, created, key, attributeTypes, billingMode, readUnits, writeUnits, indexes,
                streamViewType, streamLabel, ttlAttribute, status, newTags);
    }

    public String arn(String region) {
        return "arn:aws:dynamodb:" + region + ":" + ACCOUNT + ":table/" + name;
    }
}
