package dev.moviegraph.engine.store;

import dev.moviegraph.engine.stream.Streams;
import dev.moviegraph.engine.table.ChangeListener;
import dev.moviegraph.engine.table.StoredItem;
import dev.moviegraph.engine.table.Table;
import dev.moviegraph.engine.table.TableSpec;
import dev.moviegraph.engine.table.Tables;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Supplier;

import static dev.moviegraph.engine.store.JournalRecords.ATOMIC;
import static dev.moviegraph.engine.store.JournalRecords.beginFrame;
import static dev.moviegraph.engine.store.JournalRecords.encodeChange;
import static dev.moviegraph.engine.store.JournalRecords.insertStreamPart;

/**
 * Durability for {@code --data-dir}: every table declaration, item change and stream record goes to an
 * append-only journal in the folder before the request that made it is answered, and a restart replays
 * it, so the engine serves the same tables, indexes, items, time to live settings and streams again.
 *
 * <h2>What survives what</h2>
 * A change is handed to the operating system ({@code write()}) before the listener returns, which is before
 * the client hears of it: a killed process ({@code kill -9}, a crash, an {@code OutOfMemoryError}) loses no
 * acknowledged write. A power loss or kernel crash can lose what the OS had not written to the disk yet,
 * by default up to the last few seconds (the kernel's writeback delay); never a partial record, since each
 * record carries its CRC and a torn tail is dropped at the next start. {@link Options#withFsyncEveryWrite()}
 * makes every acknowledged write survive power loss too (an {@code fsync} per group of concurrent writes:
 * slower, by the disk's flush latency), {@link Options#withFsyncEvery(Duration)} bounds the loss to an
 * interval. Default: no fsync.
 *
 * <h2>Layout of the folder</h2>
 * <ul>
 *   <li>{@code engine.lock}: held (an OS file lock) while an engine uses the folder, so a second one is refused.</li>
 *   <li>{@code journal-N.log}: segments, the changes in the order they were made (see {@link LogFile} for the
 *       framing); one is appended to, older ones are only read.</li>
 *   <li>{@code snapshot-N.log}: everything segments up to N said, compacted: the stream history still within
 *       the retention (section HISTORY, for the streams only), then the tables and items as they stood
 *       (section STATE). A start replays the newest snapshot, then the segments after it.</li>
 * </ul>
 * When the segments written since the last snapshot outgrow it (and a floor, {@link Options#compactAfterBytes}),
 * a background compaction seals the current segment, writes the next snapshot from the live tables while
 * writes go on, then deletes what it replaces. A snapshot is complete once renamed into place; a crash while
 * writing one leaves the previous snapshot and the segments, which still say everything.
 *
 * <h2>Records</h2>
 * DECLARE (a table's spec as TableApi declared it), DROP (a table deleted), CHANGE (an item's new image or its
 * key when deleted; for a table whose stream made a record, the record's sequence number and time and, for
 * views with old images, the old image), ATOMIC (several changes that replay all or none), SECTION and
 * SEQUENCE (snapshots only). Tables are numbered by the journal (one number per TableId), so a change names its
 * table in a byte or two, and a write racing its table's deletion cannot land in a table re-created later.
 *
 * <h2>Streams</h2>
 * {@link #listener(Streams)} is the tables' change listener: it lets Streams make the change's record and
 * appends the journal record in one step under the journal's append lock, so the journal holds stream records
 * in sequence-number order. Replay re-makes each through {@link Streams#replayNext} with its number and
 * time, so labels, ARNs, event ids, numbers, order, shard ids and images come out as they were. Not yet exact:
 * the time kept is the clock read just before Streams reads its own (Streams does not tell it), so a record's
 * ApproximateCreationDateTime can come back a second earlier when a second turned in between.
 *
 * <h2>Rows on disk</h2>
 * With {@link DiskRows}, a start takes the rows file up from its last checkpoint ({@link Checkpoint}) and replays
 * only the segments from the checkpoint's place on; without one it can trust, it replays everything into a new
 * file.
 */
