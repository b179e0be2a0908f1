package dev.moviegraph.engine.value;

import java.util.Arrays;
import java.util.Base64;

/** Immutable bytes, compared as DynamoDB compares binary: unsigned, byte by byte. */
public final class Bytes implements Comparable<Bytes> {
    private final byte[] bytes;

    private Bytes(byte[] bytes) {
        this.bytes = bytes;
    }

    public static Bytes copyOf(byte[] bytes) {
        return new Bytes(bytes.clone());
    }

    public static Bytes fromBase64(String text) {
        return new Bytes(Base64.getDecoder().decode(text));
    }

    public String base64() {
        return Base64.getEncoder().encodeToString(bytes);
    }

    public int length() {
        return bytes.length;
    }

    public byte[] toArray() {
        return bytes.clone();
    }

    /** Whether these bytes start with {@code prefix}. */
    public boolean startsWith(Bytes prefix) {
        return prefix.bytes.length <= bytes.length
                && Arrays.equals(bytes, 0, prefix.bytes.length, prefix.bytes, 0, prefix.bytes.length);
    }

    /** Whether {@code part} occurs in these bytes. */
    public boolean contains(Bytes part) {
        outer:
        for (int i = 0; i + part.bytes.length <= bytes.length; i++) {
            for (int j = 0; j < part.bytes.length; j++) {
                if (bytes[i + j] != part.bytes[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    @Override
    public int compareTo(Bytes other) {
        return Arrays.compareUnsigned(bytes, other.bytes);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Bytes b && Arrays.equals(bytes, b.bytes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bytes);
    }

    @Override
    public String toString() {
        return base64();
    }
}
