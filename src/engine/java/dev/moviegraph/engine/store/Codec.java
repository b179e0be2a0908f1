package dev.moviegraph.engine.store;

import dev.moviegraph.engine.table.IndexSpec;
import dev.moviegraph.engine.table.KeySchema;
import dev.moviegraph.engine.table.Projection;
import dev.moviegraph.engine.table.TableSpec;
import dev.moviegraph.engine.value.Bytes;
import dev.moviegraph.engine.value.Value;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The journal's binary form of items and table declarations: a type tag per value, lengths and counts as
 * unsigned varints, strings in UTF-8, numbers as their canonical text (read back without re-validation:
 * they were valid when written). Compact and allocation-light, several times cheaper than DynamoDB JSON.
 */
final class Codec {
    private static final int S = 1;
    private static final int N = 2;
    private static final int B = 3;
    private static final int TRUE = 4;
    private static final int FALSE = 5;
    private static final int NULL = 6;
    private static final int L = 7;
    private static final int M = 8;
    private static final int SS = 9;
    private static final int NS = 10;
    private static final int BS = 11;

    /** Version of the declaration's layout; fields are only ever appended. */
    /** 2 added the tags at the end; a declaration of layout 1 (no tags) is still read. */
    private static final int SPEC_VERSION = 2;

    private Codec() {
    }

    /** A growable byte array written front to back; one per thread, reused. */
    static final class Out {
        byte[] bytes;
        int size;

        Out(int capacity) {
            bytes = new byte[capacity];
        }

        void reset() {
            size = 0;
        }

        private void ensure(int more) {
            if (size + more > bytes.length) {
                byte[] grown = new byte[Math.max(bytes.length * 2, size + more)];
                System.arraycopy(bytes, 0, grown, 0, size);
                bytes = grown;
            }
        }

        void byte1(int b) {
            ensure(1);
            bytes[size++] = (byte) b;
        }

        void int4(int v) {
            ensure(4);
            bytes[size] = (byte) (v >>> 24);
            bytes[size + 1] = (byte) (v >>> 16);
            bytes[size + 2] = (byte) (v >>> 8);
            bytes[size + 3] = (byte) v;
            size += 4;
        }

        void int4At(int at, int v) {
            bytes[at] = (byte) (v >>> 24);
            bytes[at + 1] = (byte) (v >>> 16);
            bytes[at + 2] = (byte) (v >>> 8);
            bytes[at + 3] = (byte) v;
        }

        void varint(long v) {
            ensure(10);
            while ((v & ~0x7FL) != 0) {
                bytes[size++] = (byte) ((v & 0x7F) | 0x80);
                v >>>= 7;
            }
            bytes[size++] = (byte) v;
        }

        void raw(byte[] from, int offset, int length) {
            ensure(length);
            System.arraycopy(from, offset, bytes, size, length);
            size += length;
        }

        void string(String s) {
            int length = s.length();
            // ASCII, the common case, is written without an intermediate array
            ensure(length + 5);
            int start = size;
            int lengthAt = size;
            // reserve the varint: one byte is enough below 128 characters; otherwise go the general way
            if (length < 128) {
                int pos = lengthAt + 1;
                for (int i = 0; i < length; i++) {
                    char c = s.charAt(i);
                    if (c >= 0x80) {
                        size = start;
                        stringUtf8(s);
                        return;
                    }
                    bytes[pos++] = (byte) c;
                }
                bytes[lengthAt] = (byte) length;
                size = pos;
                return;
            }
            stringUtf8(s);
        }

        private void stringUtf8(String s) {
            byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
            varint(utf8.length);
            raw(utf8, 0, utf8.length);
        }

        void nullableString(String s) {
            if (s == null) {
                byte1(0);
            } else {
                byte1(1);
                string(s);
            }
        }
    }

    private static final ThreadLocal<Out> SCRATCH = ThreadLocal.withInitial(() -> new Out(1024));

    /** This thread's buffer for one value kept in memory, emptied; hand it back with {@link #bytesOf}. */
    static Out scratch() {
        Out out = SCRATCH.get();
        out.reset();
        return out;
    }

    /** What the scratch buffer holds, copied; a buffer grown past 64 KB by one big item is let go. */
    static byte[] bytesOf(Out out) {
        byte[] bytes = java.util.Arrays.copyOf(out.bytes, out.size);
        if (out.bytes.length > 64 << 10) {
            SCRATCH.remove();
        }
        return bytes;
    }

    /** Reads what {@link Out} wrote; a malformed input throws {@link IllegalStateException} (or an index error). */
    static final class In {
        final byte[] bytes;
        int pos;
        final int end;

