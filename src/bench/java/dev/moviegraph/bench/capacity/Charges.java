package dev.moviegraph.bench.capacity;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What DynamoDB charges a request, partition by partition, by its billing rules: a read 1 unit per
 * 4 KB (half for an eventually consistent one, a Query's items summed before rounding), a write 1 unit
 * per KB of the larger of the item before and after, and the same again for each index the item is in:
 * an index whose key changed is written twice (the old entry deleted, the new one put), in the old
 * entry's partition and the new one's; an item entering or leaving an index once; an index whose entry
 * the write left as it was (its keys and projected attributes unchanged) not at all; an index write by
 * the size of the entry (its projected attributes). A transaction charges each of its items twice.
 */
final class Charges {
    private static final Pattern EQUALS = Pattern.compile("([#\\w.]+)\\s*=\\s*(:\\w+)");

    private final KeySchema schema;

    Charges(KeySchema schema) {
        this.schema = schema;
    }

    /**
     * A write to the item under {@code key} that turned {@code before} into {@code after} (either null
     * for no item). A write that changed nothing (a failed condition, a transaction's condition check,
     * a delete of nothing) charges its base write alone. An index is written only when its entry changed,
     * as DynamoDB writes one: an item entering or leaving it, a key of it that moved (the old entry deleted
     * in its partition, the new one put in its own), or an attribute it projects that changed (any, for
     * {@code ALL}; none besides the keys, for {@code KEYS_ONLY}). Each index write is charged by the size
     * of the index's entry: its projected attributes.
     */
    List<Charge> write(JsonNode key, JsonNode before, JsonNode after, boolean transactional) {
        List<Charge> charges = new ArrayList<>();
        double factor = transactional ? 2 : 1;
        double itemUnits = writeUnits(Math.max(ItemSize.bytes(before), ItemSize.bytes(after)));
        charges.add(new Charge(schema.table(), value(key, schema.partitionKey()), Charge.Kind.WRITE, factor * itemUnits));
        if (AttributeValues.sameItem(before, after)) {
            return charges; // nothing changed: no index is written
        }
        for (KeySchema.IndexKeys index : schema.indexes()) {
            boolean was = inIndex(before, index);
            boolean is = inIndex(after, index);
            String resource = index.global() ? schema.table() + "/index/" + index.name() : schema.table();
            Set<String> projected = schema.projected(index);
            if (was && is && sameKey(before, after, index)) {
                if (projected != null && AttributeValues.sameAttributes(before, after, projected)) {
                    continue; // the entry is as it was: DynamoDB writes no index item
                }
                charges.add(new Charge(resource, value(after, index.partitionKey()), Charge.Kind.WRITE,
                        factor * writeUnits(Math.max(entryBytes(before, projected), entryBytes(after, projected)))));
                continue;
            }
            if (was) {
                charges.add(new Charge(resource, value(before, index.partitionKey()), Charge.Kind.WRITE,
                        factor * writeUnits(entryBytes(before, projected))));
            }
            if (is) {
                charges.add(new Charge(resource, value(after, index.partitionKey()), Charge.Kind.WRITE,
                        factor * writeUnits(entryBytes(after, projected))));
            }
        }
        return charges;
    }

    /** The size of an item's entry in an index projecting {@code projected} (null: every attribute). */
    private static int entryBytes(JsonNode item, Set<String> projected) {
        if (projected == null) {
            return ItemSize.bytes(item);
        }
        com.fasterxml.jackson.databind.node.ObjectNode entry = item.deepCopy();
        entry.retain(projected);
        return ItemSize.bytes(entry);
    }

    /** A GetItem (or one key of a BatchGetItem, or of a TransactGetItems): the item found, or none. */
    List<Charge> get(JsonNode key, JsonNode item, boolean consistent, boolean transactional) {
        double units = readUnits(ItemSize.bytes(item)) * (consistent || transactional ? 1 : 0.5) * (transactional ? 2 : 1);
        return List.of(new Charge(schema.table(), value(key, schema.partitionKey()), Charge.Kind.READ, units));
    }

    /** A Query (one page): the request as sent and the items it read (before any filter). */
    List<Charge> query(JsonNode request, List<JsonNode> items) {
        String indexName = request.path("IndexName").asText(null);
        KeySchema.IndexKeys index = indexName == null ? null : schema.index(indexName);
        String partitionKey = index == null ? schema.partitionKey() : index.partitionKey();
        String resource = index != null && index.global() ? schema.table() + "/index/" + index.name() : schema.table();
        int bytes = items.stream().mapToInt(ItemSize::bytes).sum();
        boolean consistent = request.path("ConsistentRead").asBoolean(false);
        return List.of(new Charge(resource, partitionOf(request, partitionKey), Charge.Kind.READ,
                readUnits(bytes) * (consistent ? 1 : 0.5)));
    }

    /** The table's partition key attribute. */
    String partitionKey() {
        return schema.partitionKey();
    }

    /** The table key of an item (a PutItem's): its partition and sort key attributes. */
    JsonNode keyOf(JsonNode item) {
        com.fasterxml.jackson.databind.node.ObjectNode key = item.deepCopy();
        key.retain(schema.sortKey() == null ? List.of(schema.partitionKey()) : List.of(schema.partitionKey(), schema.sortKey()));
        return key;
    }

    /** The partition key value a Query's key condition names. */
    private static String partitionOf(JsonNode request, String partitionKey) {
        Matcher pair = EQUALS.matcher(request.path("KeyConditionExpression").asText(""));
        while (pair.find()) {
            String name = pair.group(1);
            if (name.startsWith("#")) {
                name = request.path("ExpressionAttributeNames").path(name).asText(name);
            }
            if (name.equals(partitionKey)) {
                return scalar(request.path("ExpressionAttributeValues").path(pair.group(2)));
            }
        }
        throw new IllegalArgumentException("The key condition names no value of " + partitionKey);
    }

    private static boolean inIndex(JsonNode item, KeySchema.IndexKeys index) {
        return present(item) && item.has(index.partitionKey()) && (index.sortKey() == null || item.has(index.sortKey()));
    }

    private static boolean sameKey(JsonNode before, JsonNode after, KeySchema.IndexKeys index) {
        return AttributeValues.same(before.get(index.partitionKey()), after.get(index.partitionKey()))
                && (index.sortKey() == null || AttributeValues.same(before.get(index.sortKey()), after.get(index.sortKey())));
    }

    private static boolean present(JsonNode item) {
        return item != null && !item.isNull() && !item.isMissingNode();
    }

    private static String value(JsonNode item, String attribute) {
        return scalar(item.path(attribute));
    }

    /** The value of a typed scalar ({@code {"S": "x"}} is {@code x}). */
    static String scalar(JsonNode typed) {
        return typed.isObject() && typed.size() == 1 ? typed.elements().next().asText() : typed.asText();
    }

    /** Write units: 1 per KB or part of one, at least 1. */
    static double writeUnits(int bytes) {
        return Math.max(1, (bytes + 1023) / 1024);
    }

    /** Read units of a strongly consistent read: 1 per 4 KB or part of one, at least 1. */
    static double readUnits(int bytes) {
        return Math.max(1, (bytes + 4095) / 4096);
    }
}