public final class Journal implements AutoCloseable {
    /**
     * How the journal writes.
     *
     * @param fsyncEveryWrite   fsync before a write is acknowledged (group commit shares one among concurrent writes)
     * @param fsyncInterval     fsync this often in the background; null: never (ignored with fsyncEveryWrite)
     * @param streamRetention   how long stream records are kept through compactions (the engine's stream retention)
     * @param compactAfterBytes compact once the segments since the last snapshot exceed this and the snapshot's size
     */
    public record Options(boolean fsyncEveryWrite, Duration fsyncInterval, Duration streamRetention,
                          long compactAfterBytes) {
        public Options {
            if (fsyncInterval != null && (fsyncInterval.isNegative() || fsyncInterval.isZero())) {
                throw new IllegalArgumentException("fsyncInterval must be positive: " + fsyncInterval);
            }
            if (streamRetention == null || streamRetention.isNegative()) {
                throw new IllegalArgumentException("streamRetention must be positive: " + streamRetention);
            }
            if (compactAfterBytes < 0) {
                throw new IllegalArgumentException("compactAfterBytes must not be negative: " + compactAfterBytes);
            }
        }

        /** No fsync, DynamoDB's 24 hours of stream records, compaction from 64 MB of segments. */
        public static Options defaults() {
            return new Options(false, null, Duration.ofHours(24), 64L << 20);
        }

        public Options withFsyncEveryWrite() {
            return new Options(true, null, streamRetention, compactAfterBytes);
        }

        public Options withFsyncEvery(Duration interval) {
            return new Options(false, interval, streamRetention, compactAfterBytes);
        }

        public Options withStreamRetention(Duration retention) {
            return new Options(fsyncEveryWrite, fsyncInterval, retention, compactAfterBytes);
        }

        public Options withCompactAfterBytes(long bytes) {
            return new Options(fsyncEveryWrite, fsyncInterval, streamRetention, bytes);
        }
    }

    /** What the last replay did, for logs and tests. */
    public record ReplayStats(long records, long bytes, long tables, long items, long millis, long droppedTailBytes) {
    }

    private final Path dir;
    private final Options options;
    /** The folder held; null for an in-memory engine (so is {@link #compactor}). */
    private final DataFolder folder;
    private final Compactor compactor;

    private volatile boolean replaying;
    private volatile boolean replayed;
    private volatile boolean closed;
    private volatile LogWriter writer;
    private Tables tables;
    private Streams streams;
    /** The rows on disk, whose checkpoints let a restart replay only the journal after them; null in memory. */
    private DiskRows rows;

    private final TableNumbers numbers = new TableNumbers();

    private Thread syncer;
    private volatile ReplayStats lastReplay;

    private final ThreadLocal<Codec.Out> outs = ThreadLocal.withInitial(() -> new Codec.Out(4096));
    private final ThreadLocal<Group> groups = new ThreadLocal<>();

    private Journal(DataFolder folder, Options options) {
        this.dir = folder == null ? null : folder.dir();
        this.options = options;
        this.folder = folder;
        this.compactor = folder == null ? null : new Compactor(this, folder, options, numbers);
    }

    /** A journal in {@code dataDir} with the default options; null keeps nothing (an in-memory engine). */
    public static Journal open(Path dataDir) {
        return open(dataDir, Options.defaults());
    }

    /**
     * Takes the folder (creating it when missing) for this engine: {@link IllegalStateException} naming it when
     * it is not a writable directory or another engine has it. Nothing is read until {@link #replay}.
     */
    public static Journal open(Path dataDir, Options options) {
        return new Journal(dataDir == null ? null : DataFolder.take(dataDir), options);
    }

    /** The folder, or null for an in-memory engine. */
    public Path dataDir() {
        return dir;
    }

    public ReplayStats lastReplay() {
        return lastReplay;
    }

    // ---- what the compaction reads

