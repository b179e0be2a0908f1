package dev.moviegraph.engine.value;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Comparator;

/**
 * The order of key values as DynamoDB sorts them: S by their UTF-8 bytes (unsigned), N numerically,
 * B by unsigned bytes. Java's {@link String#compareTo} sorts by UTF-16 units, which differs from UTF-8
 * for characters above U+FFFF against those in U+E000..U+FFFF, so strings are compared by code point,
 * which orders as UTF-8 does.
 */
public final class Ordering {
    /** Key values of one type (a key attribute has one declared type). */
    public static final Comparator<Value> KEYS = Ordering::compareKeys;

    private Ordering() {
    }

    public static int compareKeys(Value a, Value b) {
        if (a instanceof Value.S x && b instanceof Value.S y) {
            return x.plain() && y.plain() ? x.value().compareTo(y.value()) : compareStrings(x.value(), y.value());
        }
        if (a instanceof Value.N x && b instanceof Value.N y) {
            return x.number().compareTo(y.number());
        }
        if (a instanceof Value.B x && b instanceof Value.B y) {
            return x.value().compareTo(y.value());
        }
        // Different types never meet in one key attribute; order by type name for a total order.
        return a.type().compareTo(b.type());
    }

    /**
     * Strings in UTF-8 byte order, which is code point order. UTF-16 order differs from it only where a
     * surrogate (U+D800..U+DFFF) meets a unit of U+E000..U+FFFF; shifting both ranges at the first difference
     * (surrogates up above U+F7FF, the rest down by 0x800) gives code point order without decoding.
     */
    public static int compareStrings(String a, String b) {
        if (a == b) {
            return 0;
        }
        int length = Math.min(a.length(), b.length());
        for (int i = 0; i < length; i++) {
            char x = a.charAt(i);
            char y = b.charAt(i);
            if (x != y) {
                if (x >= 0xD800 && y >= 0xD800) {
                    x = fixUp(x);
                    y = fixUp(y);
                }
                return x - y;
            }
        }
        return a.length() - b.length();
    }

    private static char fixUp(char c) {
        return c >= 0xE000 ? (char) (c - 0x800) : (char) (c + 0x2000);
    }

    /** Whether two values of the same scalar type compare (for conditions: <, <=, >, >=, BETWEEN). */
    public static boolean comparable(Value a, Value b) {
        return a.getClass() == b.getClass()
                && (a instanceof Value.S || a instanceof Value.N || a instanceof Value.B);
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static boolean sameBytes(byte[] a, byte[] b) {
        return Arrays.equals(a, b);
    }
}