        In(byte[] bytes, int pos, int end) {
            this.bytes = bytes;
            this.pos = pos;
            this.end = end;
        }

        boolean more() {
            return pos < end;
        }

        int byte1() {
            check(1);
            return bytes[pos++] & 0xFF;
        }

        long varint() {
            long result = 0;
            for (int shift = 0; shift < 64; shift += 7) {
                int b = byte1();
                result |= (long) (b & 0x7F) << shift;
                if ((b & 0x80) == 0) {
                    return result;
                }
            }
            throw new IllegalStateException("malformed varint");
        }

        int length() {
            long v = varint();
            if (v < 0 || v > end - pos) { // every counted element takes a byte at least
                throw new IllegalStateException("malformed length " + v);
            }
            return (int) v;
        }

        String string() {
            int length = length();
            check(length);
            String s = new String(bytes, pos, length, StandardCharsets.UTF_8);
            pos += length;
            return s;
        }

        String nullableString() {
            return byte1() == 0 ? null : string();
        }

        byte[] raw(int length) {
            check(length);
            byte[] copy = new byte[length];
            System.arraycopy(bytes, pos, copy, 0, length);
            pos += length;
            return copy;
        }

        private void check(int length) {
            if (length < 0 || pos + length > end) {
                throw new IllegalStateException("record ends early");
            }
        }
    }

    // ---- items

    static void item(Out out, Map<String, Value> item) {
        out.varint(item.size());
        for (Map.Entry<String, Value> attribute : item.entrySet()) {
            out.string(attribute.getKey());
            value(out, attribute.getValue());
        }
    }

    static Map<String, Value> item(In in) {
        int count = in.length();
        Map<String, Value> item = new LinkedHashMap<>(Math.max(4, (int) (count / 0.75f) + 1));
        for (int i = 0; i < count; i++) {
            String name = in.string();
            item.put(name, value(in));
        }
        return item;
    }

    static void value(Out out, Value value) {
        if (value instanceof Value.S s) {
            out.byte1(S);
            out.string(s.value());
        } else if (value instanceof Value.N n) {
            out.byte1(N);
            out.string(n.text());
        } else if (value instanceof Value.B b) {
            out.byte1(B);
            bytes(out, b.value());
        } else if (value instanceof Value.Bool b) {
            out.byte1(b.value() ? TRUE : FALSE);
        } else if (value instanceof Value.Null) {
            out.byte1(NULL);
        } else if (value instanceof Value.L l) {
            out.byte1(L);
            out.varint(l.values().size());
            for (Value element : l.values()) {
                value(out, element);
            }
        } else if (value instanceof Value.M m) {
            out.byte1(M);
            item(out, m.values());
        } else if (value instanceof Value.SS ss) {
            out.byte1(SS);
            out.varint(ss.values().size());
            for (String member : ss.values()) {
                out.string(member);
            }
        } else if (value instanceof Value.NS ns) {
            out.byte1(NS);
            out.varint(ns.values().size());
            for (Value.N member : ns.values()) {
                out.string(member.text());
            }
        } else if (value instanceof Value.BS bs) {
            out.byte1(BS);
            out.varint(bs.values().size());
            for (Bytes member : bs.values()) {
                bytes(out, member);
            }
        } else {
            throw new IllegalArgumentException("unknown value " + value);
        }
    }

    private static void bytes(Out out, Bytes bytes) {
        byte[] array = bytes.toArray();
        out.varint(array.length);
        out.raw(array, 0, array.length);
    }

    static Value value(In in) {
        int tag = in.byte1();
        switch (tag) {
            case S:
                return new Value.S(in.string());
            case N:
                return number(in.string());
            case B:
                return new Value.B(Bytes.copyOf(in.raw(in.length())));
            case TRUE:
                return new Value.Bool(true);
            case FALSE:
                return new Value.Bool(false);
            case NULL:
                return new Value.Null();
            case L: {
                int count = in.length();
                List<Value> values = new ArrayList<>(count);
                for (int i = 0; i < count; i++) {
                    values.add(value(in));
                }
                return new Value.L(values);
            }
            case M:
                return new Value.M(item(in));
            case SS: {
                int count = in.length();
                Set<String> members = new LinkedHashSet<>();
                for (int i = 0; i < count; i++) {
                    members.add(in.string());
                }
                return new Value.SS(members);
            }
            case NS: {
                int count = in.length();
                Set<Value.N> members = new LinkedHashSet<>();
                for (int i = 0; i < count; i++) {
                    members.add(number(in.string()));
                }
                return new Value.NS(members);
            }
            case BS: {
                int count = in.length();
                Set<Bytes> members = new LinkedHashSet<>();
                for (int i = 0; i < count; i++) {
                    members.add(Bytes.copyOf(in.raw(in.length())));
                }
                return new Value.BS(members);
            }
            default:
                throw new IllegalStateException("unknown value tag " + tag);
        }
    }