    boolean isClosed() {
        return closed;
    }

    Tables tables() {
        return tables;
    }

    Streams streams() {
        return streams;
    }

    // ---- the write side

    /**
     * The tables' change listener: Streams makes the change's stream record, and the journal records the change
     * with that record's number, both in one step so that the journal has stream records in their order. For
     * an in-memory engine this is just {@code streams}.
     */
    public ChangeListener listener(Streams streams) {
        if (dir == null) {
            return streams;
        }
        return (table, before, after, byService) -> {
            if (replaying) {
                return; // replay makes stream records itself, from what the journal says
            }
            record(table, before, after, byService, streams);
        };
    }

    /**
     * Records an item change (the journal alone; a listener that also makes stream records is {@link #listener}).
     * Called with the item locked, so an item's changes are journaled in the order they happen.
     */
    public void changed(Table table, StoredItem before, StoredItem after, boolean byService) {
        if (dir == null || replaying) {
            return;
        }
        record(table, before, after, byService, null);
    }

    /**
     * Runs {@code work} (a transaction's writes) so that its changes are journaled as one record: after a crash
     * a restart sees all of them or none. The journal's append lock is held from the first change to the end,
     * so keep the work short and never wait in it for another writer.
     */
    public <T> T atomically(Supplier<T> work) {
        if (dir == null) {
            return work.get();
        }
        Group group = groups.get();
        if (group != null) {
            group.depth++;
            try {
                return work.get();
            } finally {
                group.depth--;
            }
        }
        // the barrier from the first write to the group's record: a checkpoint sees all of them or none (taken
        // before the group is set, so a refusal for want of room leaves this thread's next writes as they were)
        java.util.concurrent.locks.Lock barrier = rows == null ? null : rows.writeBarrier();
        if (barrier != null) {
            rows.roomForWrite();
            barrier.lock();
        }
        try {
            group = new Group();
            groups.set(group);
            try {
                return work.get();
            } finally {
                groups.remove();
                finish(group);
            }
        } finally {
            if (barrier != null) {
                barrier.unlock();
            }
        }
    }

    public void atomically(Runnable work) {
        atomically(() -> {
            work.run();
            return null;
        });
    }

    private static final class Group {
        int depth;
        boolean locked;
        final Codec.Out out = new Codec.Out(4096);
    }

    private void finish(Group group) {
        if (!group.locked) {
            return;
        }
        LogWriter w = writer;
        long position;
        try {
            if (group.out.size == 0) {
                return;
            }
            Codec.Out out = outs.get();
            out.reset();
            int start = beginFrame(out);
            out.byte1(ATOMIC);
            out.raw(group.out.bytes, 0, group.out.size);
            LogFile.frame(out, start);
            position = w.addLocked(out.bytes, 0, out.size);
            shrink(out);
        } finally {
            w.unlockAppends();
        }
        w.flush(position);
        compactor.maybeCompact(writer);
    }

    private void record(Table table, StoredItem before, StoredItem after, boolean byService, Streams streams) {
        LogWriter w = requireWriter();
        TableSpec spec = table.spec();
        Integer number = numbers.of(spec);
        Group group = groups.get();
        Codec.Out out = group != null ? group.out : outs.get();
        if (group == null) {
            out.reset();
        }
        int start = out.size;
        int flagsAt = -1;
        if (number != null) {
            flagsAt = encodeChange(out, number, spec, before, after, byService, streams != null);
        }
        long position = -1;
        boolean unlock = true;
        if (group != null) {
            if (!group.locked) {
                w.lockAppends();
                group.locked = true;
            }
            unlock = false;
        } else {
            w.lockAppends();
        }
        try {
            w.checkOpen();
            if (number == null) {
                // the table's first change, before TableApi declared it; or a dropped table
                number = numbers.numberOf(table, w);
                if (number != null) {
                    flagsAt = encodeChange(out, number, spec, before, after, byService, streams != null);
                }
            }
            long lastSequence = 0;
            long millis = 0;
            if (streams != null) {
                lastSequence = streams.lastSequenceNumber();
                millis = System.currentTimeMillis();
                streams.changed(table, before, after, byService);
            }
            if (number == null) {
                out.size = start;
                return;
            }
            if (streams != null) {
                long sequence = streams.lastSequenceNumber();
                if (sequence != lastSequence) {
                    insertStreamPart(out, flagsAt, sequence, millis);
                }
            }
            LogFile.frame(out, start);
            if (group == null) {
                position = w.addLocked(out.bytes, 0, out.size);
            }
        } catch (RuntimeException | Error e) {
            out.size = start; // a group's buffer must not keep half a record
            throw e;
        } finally {
            if (unlock) {
                w.unlockAppends();
            }
        }
        if (group == null) {
            shrink(out);
            if (position >= 0) {
                w.flush(position);
                compactor.maybeCompact(writer);
            }
        }
    }

