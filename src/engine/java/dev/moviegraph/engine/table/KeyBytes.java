package dev.moviegraph.engine.table;

import dev.moviegraph.engine.value.Value;

import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;

/**
 * A {@link RowKey} as bytes that sort, compared unsigned and lexicographically, exactly as {@link RowKey#ORDER}
 * sorts the keys: so a store can keep its keys as plain byte arrays (a few bytes over the key's own length,
 * against a couple of hundred for the objects) and compare them with {@link java.util.Arrays#compareUnsigned}.
 *
 * <p>Layout: the partition hash as 4 bytes big-endian, then the four parts (partition, sort, and in an index the
 * item's table key), each a tag: {@code 00} the low bound, {@code 01} absent, {@code 02} a value, {@code FF} the
 * high bound (the order {@link RowKey} gives them). A value is its type's byte then its order-keeping form:
 * strings as UTF-8 (which is DynamoDB's order) and binaries as they are, each with {@code 00} written
 * {@code 00 FF} and ended by {@code 00 00}, so a prefix sorts first and the next part cannot leak into this
 * one; numbers as sign, decimal exponent and digits (see {@link #number}). {@link #decode} reads a stored
 * row's key back (an index that projects ALL finds its items' table keys there).
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

    /** The row key these bytes are of (a stored row's: no bounds). */
    public static RowKey decode(byte[] bytes) {
        int[] at = {4};
        int hash = (bytes[0] & 0xFF) << 24 | (bytes[1] & 0xFF) << 16 | (bytes[2] & 0xFF) << 8 | bytes[3] & 0xFF;
        Value partition = part(bytes, at);
        Value sort = part(bytes, at);
        Value tablePartition = part(bytes, at);
        Value tableSort = part(bytes, at);
        return new RowKey(hash, partition, sort, tablePartition, tableSort);
    }

    private static Value part(byte[] bytes, int[] at) {
        int tag = bytes[at[0]++] & 0xFF;
        if (tag == ABSENT) {
            return null;
        }
        if (tag != VALUE) {
            throw new IllegalArgumentException("a bound is not a stored row's key");
        }
        int type = bytes[at[0]++];
        return switch (type) {
            case 'S' -> new Value.S(new String(unescaped(bytes, at), StandardCharsets.UTF_8));
            case 'U' -> new Value.B(dev.moviegraph.engine.value.Bytes.copyOf(unescaped(bytes, at)));
            case 'N' -> dev.moviegraph.engine.value.Numbers.of(number(bytes, at));
            default -> throw new IllegalArgumentException("not a key's type: " + type);
        };
    }

    private static byte[] unescaped(byte[] bytes, int[] at) {
        Out out = new Out();
        int i = at[0];
        while (true) {
            byte b = bytes[i++];
            if (b == 0) {
                if (bytes[i++] == 0) {
                    break; // the end mark
                }
                out.write(0); // 00 FF
            } else {
                out.write(b);
            }
        }
        at[0] = i;
        return out.toByteArray();
    }

    private static BigDecimal number(byte[] bytes, int[] at) {
        int sign = bytes[at[0]++];
        if (sign == 0x02) {
            return BigDecimal.ZERO;
        }
        int mask = sign == 0x01 ? 0xFF : 0x00;
        int biased = ((bytes[at[0]] & 0xFF ^ mask) << 8) | (bytes[at[0] + 1] & 0xFF ^ mask);
        at[0] += 2;
        StringBuilder digits = new StringBuilder(40);
        while (true) {
            int b = bytes[at[0]++] & 0xFF ^ mask;
            if (b == 0) {
                break;
            }
            digits.append((char) ('0' + b - 1));
        }
        int exponent = biased - 32768;
        BigDecimal magnitude = new BigDecimal(new java.math.BigInteger(digits.toString()), digits.length() - exponent);
        return mask == 0 ? magnitude : magnitude.negate();
    }

    /** A byte buffer without the synchronisation of ByteArrayOutputStream's methods mattering (they are uncontended). */
    static final class Out extends ByteArrayOutputStream {
        Out() {
            super(48);
        }
    }
}
