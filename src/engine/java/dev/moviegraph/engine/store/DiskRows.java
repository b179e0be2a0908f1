package dev.moviegraph.engine.store;

import dev.moviegraph.engine.stream.ChangeRecord;
import dev.moviegraph.engine.stream.RecordLog;
import dev.moviegraph.engine.table.KeyBytes;
import dev.moviegraph.engine.table.RowKey;
import dev.moviegraph.engine.table.RowStore;
import dev.moviegraph.engine.table.Storage;
import dev.moviegraph.engine.table.StoredItem;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.BiFunction;

/**
 * Rows and stream records in a file ({@link SqliteRows}), with the latest writes in a bounded layer on the heap:
 * a write lands in the active layer (a sorted map in memory, as {@link RowFiles} keeps everything); when that
 * layer holds {@code layerBytes}, it is frozen, a new one takes the writes, and a background thread writes the
 * frozen one to the file in one transaction and lets it go. Reads look in the active layer, the frozen one,
 * then the file; the newest row for a key wins and an empty value is a removal not yet in the file. So the
 * heap holds at most two layers (a writer waits while a full layer is still being written), whatever the data.
 *
 * <p>A point read sees the item as last written. A range read sees each item as committed when the walk
 * reaches it (the file is read a page at a time), as a DynamoDB Query does; it never sees an item twice.
 */
public final class DiskRows implements Storage, AutoCloseable {
    private static final System.Logger LOG = System.getLogger(DiskRows.class.getName());
    private static final byte[] REMOVED = new byte[0];
    /** What a row costs in a layer beyond its bytes: the map's entry and the arrays' headers. */
    private static final int ROW_OVERHEAD = 64;

    private final SqliteRows file;
    private final long layerBytes;
    private final Names names = new Names();
    private final ItemBytes items = new ItemBytes(names);
    private final RecordBytes recordBytes = new RecordBytes(names);
    private final Map<String, Integer> storeIds = new ConcurrentHashMap<>();
    private final Map<Integer, Boolean> dropped = new ConcurrentHashMap<>();
    private final AtomicInteger nextStore = new AtomicInteger(1);
    /** Writers hold it shared while writing to the active layer; the flush holds it alone to swap layers. */
    private final ReentrantReadWriteLock swap = new ReentrantReadWriteLock();
    /** Held by the flush and by {@link #drop}, so a dropped store's rows are never written back. */
    private final Object flushing = new Object();
    private final Object roomMade = new Object();
    private final Thread flusher;
    private volatile Layers layers = new Layers(new Layer(), null);
    private volatile boolean closed;
    /** Why the last write of a layer to the file failed, until one succeeds; null when the last one did. */
    private volatile RuntimeException flushFailure;
    private final AtomicLong flushes = new AtomicLong();
    private final RecordLog.Logs records = new RecordLog.Logs() {
        @Override
        public RecordLog open(String name) {
            return new Records(DiskRows.this.open("records:" + name));
        }

        @Override
        public void drop(String name) {
            DiskRows.this.drop("records:" + name);
        }
    };

    private DiskRows(SqliteRows file, long layerBytes) {
        this.file = file;
        this.layerBytes = layerBytes;
        this.flusher = new Thread(this::flushLoop, "engine-rows-flush");
        this.flusher.setDaemon(true);
        this.flusher.start();
    }

    /**
     * Rows in {@code dir/rows.db}, started empty (the journal fills it), with layers of {@code layerBytes} and
     * SQLite's page cache of {@code cacheKib} in all ({@code readers} reading connections and one writing).
     */
    public static DiskRows open(Path dir, long layerBytes, int readers, int cacheKib) {
        try {
            return new DiskRows(SqliteRows.create(dir.resolve("rows.db"), readers, cacheKib), layerBytes);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot open the rows file in " + dir + ": " + e.getMessage(), e);
        }
    }

    /** Whether rows can live on disk on this machine (SQLite's native library loads). */
    public static boolean available() {
        return SqliteRows.available();
    }

    /** Where the streams keep their records, in the same file. */
    public RecordLog.Logs records() {
        return records;
    }

    /** Bytes the file and its write-ahead log take on disk. */
    public long bytesOnDisk() {
        return file.bytesOnDisk();
    }

    /** Bytes of rows held in the layers in memory (both, while one is being written). */
    public long bytesInMemory() {
        Layers now = layers;
        return now.active.bytes.get() + (now.frozen == null ? 0 : now.frozen.bytes.get());
    }

    /** Layers written to the file so far. */
    public long flushes() {
        return flushes.get();
    }