    /** A thread's buffer grown by a big item goes back to its usual size, so 256 threads do not each keep megabytes. */
    private void shrink(Codec.Out out) {
        if (out.bytes.length > 64 << 10) {
            outs.set(new Codec.Out(4096));
        }
    }

    /** A table was created or its declaration changed (indexes, their status, stream, time to live, billing). */
    public void declared(TableSpec spec) {
        if (dir == null || replaying) {
            return;
        }
        LogWriter w = requireWriter();
        w.lockAppends();
        try {
            w.checkOpen();
            numbers.declared(spec, w);
        } finally {
            w.unlockAppends();
        }
        w.flushAll();
        compactor.maybeCompact(writer);
    }

    /** A table was deleted. */
    public void deleted(String table) {
        if (dir == null || replaying) {
            return;
        }
        LogWriter w = requireWriter();
        w.lockAppends();
        try {
            w.checkOpen();
            numbers.deleted(table, tables, w);
        } finally {
            w.unlockAppends();
        }
        w.flushAll();
    }

    LogWriter requireWriter() {
        LogWriter w = writer;
        if (w == null) {
            if (closed) {
                throw new IllegalStateException("The journal in " + dir + " is closed");
            }
            throw new IllegalStateException("The journal in " + dir + " takes writes only after its replay");
        }
        return w;
    }

    // ---- replay

    /**
     * Rebuilds the tables and streams from the folder (before the engine serves), then opens the journal for
     * writes. Compacts in the background when the segments outgrew the snapshot.
     */
    public void replay(Tables tables, Streams streams) {
        if (dir == null) {
            return;
        }
        if (replayed) {
            throw new IllegalStateException("The journal in " + dir + " was replayed already");
        }
        this.tables = tables;
        this.streams = streams;
        this.rows = tables.storage() instanceof DiskRows disk ? disk : null;
        long started = System.nanoTime();
        Replayer replayer = new Replayer(tables, streams, numbers);
        replaying = true;
        Replayer.Found found = null;
        try {
            Checkpoint checkpoint = rows == null ? null : Checkpoint.readable(rows.checkpoint());
            if (checkpoint != null && Replayer.canReplayFrom(folder, checkpoint)) {
                replayer.restore(checkpoint);
                found = replayer.replayFrom(folder, checkpoint);
                restoredAt = checkpoint.generation() + ":" + checkpoint.offset();
            } else if (rows != null) {
                if (checkpoint != null) {
                    LOG.log(System.Logger.Level.WARNING, "The rows file's checkpoint names a place the journal in "
                            + dir + " no longer holds: the rows are made again from the journal");
                }
                rows.discard();
            }
            if (found == null) {
                found = replayer.replay(folder);
            }
            if (streams != null) {
                streams.replayDone();
            }
            replayer.finish();
            compactor.replayed(found.snapshot(), found.snapshotBytes(), found.sealedBytes());
            openWriter(found.appendTo(), found.validEnd(), found.snapshot());
        } catch (IOException e) {
            throw new UncheckedIOException("The journal in " + dir + " cannot be read: " + e.getMessage(), e);
        } finally {
            replaying = false;
        }
        replayed = true;
        long items = 0;
        for (Table table : tables.all()) {
            items += table.itemCount();
        }
        lastReplay = new ReplayStats(replayer.records(), replayer.bytes(), tables.all().size(), items,
                (System.nanoTime() - started) / 1_000_000, found.droppedTail());
        Replayer.activateBackfilledIndexes(tables, this::declared);
        if (rows != null) {
            rows.checkpointWith(this::checkpointPart);
            rows.checkpointSoon();
        }
        startSyncer();
        compactor.maybeCompactAtStart(writer);
    }

