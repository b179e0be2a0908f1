package dev.moviegraph.engine.fuzz;

import dev.moviegraph.engine.value.Bytes;
import dev.moviegraph.engine.value.Value;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One expression fuzz input, as text a person can read and write: a first line of placeholders and flags, then
 * the expression. The first line holds words separated by spaces: {@code #ref=name} (an ExpressionAttributeNames
 * entry), {@code :ref=TYPE:text} (an ExpressionAttributeValues entry of type S, N, B, BOOL, NULL, L, M, SS, NS
 * or BS; lists and sets take comma-separated members), or a flag ({@code filter}, {@code nosort}); anything else
 * is ignored, so every byte string is an input. For example:
 *
 * <pre>
 * #a=list :v=N:5 :w=SS:x,y
 * SET #a[0] = :v ADD set :w
 * </pre>
 */
record ExpressionInput(Map<String, String> names, Map<String, Value> values, Set<String> flags, String text) {

    static ExpressionInput parse(byte[] bytes) {
        String input = new String(bytes, StandardCharsets.UTF_8);
        int newline = input.indexOf('\n');
        String header = newline < 0 ? "" : input.substring(0, newline);
        String text = newline < 0 ? input : input.substring(newline + 1);
        Map<String, String> names = new LinkedHashMap<>();
        Map<String, Value> values = new LinkedHashMap<>();
        Set<String> flags = new LinkedHashSet<>();
        for (String word : header.split(" ")) {
            int equals = word.indexOf('=');
            if (word.startsWith("#") && equals > 0) {
                names.put(word.substring(0, equals), word.substring(equals + 1));
            } else if (word.startsWith(":") && equals > 0) {
                Value value = value(word.substring(equals + 1));
                if (value != null) {
                    values.put(word.substring(0, equals), value);
                }
            } else if (!word.isEmpty()) {
                flags.add(word);
            }
        }
        return new ExpressionInput(names, values, flags, text);
    }

    /** {@code TYPE:text} as a value; null when it is none (an unknown type, a number that is not one). */
    private static Value value(String typed) {
        int colon = typed.indexOf(':');
        String type = colon < 0 ? typed : typed.substring(0, colon);
        String text = colon < 0 ? "" : typed.substring(colon + 1);
        List<String> members = List.of(text.split(",", -1));
        try {
            return switch (type) {
                case "S" -> new Value.S(text);
                case "N" -> Value.n(text);
                case "B" -> new Value.B(bytes(text));
                case "BOOL" -> new Value.Bool(text.equals("true"));
                case "NULL" -> new Value.Null();
                case "L" -> new Value.L(members.stream().<Value>map(Value.S::new).toList());
                case "M" -> new Value.M(Map.of(text, new Value.S("v")));
                case "SS" -> new Value.SS(new LinkedHashSet<>(members));
                case "NS" -> new Value.NS(new LinkedHashSet<>(members.stream().map(Value::n).toList()));
                case "BS" -> new Value.BS(new LinkedHashSet<>(members.stream().map(ExpressionInput::bytes).toList()));
                default -> null;
            };
        } catch (NumberFormatException notANumber) {
            return null;
        }
    }

    private static Bytes bytes(String text) {
        return Bytes.copyOf(text.getBytes(StandardCharsets.UTF_8));
    }

    /** The item expressions are evaluated against and updates applied to: a bit of every type, nested. */
    static Map<String, Value> item() {
        Map<String, Value> item = new LinkedHashMap<>();
        item.put("pk", new Value.S("p"));
        item.put("sk", Value.n(1));
        item.put("a", new Value.S("text"));
        item.put("b", new Value.B(bytes("abc")));
        item.put("n", Value.n("12.5"));
        List<Value> list = new ArrayList<>(List.of(Value.n(1), new Value.S("two"),
                new Value.L(List.of(new Value.Bool(true), new Value.Null()))));
        item.put("list", new Value.L(list));
        item.put("map", new Value.M(Map.of("inner", new Value.M(Map.of("deep", new Value.Null())), "x", Value.n(3))));
        item.put("set", new Value.SS(Set.of("x", "y")));
        item.put("nums", new Value.NS(Set.of(Value.n(1), Value.n(2))));
        item.put("bins", new Value.BS(Set.of(bytes("a"), bytes("b"))));
        return item;
    }
}
