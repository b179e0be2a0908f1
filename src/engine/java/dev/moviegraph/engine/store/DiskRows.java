package dev.moviegraph.engine.store;

import dev.moviegraph.engine.stream.ChangeRecord;
import dev.moviegraph.engine.stream.RecordLog;
import dev.moviegraph.engine.table.KeyBytes;
import dev.moviegraph.engine.table.RowKey;
import dev.moviegraph.engine.table.RowStore;
import dev.moviegraph.engine.table.Storage;
import dev.moviegraph.engine.table.StoredItem;
import org.h2.mvstore.MVMap;

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
 * heap holds about two layers (a writer waits while a full layer is still being written), whatever the data.
 *
 * <p>Each layer is written with a checkpoint (the journal's place and what it keeps of tables and streams, with
 * the names and store numbers the rows are written in), taken at the freeze while no write runs: a restart takes
 * the file up from it ({@link #checkpoint}) and replays the journal after it.
 *
 * <p>A point read sees the item as last written. A range read sees each item as committed when the walk
 * reaches it (the file is read a page at a time), as a DynamoDB Query does; it never sees an item twice.
 */
public final class DiskRows implements Storage, AutoCloseable {
    private static final System.Logger LOG = System.getLogger(DiskRows.class.getName());
    private static final byte[] REMOVED = new byte[0];


    private final Path path;
    private final int readers;
    private final int cacheKib;
    private volatile SqliteRows file;
    private final long layerBytes;
    private final Names names = new Names();
    private final ItemBytes items = new ItemBytes(names);
    private final RecordBytes recordBytes = new RecordBytes(names);
    private final Map<String, Integer> storeIds = new ConcurrentHashMap<>();
    private final Map<Integer, Boolean> dropped = new ConcurrentHashMap<>();
    private final AtomicInteger nextStore = new AtomicInteger(1);
    /** Writers hold it shared while writing to the active layer; the flush holds it alone to swap layers. */
    private final ReentrantReadWriteLock swap = new ReentrantReadWriteLock();
    /**
     * Held shared by each whole write (the tables' rows, indexes, stream record and journal record), alone by a
     * freeze: so a frozen layer holds whole writes only, all of them journaled before the checkpoint's place.
     */
    private final ReentrantReadWriteLock barrier = new ReentrantReadWriteLock();
    /** What the journal keeps beside a checkpoint, asked at each freeze (null: no checkpoint, during a replay). */
    private volatile java.util.function.Supplier<byte[]> checkpointSource;
    private volatile boolean checkpointWanted;
    /** The journal's part of the checkpoint the file held at open; null when none. */
    private volatile byte[] saved;
    /** Held by the flush and by {@link #drop}, so a dropped store's rows are never written back. */
    private final Object flushing = new Object();
    private final Object roomMade = new Object();
    private final Thread flusher;
    private volatile Layers layers = new Layers(new Layer(), null);
    private volatile boolean closed;
    /** Why the last write of a layer to the file failed, until one succeeds; null when the last one did. */
    private volatile RuntimeException flushFailure;
    private final AtomicLong flushes = new AtomicLong();
    private final AtomicLong longestFreeze = new AtomicLong();
    private final RecordLog.Logs records = new RecordLog.Logs() {
        @Override
        public RecordLog open(String name) {
            return new Records(DiskRows.this.open("records:" + name));
        }

        @Override
        public void drop(String name) {
            // a shard's records, dropped under its stream's lock: no barrier (a writer may wait for that lock);
            // a checkpoint that still names the expired shard finds it empty and drops it again
            dropStore("records:" + name, false);
        }
    };

    private DiskRows(Path path, int readers, int cacheKib, SqliteRows file, long layerBytes) {
        this.path = path;
        this.readers = readers;
        this.cacheKib = cacheKib;
        this.file = file;
        this.layerBytes = layerBytes;
        readCheckpoint();
        this.flusher = new Thread(this::flushLoop, "engine-rows-flush");
        this.flusher.setDaemon(true);
        this.flusher.start();
    }

    /**
     * Rows in {@code dir/rows.db} as the last checkpoint left them ({@link #checkpoint()}: the journal trusts them
     * or has them {@link #discard}ed), with layers of {@code layerBytes} and SQLite's page cache of {@code cacheKib}
     * in all ({@code readers} reading connections and one writing).
     */
    public static DiskRows open(Path dir, long layerBytes, int readers, int cacheKib) {
        Path path = dir.resolve("rows.db");
        try {
            return new DiskRows(path, readers, cacheKib, SqliteRows.open(path, readers, cacheKib), layerBytes);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot open the rows file in " + dir + ": " + e.getMessage(), e);
        }
    }

    /** Whether rows can live on disk on this machine (SQLite's native library loads). */
    public static boolean available() {
        return SqliteRows.available();
    }

    // ---- checkpoints

    /** Reads the file's checkpoint: takes up its names and store numbers, keeps the journal's part for it. */
    private void readCheckpoint() {
        byte[] bytes = file.get(Layer.META_STORE, Layer.CHECKPOINT_KEY);
        if (bytes == null) {
            return;
        }
        try {
            RowsCheckpoint kept = RowsCheckpoint.decode(bytes);
            names.restore(kept.names());
            storeIds.putAll(kept.storeIds());
            nextStore.set(kept.nextStore());
            kept.dropped().forEach(id -> dropped.put(id, Boolean.TRUE));
            saved = kept.journalPart();
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "The checkpoint in " + file.file() + " cannot be read ("
                    + e.getMessage() + "): the rows are made again from the journal");
            saved = null;
        }
    }

    /** The journal's part of the checkpoint the file held when opened, or null: what the journal decides on. */
    byte[] checkpoint() {
        return saved;
    }

    /**
     * The file cannot be trusted (no checkpoint, or the journal cannot replay from it): it is made again, empty,
     * before the journal replays everything into it. Called before any store is opened.
     */
    void discard() {
        synchronized (flushing) {
            saved = null;
            storeIds.clear();
            dropped.clear();
            nextStore.set(1);
            names.restore(List.of());
            layers = new Layers(new Layer(), null);
            file.close();
            try {
                file = SqliteRows.create(path, readers, cacheKib);
            } catch (SQLException e) {
                throw new IllegalStateException("cannot make the rows file " + path + " again: " + e.getMessage(), e);
            }
        }
    }

    /**
     * From now on each layer written carries a checkpoint: {@code source} is asked, while no write runs, for the
     * journal's part (its place and what it keeps of tables and streams); null from it writes none.
     */
    void checkpointWith(java.util.function.Supplier<byte[]> source) {
        saved = null;
        checkpointSource = source;
    }

    /** Asks the flush thread for a checkpoint soon, whether or not a layer is full. */
    void checkpointSoon() {
        checkpointWanted = true;
        LockSupport.unpark(flusher);
    }

    /**
     * Writes a checkpoint now: whatever layer is frozen, then the active one with the journal's part. Never call it
     * while writing (holding {@link #writeBarrier}).
     */
    public void checkpointNow() {
        while (!closed) {
            Layer frozen = layers.frozen;
            if (frozen != null) {
                writeOut(frozen);
                continue;
            }
            Layer mine = freeze(true);
            if (mine != null) {
                writeOut(mine);
                return;
            }
        }
    }

    /** The checkpoint's row: the names and store numbers the rows are written with, then the journal's part. */
    private byte[] checkpointRow(byte[] journalPart) {
        return new RowsCheckpoint(names.numbered(), Map.copyOf(storeIds), nextStore.get(),
                List.copyOf(dropped.keySet()), journalPart).encode();
    }

    @Override
    public java.util.concurrent.locks.Lock writeBarrier() {
        return barrier.readLock();
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
        dropStore(name, true);
    }

    /**
     * Forgets a store: its rows in the active layer now, those in the file in the transaction that writes the
     * active layer, so with the checkpoint of that layer's freeze, which ({@code barred}: the drop holds writes
     * off) comes after the drop; the frozen layer's rows of it, if written, go in that same transaction.
     */
    private void dropStore(String name, boolean barred) {
        Integer id = storeIds.remove(name);
        if (id == null) {
            return;
        }
        if (barred) {
            barrier.writeLock().lock();
        }
        try {
            dropped.put(id, Boolean.TRUE);
            Layer active = layers.active;
            active.forget(id);
            active.drops.add(id);
        } finally {
            if (barred) {
                barrier.writeLock().unlock();
            }
        }
    }

    @Override
    public void close() {
        if (!closed && flushes.get() > 0) {
            LOG.log(System.Logger.Level.INFO, flushes.get() + " layers written to " + file.file()
                    + " with their checkpoints; the longest freeze held writes off " + longestFreezeMillis() + " ms");
        }
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

    /** {@code mayFreeze}: the caller holds no lock a writer might wait for (a stream's records' writer does). */
    void write(int store, byte[] key, byte[] value, boolean mayFreeze) {
        if (dropped.containsKey(store) || closed) {
            return; // a write racing its table's deletion lands nowhere, as DynamoDB's would
        }
        makeRoom(mayFreeze);
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
     * Before a table's write takes the barrier (the item's lock held, no other): a full active layer is frozen, or
     * the write waits while the last one frozen is still being written. So the heap holds about two layers.
     */
    @Override
    public void roomForWrite() {
        makeRoom(true);
    }

    /**
     * A full active layer is frozen by the writer that finds it so when it may ({@code mayFreeze}: it holds no lock
     * a writer may wait for, and it is not inside a write, whose barrier a freeze waits for); such a writer finding
     * it full while the last one is still being written waits for that, which needs no barrier. Any other writer
     * wakes the flush thread and goes on.
     */
    private void makeRoom(boolean mayFreeze) {
        if (closed || layers.active.bytes.get() < layerBytes) {
            return;
        }
        if (!mayFreeze || barrier.getReadHoldCount() > 0) {
            // inside a write, or holding a lock a writer may wait for: neither freeze nor wait (the flush thread
            // may be waiting for this very write to let the barrier go); the layer runs over by this write's rows
            LockSupport.unpark(flusher);
            return;
        }
        while (!closed && layers.active.bytes.get() >= layerBytes) {
            if (layers.frozen == null) {
                freeze(false);
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

    /**
     * The active layer becomes the frozen one, when there is none, with the checkpoint of that moment: taken holding
     * writes off ({@link #barrier}), so the layer holds whole writes, each journaled before the checkpoint's place.
     * Returns the layer frozen, or null (one was frozen already, or {@code evenEmpty} is false and it is empty).
     */
    private Layer freeze(boolean evenEmpty) {
        long asked = System.nanoTime(); // new writes wait from here: the lock is asked for
        barrier.writeLock().lock();
        try {
            Layers now = layers;
            if (now.frozen != null || !evenEmpty && now.active.bytes.get() == 0) {
                return null;
            }
            java.util.function.Supplier<byte[]> source = checkpointSource;
            byte[] journalPart = source == null ? null : source.get();
            now.active.checkpoint = journalPart == null ? REMOVED : checkpointRow(journalPart);
            swap.writeLock().lock();
            try {
                layers = new Layers(new Layer(), now.active);
            } finally {
                swap.writeLock().unlock();
            }
            return now.active;
        } finally {
            barrier.writeLock().unlock();
            longestFreeze.accumulateAndGet(System.nanoTime() - asked, Math::max);
        }
    }

    /** The longest time a freeze held writes off (asking for the barrier, then holding it), in milliseconds. */
    public double longestFreezeMillis() {
        return longestFreeze.get() / 1e6;
    }

    private void flushLoop() {
        while (!closed) {
            Layer frozen = layers.frozen;
            if (frozen == null) {
                boolean wanted = checkpointWanted;
                if (wanted || layers.active.bytes.get() >= layerBytes) {
                    checkpointWanted = false;
                    try {
                        freeze(wanted);
                    } catch (RuntimeException e) {
                        LOG.log(System.Logger.Level.ERROR, "Freezing a layer of rows failed", e);
                        sleep(1000);
                    }
                    continue;
                }
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

    /** Writes the frozen layer to the file in one transaction, then lets it go. */
    private void writeOut(Layer frozen) {
        synchronized (flushing) {
            if (layers.frozen != frozen) {
                return; // written meanwhile
            }
            file.write(frozen.changes(dropped), frozen.drops);
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
            disk.write(id, bytes, disk.items.of(item), true);
            return before;
        }

        @Override
        public StoredItem remove(RowKey key) {
            byte[] bytes = KeyBytes.of(key);
            StoredItem before = disk.items.item(disk.get(id, bytes));
            if (before != null) {
                disk.write(id, bytes, null, true);
            }
            return before;
        }

        @Override
        public void write(RowKey key, StoredItem item) {
            disk.write(id, KeyBytes.of(key), item == null ? null : disk.items.of(item), true);
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
            write(rows.id, sequenceKey(record.sequence()), recordBytes.of(record), false);
        }

        @Override
        public ChangeRecord first() {
            Iterator<ChangeRecord> first = from(0);
            return first.hasNext() ? first.next() : null;
        }

        @Override
        public void remove(long sequence) {
            write(rows.id, sequenceKey(sequence), null, false);
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
