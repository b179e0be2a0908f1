package dev.moviegraph.engine.table;

import dev.moviegraph.engine.value.Value;

import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;

/**
 * A {@link RowKey} as bytes that sort, compared unsigned and lexicographically, exactly as {@link RowKey#ORDER}
 * sorts the keys: so a store can keep its keys as plain byte arrays (a few bytes over the key's own length,
 * against a couple of hundred for the objects) and compare them with {@link java.util.Arrays#compareUnsigned}.
 * One way only: rows are read back from their items, never from their keys.
 *
 * <p>Layout: the partition hash as 4 bytes big-endian, then the four parts (partition, sort, and in an index the
 * item's table key), each a tag: {@code 00} the low bound, {@code 01} absent, {@code 02} a value, {@code FF} the
 * high bound (the order {@link RowKey} gives them). A value is its type's byte then its order-keeping form:
 * strings as UTF-8 (which is DynamoDB's order) and binaries as they are, each with {@code 00} written
 * {@code 00 FF} and ended by {@code 00 00}, so a prefix sorts first and the next part cannot leak into this
 * one; numbers as sign, decimal exponent and digits (see {@link #number}).
 */
public final class KeyBytes {
    private static final int LOW = 0x00;
    private static final int ABSENT = 0x01;
    private static final int VALUE = 0x02;
    private static final int HIGH = 0xFF;

    private KeyBytes() {
    }

    public static byte[] of(RowKey key) {
        Out out = new Out();
        int hash = key.hash();
        out.write(hash >>> 24);
        out.write(hash >>> 16);
        out.write(hash >>> 8);
        out.write(hash);
        part(out, key.partition());
        part(out, key.sort());
        part(out, key.tablePartition());
        part(out, key.tableSort());
        return out.toByteArray();
    }

    private static void part(Out out, Value value) {
        if (value == null) {
            out.write(ABSENT);
        } else if (value == RowKey.Bound.LOW) {
            out.write(LOW);
        } else if (value == RowKey.Bound.HIGH) {
            out.write(HIGH);
        } else {
            out.write(VALUE);
            if (value instanceof Value.S s) {
                out.write('S');
                escaped(out, s.value().getBytes(StandardCharsets.UTF_8));
            } else if (value instanceof Value.N n) {
                out.write('N');
                number(out, n.number());
            } else if (value instanceof Value.B b) {
                out.write('U'); // after N and S, as the type names order them (B < N < S is not needed: one type per key)
                escaped(out, b.value().toArray());
            } else {
                throw new IllegalArgumentException("not a key value: " + value.type());
            }
        }
    }

    private static void escaped(Out out, byte[] bytes) {
        for (byte b : bytes) {
            out.write(b);
            if (b == 0) {
                out.write(0xFF);
            }
        }
        out.write(0);
        out.write(0);
    }

    /**
     * A number as {@code 01} negative, {@code 02} zero or {@code 03} positive; then, for a non-zero one written
     * {@code 0.d1d2... x 10^e}, the exponent {@code e} as two bytes (offset by 32768) and each digit {@code d}
     * as the byte {@code d + 1}, ended by {@code 00}. A negative number has every byte after its sign inverted
     * (a larger magnitude sorts lower, and its end mark {@code FF} sorts after any digit, so -0.12 > -0.123).
     */
    static void number(Out out, BigDecimal number) {
        int sign = number.signum();
        if (sign == 0) {
            out.write(0x02);
            return;
        }
        BigDecimal magnitude = number.abs().stripTrailingZeros();
        String digits = magnitude.unscaledValue().toString();
        int exponent = digits.length() - magnitude.scale();
        int mask = sign < 0 ? 0xFF : 0x00;
        out.write(sign < 0 ? 0x01 : 0x03);
        int biased = exponent + 32768;
        out.write((biased >>> 8) ^ mask);
        out.write(biased ^ mask);
        for (int i = 0; i < digits.length(); i++) {
            out.write((digits.charAt(i) - '0' + 1) ^ mask);
        }
        out.write(mask);
    }

    /** A byte buffer without the synchronisation of ByteArrayOutputStream's methods mattering (they are uncontended). */
    static final class Out extends ByteArrayOutputStream {
        Out() {
            super(48);
        }
    }
}