    @Override
    public boolean sharesItems() {
        return false; // on disk a copy in each ALL index is cheaper than a read of the table per entry
    }

    @Override
    public RowStore open(String name) {
        int id = storeIds.computeIfAbsent(name, n -> nextStore.getAndIncrement());
        return new Rows(this, id);
    }

    @Override
    public void drop(String name) {
        Integer id = storeIds.remove(name);
        if (id == null) {
            return;
        }
        synchronized (flushing) {
            dropped.put(id, Boolean.TRUE);
            Layers now = layers;
            now.active.forget(id);
            if (now.frozen != null) {
                now.frozen.forget(id);
            }
            file.drop(id);
        }
    }

    @Override
    public void close() {
        closed = true;
        flusher.interrupt();
        try {
            flusher.join(30_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (flushing) {
            file.close();
        }
    }

    byte[] get(int store, byte[] key) {
        Layers now = layers;
        byte[] value = now.active.get(store, key);
        if (value == null && now.frozen != null) {
            value = now.frozen.get(store, key);
        }
        if (value == null) {
            value = file.get(store, key);
        }
        return value == null || value.length == 0 ? null : value;
    }

    void write(int store, byte[] key, byte[] value) {
        if (dropped.containsKey(store) || closed) {
            return; // a write racing its table's deletion lands nowhere, as DynamoDB's would
        }
        makeRoom();
        swap.readLock().lock();
        try {
            layers.active.put(store, key, value == null ? REMOVED : value);
        } finally {
            swap.readLock().unlock();
        }
    }

    <T> Iterator<T> range(int store, byte[] low, byte[] high, boolean descending, BiFunction<byte[], byte[], T> read) {
        if (high != null && Arrays.compareUnsigned(low, high) >= 0) {
            return Collections.emptyIterator();
        }
        Layers now = layers;
        List<MVMap<byte[], byte[]>> maps = new ArrayList<>(2);
        maps.add(now.active.map(store));
        if (now.frozen != null) {
            maps.add(now.frozen.map(store));
        }
        return new MergedRange<>(maps, file, store, low, high, descending, read);
    }

    /**
     * A full active layer is frozen by the writer that finds it so (the flush thread then writes it out); a writer
     * finding it full while the last one is still being written waits for that.
     */
    private void makeRoom() {
        while (!closed && layers.active.bytes.get() >= layerBytes) {
            if (layers.frozen == null) {
                freeze();
                continue;
            }
            RuntimeException failure = flushFailure;
            if (failure != null) {
                // the file cannot take the frozen layer (a full disk, say): refuse the write rather than hang it
                throw new IllegalStateException("The engine's rows file " + file.file() + " cannot be written: "
                        + failure.getMessage(), failure);
            }
            synchronized (roomMade) {
                if (layers.frozen != null && layers.active.bytes.get() >= layerBytes) {
                    try {
                        roomMade.wait(100);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                }
            }
        }
    }

    /** The active layer becomes the frozen one (when there is none) and the flush thread is woken. */
    private void freeze() {
        swap.writeLock().lock();
        try {
            Layers now = layers;
            if (now.frozen == null && now.active.bytes.get() > 0) {
                layers = new Layers(new Layer(), now.active);
            }
        } finally {
            swap.writeLock().unlock();
        }
        LockSupport.unpark(flusher);
    }

    private void flushLoop() {
        while (!closed) {
            Layer frozen = layers.frozen;
            if (frozen == null) {
                LockSupport.parkNanos(50_000_000L);
                continue;
            }
            try {
                writeOut(frozen);
                flushFailure = null;
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.ERROR, "Writing rows to the file failed; they stay in memory and the"
                        + " write is tried again in a second", e);
                flushFailure = e;
                synchronized (roomMade) {
                    roomMade.notifyAll(); // writers waiting for room learn of it
                }
                sleep(1000);
            }
        }
    }

    /** Writes every layer to the file (for tests and a clean stop). */
    public void flush() {
        for (int i = 0; i < 2; i++) {
            if (layers.frozen == null) {
                freeze();
            }
            Layer frozen = layers.frozen;
            if (frozen != null) {
                writeOut(frozen);
            }
        }
    }

    /** Writes the frozen layer to the file in one transaction, then lets it go. */
    private void writeOut(Layer frozen) {
        synchronized (flushing) {
            if (layers.frozen != frozen) {
                return; // written meanwhile
            }
            file.write(frozen.changes(dropped));
            swap.writeLock().lock();
            try {
                layers = new Layers(layers.active, null);
            } finally {
                swap.writeLock().unlock();
            }
            flushes.incrementAndGet();
        }
        synchronized (roomMade) {
            roomMade.notifyAll();
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private record Layers(Layer active, Layer frozen) {
    }

    /** Writes in memory not yet in the file: a sorted map per store. */
    private static final class Layer {
        private static final MVMap<byte[], byte[]> EMPTY = new MVStore.Builder().open()
                .openMap("empty", new MVMap.Builder<byte[], byte[]>().keyType(ByteArrays.TYPE).valueType(ByteArrays.TYPE));
        private final MVStore store = new MVStore.Builder().open();
        private final Map<Integer, MVMap<byte[], byte[]>> maps = new ConcurrentHashMap<>();
        final AtomicLong bytes = new AtomicLong();

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

        /** The rows to write, store by store in key order, leaving out dropped stores. */
        Iterable<SqliteRows.Change> changes(Map<Integer, Boolean> dropped) {
            List<Integer> ids = new ArrayList<>(maps.keySet());
            Collections.sort(ids);
            return () -> ids.stream()
                    .filter(id -> !dropped.containsKey(id))
                    .flatMap(id -> {
                        MVMap<byte[], byte[]> map = maps.get(id);
                        if (map == null) {
                            return java.util.stream.Stream.empty();
                        }
                        return map.entrySet().stream()
                                .map(e -> new SqliteRows.Change(id, e.getKey(), e.getValue()));
                    })
                    .iterator();
        }
    }

    /** One table's or index's rows. */
    private static final class Rows implements RowStore {
        private final DiskRows disk;
        private final int id;

        Rows(DiskRows disk, int id) {
            this.disk = disk;
            this.id = id;
        }

        @Override
        public StoredItem get(RowKey key) {
            return disk.items.item(disk.get(id, KeyBytes.of(key)));
        }

        @Override
        public StoredItem put(RowKey key, StoredItem item) {
            byte[] bytes = KeyBytes.of(key);
            StoredItem before = disk.items.item(disk.get(id, bytes));
            disk.write(id, bytes, disk.items.of(item));
            return before;
        }

        @Override
        public StoredItem remove(RowKey key) {
            byte[] bytes = KeyBytes.of(key);
            StoredItem before = disk.items.item(disk.get(id, bytes));
            if (before != null) {
                disk.write(id, bytes, null);
            }
            return before;
        }

        @Override
        public void write(RowKey key, StoredItem item) {
            disk.write(id, KeyBytes.of(key), item == null ? null : disk.items.of(item));
        }

        @Override
        public Iterator<StoredItem> items(RowKey low, boolean lowInclusive, RowKey high, boolean highInclusive,
                                          boolean descending) {
            return walk(low, lowInclusive, high, highInclusive, descending, (k, v) -> disk.items.item(v));
        }

        @Override
        public Iterator<Row> rows(RowKey low, boolean lowInclusive, RowKey high, boolean highInclusive,
                                  boolean descending) {
            return walk(low, lowInclusive, high, highInclusive, descending,
                    (k, v) -> new Row(KeyBytes.decode(k), disk.items.item(v)));
        }

        private <T> Iterator<T> walk(RowKey low, boolean lowInclusive, RowKey high, boolean highInclusive,
                                     boolean descending, BiFunction<byte[], byte[], T> read) {
            // half open: an excluded low starts right after it, an included high ends right after it
            byte[] lowBytes = low == null ? REMOVED : after(KeyBytes.of(low), !lowInclusive);
            byte[] highBytes = high == null ? null : after(KeyBytes.of(high), highInclusive);
            return disk.range(id, lowBytes, highBytes, descending, read);
        }

        private static byte[] after(byte[] key, boolean next) {
            return next ? Arrays.copyOf(key, key.length + 1) : key;
        }
    }

    /** One shard's records, by sequence number as 8 bytes big-endian (the numbers are positive). */
    private final class Records implements RecordLog {
        private final Rows rows;

        Records(RowStore rows) {
            this.rows = (Rows) rows;
        }

        @Override
        public void add(ChangeRecord record) {
            write(rows.id, sequenceKey(record.sequence()), recordBytes.of(record));
        }

        @Override
        public ChangeRecord first() {
            Iterator<ChangeRecord> first = from(0);
            return first.hasNext() ? first.next() : null;
        }

        @Override
        public void remove(long sequence) {
            write(rows.id, sequenceKey(sequence), null);
        }

        @Override
        public Iterator<ChangeRecord> from(long sequence) {
            return range(rows.id, sequenceKey(Math.max(0, sequence)), null, false, (k, v) -> recordBytes.record(v));
        }

        private byte[] sequenceKey(long sequence) {
            return ByteBuffer.allocate(8).putLong(sequence).array();
        }
    }
}
