package dev.moviegraph.engine.api;

import dev.moviegraph.engine.error.ApiException;
import dev.moviegraph.engine.table.IndexSpec;
import dev.moviegraph.engine.table.KeySchema;
import dev.moviegraph.engine.table.RowKey;
import dev.moviegraph.engine.table.StoredItem;
import dev.moviegraph.engine.table.TableSpec;
import dev.moviegraph.engine.value.Sizes;
import dev.moviegraph.engine.value.Value;

import java.util.Map;

/** DynamoDB's checks of keys and items, with its messages. */
final class Validation {
    static final long MAX_ITEM_BYTES = 400 * 1024;
    static final long MAX_PARTITION_KEY_BYTES = 2048;
    static final long MAX_SORT_KEY_BYTES = 1024;

    private Validation() {
    }

    /** A Key parameter: exactly the table's key attributes, of their types. */
    static RowKey key(TableSpec spec, Map<String, Value> key) {
        if (key == null) {
            throw ApiException.validation("1 validation error detected: Value null at 'key' failed to satisfy"
                    + " constraint: Member must not be null");
        }
        KeySchema schema = spec.key();
        int expected = schema.hasSort() ? 2 : 1;
        RowKey row = schema.keyOf(key);
        if (key.size() != expected || row == null) {
            throw ApiException.validation("The provided key element does not match the schema");
        }
        checkKeyValues(schema, key);
        return row;
    }

    /** An item to store: its key present and typed, index keys typed, sizes within DynamoDB's limits. */
    static RowKey item(TableSpec spec, Map<String, Value> item) {
        if (item == null) {
            throw ApiException.validation("1 validation error detected: Value null at 'item' failed to satisfy"
                    + " constraint: Member must not be null");
        }
        KeySchema schema = spec.key();
        keyAttribute(item, schema.partition(), schema.partitionType());
        if (schema.hasSort()) {
            keyAttribute(item, schema.sort(), schema.sortType());
        }
        checkKeyValues(schema, item);
        for (IndexSpec index : spec.indexes()) {
            indexKey(index, item, index.key().partition(), index.key().partitionType());
            if (index.key().hasSort()) {
                indexKey(index, item, index.key().sort(), index.key().sortType());
            }
        }
        if (Sizes.item(item) > MAX_ITEM_BYTES) {
            throw ApiException.validation("Item size has exceeded the maximum allowed size");
        }
        return schema.keyOf(item);
    }

    /** The same checks on the result of an update (the key cannot change; the rest can break limits). */
    static StoredItem updated(TableSpec spec, Map<String, Value> item) {
        for (IndexSpec index : spec.indexes()) {
            indexKey(index, item, index.key().partition(), index.key().partitionType());
            if (index.key().hasSort()) {
                indexKey(index, item, index.key().sort(), index.key().sortType());
            }
        }
        StoredItem stored = StoredItem.of(item);
        if (stored.size() > MAX_ITEM_BYTES) {
            throw ApiException.validation("Item size to update has exceeded the maximum allowed size");
        }
        return stored;
    }

    private static void keyAttribute(Map<String, Value> item, String name, String type) {
        Value value = item.get(name);
        if (value == null) {
            throw ApiException.validation("One or more parameter values were invalid: Missing the key " + name
                    + " in the item");
        }
        if (!value.type().equals(type)) {
            throw ApiException.validation("One or more parameter values were invalid: Type mismatch for key " + name
                    + " expected: " + type + " actual: " + value.type());
        }
    }

    private static void indexKey(IndexSpec index, Map<String, Value> item, String name, String type) {
        Value value = item.get(name);
        if (value == null) {
            return;
        }
        if (!value.type().equals(type)) {
            throw ApiException.validation("One or more parameter values were invalid: Type mismatch for Index Key "
                    + name + " Expected: " + type + " Actual: " + value.type() + " IndexName: " + index.name());
        }
        if (isEmpty(value)) {
            throw ApiException.validation("One or more parameter values are not valid. A value specified for a"
                    + " secondary index key is not supported. The AttributeValue for a key attribute cannot contain an"
                    + " empty string value. IndexName: " + index.name() + ", IndexKey: " + name);
        }
    }

    private static void checkKeyValues(KeySchema schema, Map<String, Value> item) {
        Value pk = item.get(schema.partition());
        if (isEmpty(pk)) {
            throw ApiException.validation("One or more parameter values are not valid. The AttributeValue for a key"
                    + " attribute cannot contain an empty " + (pk instanceof Value.S ? "string" : "binary")
                    + " value. Key: " + schema.partition());
        }
        if (Sizes.value(pk) > MAX_PARTITION_KEY_BYTES) {
            throw ApiException.validation("One or more parameter values were invalid: Size of hashkey has exceeded"
                    + " the maximum size limit of2048 bytes");
        }
        if (schema.hasSort()) {
            Value sk = item.get(schema.sort());
            if (isEmpty(sk)) {
                throw ApiException.validation("One or more parameter values are not valid. The AttributeValue for a"
                        + " key attribute cannot contain an empty " + (sk instanceof Value.S ? "string" : "binary")
                        + " value. Key: " + schema.sort());
            }
            if (Sizes.value(sk) > MAX_SORT_KEY_BYTES) {
                throw ApiException.validation("One or more parameter values were invalid: Aggregated size of all"
                        + " range keys has exceeded the size limit of 1024 bytes");
            }
        }
    }

    private static boolean isEmpty(Value value) {
        return value instanceof Value.S s && s.value().isEmpty() || value instanceof Value.B b && b.value().length() == 0;
    }
}
