package dev.moviegraph.engine.table;

import dev.moviegraph.engine.value.Sizes;
import dev.moviegraph.engine.value.Value;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/** An item as stored: its attributes, never changed after it is stored, and its size in bytes as DynamoDB counts it. */
public record StoredItem(Map<String, Value> attributes, long size) {

    public static StoredItem of(Map<String, Value> attributes) {
        Map<String, Value> frozen = Collections.unmodifiableMap(new LinkedHashMap<>(attributes));
        return new StoredItem(frozen, Sizes.item(frozen));
    }
}
