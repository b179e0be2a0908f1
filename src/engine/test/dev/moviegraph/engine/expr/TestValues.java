package dev.moviegraph.engine.expr;

import dev.moviegraph.engine.error.ApiException;
import dev.moviegraph.engine.value.Bytes;
import dev.moviegraph.engine.value.Value;

import org.junit.jupiter.api.function.Executable;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertThrows;

/** Short ways to write values, items and placeholders in tests. */
final class TestValues {
    private TestValues() {
    }

    static Value s(String text) {
        return new Value.S(text);
    }

    static Value n(String text) {
        return Value.n(text);
    }

    static Value b(String text) {
        return new Value.B(Bytes.copyOf(text.getBytes(StandardCharsets.UTF_8)));
    }

    static Value bool(boolean value) {
        return new Value.Bool(value);
    }

    static Value nul() {
        return new Value.Null();
    }

    static Value l(Value... values) {
        return new Value.L(List.of(values));
    }

    /** A map from alternating keys and values. */
    static Value m(Object... keysAndValues) {
        return new Value.M(item(keysAndValues));
    }

    static Value ss(String... members) {
        return new Value.SS(new LinkedHashSet<>(List.of(members)));
    }

    static Value ns(String... members) {
        Set<Value.N> numbers = new LinkedHashSet<>();
        for (String member : members) {
            numbers.add(Value.n(member));
        }
        return new Value.NS(numbers);
    }

    static Value bs(String... members) {
        Set<Bytes> bytes = new LinkedHashSet<>();
        for (String member : members) {
            bytes.add(Bytes.copyOf(member.getBytes(StandardCharsets.UTF_8)));
        }
        return new Value.BS(bytes);
    }

    /** An item from alternating names and values. */
    static Map<String, Value> item(Object... namesAndValues) {
        Map<String, Value> item = new LinkedHashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            item.put((String) namesAndValues[i], (Value) namesAndValues[i + 1]);
        }
        return item;
    }

    /** Placeholders from alternating refs and values/names: {@code ":v", s("x"), "#n", "name"}. */
    static Placeholders placeholders(Object... refsAndTargets) {
        Map<String, String> names = new LinkedHashMap<>();
        Map<String, Value> values = new LinkedHashMap<>();
        for (int i = 0; i < refsAndTargets.length; i += 2) {
            String ref = (String) refsAndTargets[i];
            if (ref.startsWith("#")) {
                names.put(ref, (String) refsAndTargets[i + 1]);
            } else {
                values.put(ref, (Value) refsAndTargets[i + 1]);
            }
        }
        return new Placeholders(names, values);
    }

    /** The message of the validation error {@code action} throws. */
    static String refusal(Executable action) {
        ApiException error = assertThrows(ApiException.class, action);
        if (!error.type().endsWith("ValidationException")) {
            throw new AssertionError("not a validation error: " + error.type());
        }
        return error.getMessage();
    }
}
