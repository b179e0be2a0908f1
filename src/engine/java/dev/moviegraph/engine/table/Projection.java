package dev.moviegraph.engine.table;

import dev.moviegraph.engine.value.Value;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What an index holds of an item: ALL, KEYS_ONLY (the table's and the index's keys) or INCLUDE (those and the listed attributes). */
public record Projection(String type, List<String> nonKeyAttributes) {
    public static final Projection ALL = new Projection("ALL", List.of());

    public Projection {
        nonKeyAttributes = nonKeyAttributes == null ? List.of() : List.copyOf(nonKeyAttributes);
    }

    /** The index entry of {@code item}. */
    public Map<String, Value> project(Map<String, Value> item, KeySchema table, KeySchema index) {
        if (type.equals("ALL")) {
            return item;
        }
        Map<String, Value> entry = new LinkedHashMap<>();
        copy(item, entry, table.partition());
        copy(item, entry, table.sort());
        copy(item, entry, index.partition());
        copy(item, entry, index.sort());
        if (type.equals("INCLUDE")) {
            for (String name : nonKeyAttributes) {
                copy(item, entry, name);
            }
        }
        return entry;
    }

    /** Whether the index holds attribute {@code name} of its items. */
    public boolean holds(String name, KeySchema table, KeySchema index) {
        return type.equals("ALL") || table.isKey(name) || index.isKey(name)
                || type.equals("INCLUDE") && nonKeyAttributes.contains(name);
    }

    private static void copy(Map<String, Value> from, Map<String, Value> to, String name) {
        if (name != null) {
            Value value = from.get(name);
            if (value != null) {
                to.put(name, value);
            }
        }
    }
}
