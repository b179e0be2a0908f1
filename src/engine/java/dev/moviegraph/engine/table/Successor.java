package dev.moviegraph.engine.table;

import dev.moviegraph.engine.value.Bytes;
import dev.moviegraph.engine.value.Value;

/**
 * The smallest key value above every value that begins with a prefix, so that {@code begins_with} is a
 * range of the sorted store in either direction; null when there is none (all ends of the range).
 */
public final class Successor {
    private Successor() {
    }

    public static Value of(Value prefix) {
        if (prefix instanceof Value.S s) {
            int[] points = s.value().codePoints().toArray();
            for (int i = points.length - 1; i >= 0; i--) {
                if (points[i] < Character.MAX_CODE_POINT) {
                    int next = points[i] + 1;
                    if (next == 0xD800) {
                        next = 0xE000; // surrogates are not characters
                    }
                    int[] head = java.util.Arrays.copyOf(points, i + 1);
                    head[i] = next;
                    return new Value.S(new String(head, 0, head.length));
                }
            }
            return null;
        }
        if (prefix instanceof Value.B b) {
            byte[] bytes = b.value().toArray();
            for (int i = bytes.length - 1; i >= 0; i--) {
                if (bytes[i] != (byte) 0xff) {
                    byte[] head = java.util.Arrays.copyOf(bytes, i + 1);
                    head[i]++;
                    return new Value.B(Bytes.copyOf(head));
                }
            }
            return null;
        }
        return null;
    }
}
