package dev.moviegraph.engine.store;

import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@link DiskRows}' writes in memory not yet in the file: a sorted map per store, and the checkpoint to write with
 * them once frozen.
 */
final class Layer {
    /** The checkpoint's row: store 0, which no table's store ever gets. */
    static final int META_STORE = 0;
    static final byte[] CHECKPOINT_KEY = "checkpoint".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    /** What a row costs in a layer beyond its bytes: the map's entry and the arrays' headers. */
    private static final int ROW_OVERHEAD = 64;

    private static final MVMap<byte[], byte[]> EMPTY = new MVStore.Builder().open()
            .openMap("empty", new MVMap.Builder<byte[], byte[]>().keyType(ByteArrays.TYPE).valueType(ByteArrays.TYPE));
    private final MVStore store = new MVStore.Builder().open();
    private final Map<Integer, MVMap<byte[], byte[]>> maps = new ConcurrentHashMap<>();
    final AtomicLong bytes = new AtomicLong();
    /** Set at the freeze: the checkpoint row written with the layer (empty: removes the file's, none to trust). */
    volatile byte[] checkpoint;
    /** Stores dropped while this layer was the active one: their rows leave the file when it is written. */
    final java.util.Set<Integer> drops = ConcurrentHashMap.newKeySet();

    MVMap<byte[], byte[]> map(int id) {
        MVMap<byte[], byte[]> map = maps.get(id);
        return map == null ? EMPTY : map;
    }

    byte[] get(int id, byte[] key) {
        MVMap<byte[], byte[]> map = maps.get(id);
        return map == null ? null : map.get(key);
    }

    void put(int id, byte[] key, byte[] value) {
        MVMap<byte[], byte[]> map = maps.computeIfAbsent(id, i -> store.openMap(Integer.toString(i),
                new MVMap.Builder<byte[], byte[]>().keyType(ByteArrays.TYPE).valueType(ByteArrays.TYPE)));
        byte[] old = map.put(key, value);
        bytes.addAndGet(value.length + (old == null ? key.length + ROW_OVERHEAD : -old.length));
    }

    void forget(int id) {
        MVMap<byte[], byte[]> map = maps.remove(id);
        if (map != null) {
            store.removeMap(map);
        }
    }

    /** The rows to write: the checkpoint's first, then store by store in key order, leaving out dropped stores. */
    Iterable<SqliteRows.Change> changes(Map<Integer, Boolean> dropped) {
        List<Integer> ids = new ArrayList<>(maps.keySet());
        Collections.sort(ids);
        byte[] row = checkpoint;
        return () -> java.util.stream.Stream.concat(row == null ? java.util.stream.Stream.<SqliteRows.Change>empty()
                : java.util.stream.Stream.of(new SqliteRows.Change(META_STORE, CHECKPOINT_KEY, row)), ids.stream()
                .filter(id -> !dropped.containsKey(id))
                .flatMap(id -> {
                    MVMap<byte[], byte[]> map = maps.get(id);
                    if (map == null) {
                        return java.util.stream.Stream.empty();
                    }
                    return map.entrySet().stream()
                            .map(e -> new SqliteRows.Change(id, e.getKey(), e.getValue()));
                }))
                .iterator();
    }
}
