package dev.moviegraph.engine.expr;

import dev.moviegraph.engine.error.ApiException;
import dev.moviegraph.engine.value.Value;

import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Placeholders of one request: names ({@code #n}) and values ({@code :v}), recording which were used across
 * all of its expressions. DynamoDB refuses a request that defines a placeholder none of its expressions use,
 * so one object is shared by every expression parsed for a request, and {@link #requireAllUsed()} is asked last.
 * An expression marks its placeholders used only once it parsed without error.
 */
public final class Placeholders {
    private final Map<String, String> names;
    private final Map<String, Value> values;
    private final Set<String> usedNames = new HashSet<>();
    private final Set<String> usedValues = new HashSet<>();

    public Placeholders(Map<String, String> names, Map<String, Value> values) {
        // Copies keep the request's order, which is the order DynamoDB lists unused keys in.
        this.names = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(names, "names")));
        this.values = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(values, "values")));
    }

    /** No placeholders at all. */
    public static Placeholders none() {
        return new Placeholders(Map.of(), Map.of());
    }

    /**
     * Throws {@link ApiException#validation} when a name or value given was never used by any expression parsed
     * with this object (DynamoDB's message, keys listed; names are checked before values).
     */
    public void requireAllUsed() {
        String unusedNames = unused(names.keySet(), usedNames);
        if (unusedNames != null) {
            throw ApiException.validation("Value provided in ExpressionAttributeNames unused in expressions: keys: {"
                    + unusedNames + "}");
        }
        String unusedValues = unused(values.keySet(), usedValues);
        if (unusedValues != null) {
            throw ApiException.validation("Value provided in ExpressionAttributeValues unused in expressions: keys: {"
                    + unusedValues + "}");
        }
    }

    private static String unused(Set<String> given, Set<String> used) {
        StringBuilder keys = new StringBuilder();
        for (String key : given) {
            if (!used.contains(key)) {
                keys.append(keys.isEmpty() ? "" : ", ").append(key);
            }
        }
        return keys.isEmpty() ? null : keys.toString();
    }

    /** The attribute name behind {@code #ref}, or null when the request does not define it. */
    String name(String ref) {
        return names.get(ref);
    }

    /** The value behind {@code :ref}, or null when the request does not define it. */
    Value value(String ref) {
        return values.get(ref);
    }

    void markUsed(Collection<String> nameRefs, Collection<String> valueRefs) {
        usedNames.addAll(nameRefs);
        usedValues.addAll(valueRefs);
    }
}
