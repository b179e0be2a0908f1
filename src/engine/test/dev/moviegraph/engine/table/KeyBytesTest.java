package dev.moviegraph.engine.table;

import dev.moviegraph.engine.value.Bytes;
import dev.moviegraph.engine.value.Value;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;

/** Keys as bytes sort as the keys do: every pair of many generated keys, bounds and tricky values included. */
class KeyBytesTest {
    private final Random random = new Random(42);

    @Test
    void numbersSortAsNumbers() {
        List<Value> values = new ArrayList<>();
        for (String text : List.of("0", "1", "-1", "10", "9", "0.1", "0.12", "0.123", "-0.12", "-0.123", "1E+125",
                "-1E+125", "1E-130", "-1E-130", "99999999999999999999999999999999999999", "123.456", "123.4561",
                "-123.456", "100", "1000", "0.001", "-0.001")) {
            values.add(number(text));
        }
        for (int i = 0; i < 300; i++) {
            BigDecimal n = new BigDecimal(random.nextLong()).scaleByPowerOfTen(random.nextInt(60) - 30);
            values.add(number(n.toPlainString()));
        }
        checkPairs(values, null);
    }

    @Test
    void equalNumbersHaveEqualBytes() {
        assertArrayEquals(KeyBytes.of(RowKey.of(number("1"), null)), KeyBytes.of(RowKey.of(number("1.000"), null)));
        assertArrayEquals(KeyBytes.of(RowKey.of(number("-250"), null)), KeyBytes.of(RowKey.of(number("-2.5E2"), null)));
    }

    @Test
    void stringsSortInUtf8OrderWhateverTheyHold() {
        List<Value> values = new ArrayList<>();
        for (String text : List.of("", "a", "a\u0000", "a\u0000b", "ab", "b", "\uffff", "\ud83d\ude00", "\u00e9",
                "a\u0001", "A", "z\u0000\u0000")) {
            values.add(new Value.S(text));
        }
        for (int i = 0; i < 200; i++) {
            StringBuilder text = new StringBuilder();
            for (int j = random.nextInt(5); j > 0; j--) {
                text.appendCodePoint(switch (random.nextInt(4)) {
                    case 0 -> random.nextInt(3);
                    case 1 -> 'a' + random.nextInt(3);
                    case 2 -> 0xE000 + random.nextInt(0x1FFF);
                    default -> 0x1F600 + random.nextInt(3);
                });
            }
            values.add(new Value.S(text.toString()));
        }
        checkPairs(values, new Value.S("x"));
    }

    @Test
    void binariesSortUnsigned() {
        List<Value> values = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            byte[] bytes = new byte[random.nextInt(4)];
            for (int j = 0; j < bytes.length; j++) {
                bytes[j] = (byte) new int[] {0, 1, 0x7f, 0x80, 0xff}[random.nextInt(5)];
            }
            values.add(new Value.B(Bytes.copyOf(bytes)));
        }
        checkPairs(values, new Value.S("x"));
    }

    /** Every key made of the values (as partitions, sorts, and index rows) against every other, bounds among them. */
    private void checkPairs(List<Value> values, Value partition) {
        List<RowKey> keys = new ArrayList<>();
        Value pk = partition != null ? partition : values.get(0);
        for (Value value : values) {
            keys.add(RowKey.of(value, null));
            keys.add(RowKey.of(pk, value));
            keys.add(RowKey.at(pk, value, false));
            keys.add(RowKey.at(pk, value, true));
            keys.add(RowKey.of(pk, value).inIndex(RowKey.of(value, pk)));
        }
        keys.add(RowKey.partitionStart(pk));
        keys.add(RowKey.partitionEnd(pk));
        keys.add(RowKey.hashStart(0));
        keys.add(RowKey.hashStart(-1));
        for (Value value : values) {
            // a stored row's key reads back as itself: a table's, and an index's with the item's table key
            for (RowKey stored : List.of(RowKey.of(value, null), RowKey.of(pk, value),
                    RowKey.of(pk, value).inIndex(RowKey.of(value, pk)), RowKey.of(value, null).inIndex(RowKey.of(pk, null)))) {
                assertEquals(stored, KeyBytes.decode(KeyBytes.of(stored)), () -> "decoded " + stored);
            }
        }
        for (RowKey a : keys) {
            byte[] ab = KeyBytes.of(a);
            for (RowKey b : keys) {
                int expected = Integer.signum(RowKey.ORDER.compare(a, b));
                int actual = Integer.signum(Arrays.compareUnsigned(ab, KeyBytes.of(b)));
                assertEquals(expected, actual, () -> a + " vs " + b);
            }
        }
    }

    private static Value.N number(String text) {
        BigDecimal n = new BigDecimal(text);
        return new Value.N(n.stripTrailingZeros().toString(), n);
    }
}
