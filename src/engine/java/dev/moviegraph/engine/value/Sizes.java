package dev.moviegraph.engine.value;

import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Item sizes as DynamoDB counts them for its 400 KB limit and for capacity: each attribute's name in
 * UTF-8 plus its value; a string's UTF-8 length, a number about one byte per two significant digits
 * plus one, binary its length, BOOL and NULL one byte, a list or map three bytes plus one per element
 * plus its elements (map keys counted as names), sets the sum of their members.
 */
public final class Sizes {
    private Sizes() {
    }

    public static long item(Map<String, Value> item) {
        long size = 0;
        for (Map.Entry<String, Value> attribute : item.entrySet()) {
            size += utf8Length(attribute.getKey()) + value(attribute.getValue());
        }
        return size;
    }

    public static long value(Value value) {
        if (value instanceof Value.S s) {
            return utf8Length(s.value());
        }
        if (value instanceof Value.N n) {
            return number(n);
        }
        if (value instanceof Value.B b) {
            return b.value().length();
        }
        if (value instanceof Value.L l) {
            long size = 3;
            for (Value element : l.values()) {
                size += 1 + value(element);
            }
            return size;
        }
        if (value instanceof Value.M m) {
            long size = 3;
            for (Map.Entry<String, Value> entry : m.values().entrySet()) {
                size += 1 + utf8Length(entry.getKey()) + value(entry.getValue());
            }
            return size;
        }
        if (value instanceof Value.SS ss) {
            return ss.values().stream().mapToLong(Sizes::utf8Length).sum();
        }
        if (value instanceof Value.NS ns) {
            return ns.values().stream().mapToLong(Sizes::number).sum();
        }
        if (value instanceof Value.BS bs) {
            return bs.values().stream().mapToLong(Bytes::length).sum();
        }
        return 1; // BOOL, NULL
    }

    static long number(Value.N n) {
        String digits = n.number().unscaledValue().abs().toString();
        int significant = digits.length();
        return (significant + 1) / 2 + 1;
    }

    public static int utf8Length(String s) {
        int length = s.length();
        int bytes = length;
        for (int i = 0; i < length; i++) {
            char c = s.charAt(i);
            if (c >= 0x80) {
                if (c < 0x800) {
                    bytes += 1;
                } else if (Character.isHighSurrogate(c)) {
                    bytes += 2;
                    i++;
                } else {
                    bytes += 2;
                }
            }
        }
        return bytes;
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