    private static final System.Logger LOG = System.getLogger(Journal.class.getName());

    /** Where the last replay started: "generation:offset" of a checkpoint of the rows, or null for the beginning. */
    private volatile String restoredAt;

    /** The checkpoint of the last start's rows it replayed after ("generation:offset"), or null: it replayed all. */
    public String restoredAt() {
        return restoredAt;
    }

    /**
     * The journal's part of a checkpoint of the rows, asked while no write runs: the place the journal is at and
     * what it keeps of tables and streams. Null while there is no place to give (replaying, closed).
     */
    private byte[] checkpointPart() {
        LogWriter w = writer;
        if (w == null || closed || replaying) {
            return null;
        }
        w.lockAppends();
        try {
            return closed ? null : Checkpoint.of(w, numbers, tables, streams).encode();
        } finally {
            w.unlockAppends();
        }
    }

    /**
     * Writes the rows out with a checkpoint at the journal's place now (a compaction before it deletes segments, a
     * clean stop), so a restart replays nothing before it. Nothing for rows in memory.
     */
    public void checkpoint() {
        DiskRows disk = rows;
        if (disk != null && replayed && !closed) {
            disk.checkpointNow();
        }
    }

    private void openWriter(long generation, long validEnd, long snapshot) throws IOException {
        RandomAccessFile file;
        if (generation < 0) {
            generation = snapshot + 1;
            file = folder.newSegment(generation, options.fsyncEveryWrite());
        } else {
            file = new RandomAccessFile(folder.resolve(LogFile.segmentName(generation)).toFile(), "rw");
            if (validEnd < LogFile.HEADER) {
                file.setLength(0);
                file.write(LogFile.header(generation));
            } else {
                file.setLength(validEnd); // a torn tail goes, or new records would follow garbage
                file.seek(validEnd);
            }
        }
        writer = new LogWriter(file, generation, options.fsyncEveryWrite());
    }

    /**
     * Seals the current segment and writes a snapshot replacing it and everything before it, while writes go
     * on; then deletes what it replaced. Synchronous (the background compaction calls it too).
     */
    public void compact() {
        if (dir == null) {
            return;
        }
        if (!replayed) {
            throw new IllegalStateException("The journal in " + dir + " compacts only after its replay");
        }
        compactor.compactNow();
    }

    // ---- fsync on an interval, close

    private void startSyncer() {
        Duration interval = options.fsyncInterval();
        if (interval != null && !options.fsyncEveryWrite()) {
            syncer = writer.syncEvery(interval);
        }
    }

    /** Writes out what is pending, syncs and closes the journal file, and lets go of the folder. */
    @Override
    public void close() {
        if (dir == null || closed) {
            return;
        }
        closed = true;
        compactor.stopThen(this::closeFiles);
    }

    /** Under the compaction's lock: no compaction runs. */
    private void closeFiles() {
        if (syncer != null) {
            syncer.interrupt();
        }
        IOException failure = null;
        LogWriter w = writer;
        if (w != null) {
            try {
                w.close();
            } catch (IOException e) {
                failure = e;
            }
        }
        writer = null;
        folder.release();
        if (failure != null) {
            throw new UncheckedIOException("The journal in " + dir + " could not be closed cleanly: " + failure,
                    failure);
        }
    }
}