    /** A number from the canonical text it was stored with, its value stripped as {@code Numbers.of} keeps it. */
    private static Value.N number(String text) {
        BigDecimal number = new BigDecimal(text);
        return new Value.N(text, number.signum() == 0 ? BigDecimal.ZERO : number.stripTrailingZeros());
    }

    // ---- declarations

    static void spec(Out out, TableSpec spec) {
        out.varint(SPEC_VERSION);
        out.string(spec.name());
        out.nullableString(spec.tableId());
        Instant created = spec.created();
        out.byte1(created == null ? 0 : 1);
        if (created != null) {
            out.varint(created.getEpochSecond() + (1L << 40)); // keeps pre-1970 instants unsigned
            out.varint(created.getNano());
        }
        keySchema(out, spec.key());
        out.varint(spec.attributeTypes().size());
        for (Map.Entry<String, String> type : spec.attributeTypes().entrySet()) {
            out.string(type.getKey());
            out.string(type.getValue());
        }
        out.nullableString(spec.billingMode());
        out.varint(spec.readUnits());
        out.varint(spec.writeUnits());
        out.varint(spec.indexes().size());
        for (IndexSpec index : spec.indexes()) {
            out.string(index.name());
            out.byte1(index.global() ? 1 : 0);
            keySchema(out, index.key());
            out.string(index.projection().type());
            out.varint(index.projection().nonKeyAttributes().size());
            for (String attribute : index.projection().nonKeyAttributes()) {
                out.string(attribute);
            }
            out.varint(index.readUnits());
            out.varint(index.writeUnits());
            out.nullableString(index.status());
        }
        out.nullableString(spec.streamViewType());
        out.nullableString(spec.streamLabel());
        out.nullableString(spec.ttlAttribute());
        out.nullableString(spec.status());
        out.varint(spec.tags().size());
        for (Map.Entry<String, String> tag : spec.tags().entrySet()) {
            out.string(tag.getKey());
            out.string(tag.getValue());
        }
    }

    static TableSpec spec(In in) {
        long version = in.varint();
        if (version != 1 && version != SPEC_VERSION) {
            throw new IllegalStateException("table declaration of an unknown layout " + version);
        }
        String name = in.string();
        String tableId = in.nullableString();
        Instant created = null;
        if (in.byte1() == 1) {
            long seconds = in.varint() - (1L << 40);
            created = Instant.ofEpochSecond(seconds, in.varint());
        }
        KeySchema key = keySchema(in);
        int typeCount = in.length();
        Map<String, String> types = new LinkedHashMap<>();
        for (int i = 0; i < typeCount; i++) {
            types.put(in.string(), in.string());
        }
        String billing = in.nullableString();
        long reads = in.varint();
        long writes = in.varint();
        int indexCount = in.length();
        List<IndexSpec> indexes = new ArrayList<>(indexCount);
        for (int i = 0; i < indexCount; i++) {
            String indexName = in.string();
            boolean global = in.byte1() == 1;
            KeySchema indexKey = keySchema(in);
            String projectionType = in.string();
            int attributeCount = in.length();
            List<String> attributes = new ArrayList<>(attributeCount);
            for (int j = 0; j < attributeCount; j++) {
                attributes.add(in.string());
            }
            long indexReads = in.varint();
            long indexWrites = in.varint();
            String status = in.nullableString();
            indexes.add(new IndexSpec(indexName, global, indexKey, new Projection(projectionType, attributes),
                    indexReads, indexWrites, status));
        }
        String viewType = in.nullableString();
        String label = in.nullableString();
        String ttl = in.nullableString();
        String status = in.nullableString();
        Map<String, String> tags = new LinkedHashMap<>();
        int tagCount = version == 1 ? 0 : in.length();
        for (int i = 0; i < tagCount; i++) {
            tags.put(in.string(), in.string());
        }
        return new TableSpec(name, tableId, created, key, types, billing, reads, writes, indexes, viewType, label,
                ttl, status, tags);
    }

    static void keySchema(Out out, KeySchema key) {
        out.string(key.partition());
        out.string(key.partitionType());
        out.nullableString(key.sort());
        out.nullableString(key.sortType());
    }

    static KeySchema keySchema(In in) {
        return new KeySchema(in.string(), in.string(), in.nullableString(), in.nullableString());
    }
}
