package dev.moviegraph.engine.store;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The checkpoint row of {@code rows.db} as {@link DiskRows} writes it: what the rows are written with (the
 * attribute names' numbers, the stores' numbers, the next store number, the stores dropped), then the journal's
 * part ({@link Checkpoint}), which DiskRows keeps for the journal to read.
 */
record RowsCheckpoint(List<String> names, Map<String, Integer> storeIds, int nextStore, List<Integer> dropped,
                      byte[] journalPart) {
    private static final int VERSION = 1;

    byte[] encode() {
        Codec.Out out = new Codec.Out(4096 + journalPart.length);
        out.varint(VERSION);
        out.varint(names.size());
        names.forEach(out::string);
        out.varint(storeIds.size());
        storeIds.forEach((name, id) -> {
            out.string(name);
            out.varint(id);
        });
        out.varint(nextStore);
        out.varint(dropped.size());
        dropped.forEach(out::varint);
        out.varint(journalPart.length);
        out.raw(journalPart, 0, journalPart.length);
        return Arrays.copyOf(out.bytes, out.size);
    }

    /** The row's checkpoint; {@link IllegalArgumentException} for another version, a runtime exception if damaged. */
    static RowsCheckpoint decode(byte[] bytes) {
        Codec.In in = new Codec.In(bytes, 0, bytes.length);
        long version = in.varint();
        if (version != VERSION) {
            throw new IllegalArgumentException("a checkpoint of version " + version + ", this engine reads " + VERSION);
        }
        List<String> names = new ArrayList<>();
        for (int i = in.length(); i > 0; i--) {
            names.add(in.string());
        }
        Map<String, Integer> ids = new HashMap<>();
        for (int i = in.length(); i > 0; i--) {
            ids.put(in.string(), (int) in.varint());
        }
        int next = (int) in.varint();
        List<Integer> dropped = new ArrayList<>();
        for (int i = in.length(); i > 0; i--) {
            dropped.add((int) in.varint());
        }
        return new RowsCheckpoint(names, ids, next, dropped, in.raw(in.length()));
    }
}
