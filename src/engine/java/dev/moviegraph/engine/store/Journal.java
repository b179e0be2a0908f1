package dev.moviegraph.engine.store;

import dev.moviegraph.engine.stream.Streams;
import dev.moviegraph.engine.table.ChangeListener;
import dev.moviegraph.engine.table.IndexSpec;
import dev.moviegraph.engine.table.ItemLocks;
import dev.moviegraph.engine.table.RowKey;
import dev.moviegraph.engine.table.StoredItem;
import dev.moviegraph.engine.table.Table;
import dev.moviegraph.engine.table.TableSpec;
import dev.moviegraph.engine.table.Tables;
import dev.moviegraph.engine.value.Sizes;
import dev.moviegraph.engine.value.Value;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

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
 * time, so labels, ARNs, event ids, numbers, order and images come out as they were. Not yet exact: the time
 * kept is the clock read just before Streams reads its own (Streams does not tell it), so a record's
 * ApproximateCreationDateTime can come back a second earlier when a second turned in between; and shards
 * that readers' maintenance closed (not journaled) are re-cut at the next record's time, with other ids, an
 * empty shard's end then taking the number its successor record had (that record moves up by one).
 */
public final class Journal implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(Journal.class.getName());

    static final int DECLARE = 1;
    static final int DROP = 2;
    static final int CHANGE = 3;
    static final int ATOMIC = 4;
    static final int SECTION = 5;
    static final int SEQUENCE = 6;

    static final int F_DELETE = 1;
    static final int F_BY_SERVICE = 2;
    static final int F_HAD_BEFORE = 4;
    static final int F_OLD_IMAGE = 8;
    static final int F_STREAMED = 16;

    /** Snapshot sections: stream history (streams only), table state (tables only), and the end mark. */
    static final int HISTORY = 1;
    static final int STATE = 2;
    static final int END = 3;
    /** Segments replay in this mode: tables and streams both. */
    static final int LIVE = 0;

    private static final String LOCK_FILE = "engine.lock";
    private static final int START_COMPACT_FLOOR = 1 << 20;

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
    private final FileChannel lockChannel;
    private final FileLock lock;

    private volatile boolean replaying;
    private volatile boolean replayed;
    private volatile boolean closed;
    private volatile LogWriter writer;
    private Tables tables;
    private Streams streams;

    /** Journal number of each live table, by its identity ({@link #identity}). */
    private final Map<String, Integer> numbers = new ConcurrentHashMap<>();
    private final Map<String, String> identityByName = new ConcurrentHashMap<>();
    /** Identities of deleted tables: a late write to one is not journaled (it went to a table no one can see). */
    private final Set<String> droppedIdentities = ConcurrentHashMap.newKeySet();
    /** When each dropped table number was dropped, so compaction can forget its stream history past retention. */
    private final Map<Integer, Long> dropTimes = new ConcurrentHashMap<>();
    /** Guarded by the append lock. */
    private int nextNumber = 1;

    private final Object compaction = new Object();
    private final AtomicBoolean compacting = new AtomicBoolean();
    private volatile Thread compactor;
    /** The newest snapshot's generation (-1: none) and size; segments after it, sealed, and their bytes. */
    private volatile long snapshotGeneration = -1;
    private volatile long snapshotBytes;
    private volatile long sealedBytes;
    private Thread syncer;
    private volatile ReplayStats lastReplay;

    private final ThreadLocal<Codec.Out> outs = ThreadLocal.withInitial(() -> new Codec.Out(4096));
    private final ThreadLocal<Group> groups = new ThreadLocal<>();

    private Journal(Path dir, Options options, FileChannel lockChannel, FileLock lock) {
        this.dir = dir;
        this.options = options;
        this.lockChannel = lockChannel;
        this.lock = lock;
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
        if (dataDir == null) {
            return new Journal(null, options, null, null);
        }
        Path dir = dataDir.toAbsolutePath();
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw new IllegalStateException("The data folder " + dir + " is not a directory");
        }
        try {
            Files.createDirectories(dir);
        } catch (FileAlreadyExistsException | NotDirectoryException e) {
            throw new IllegalStateException("The data folder " + dir + " cannot be created: " + e.getFile()
                    + " is not a directory", e);
        } catch (IOException | SecurityException e) {
            throw new IllegalStateException("The data folder " + dir + " cannot be created: " + e, e);
        }
        if (!Files.isWritable(dir)) {
            throw new IllegalStateException("The data folder " + dir + " is not writable");
        }
        Path lockFile = dir.resolve(LOCK_FILE);
        FileChannel channel;
        try {
            channel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.READ,
                    StandardOpenOption.WRITE);
        } catch (IOException | SecurityException e) {
            throw new IllegalStateException("The data folder " + dir + " is not writable: " + e, e);
        }
        FileLock lock;
        try {
            lock = channel.tryLock();
        } catch (OverlappingFileLockException e) {
            lock = null;
        } catch (IOException e) {
            closeQuietly(channel);
            throw new IllegalStateException("The data folder " + dir + " cannot be locked: " + e, e);
        }
        if (lock == null) {
            String holder = holder(channel);
            closeQuietly(channel);
            throw new IllegalStateException("The data folder " + dir + " is in use by another engine" + holder
                    + "; stop that one first or give this one another folder");
        }
        try {
            channel.truncate(0);
            channel.write(ByteBuffer.wrap(("pid " + ProcessHandle.current().pid() + "\n")
                    .getBytes(StandardCharsets.US_ASCII)), 0);
        } catch (IOException e) {
            // only informative
        }
        return new Journal(dir, options, channel, lock);
    }

    private static String holder(FileChannel channel) {
        try {
            ByteBuffer buffer = ByteBuffer.allocate(64);
            channel.read(buffer, 0);
            String text = new String(buffer.array(), 0, buffer.position(), StandardCharsets.US_ASCII).trim();
            return text.isEmpty() ? "" : " (" + text + (text.contains(Long.toString(ProcessHandle.current().pid()))
                    ? ", this same process" : "") + ")";
        } catch (IOException e) {
            return "";
        }
    }

    /** The folder, or null for an in-memory engine. */
    public Path dataDir() {
        return dir;
    }

    public ReplayStats lastReplay() {
        return lastReplay;
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
        group = new Group();
        groups.set(group);
        try {
            return work.get();
        } finally {
            groups.remove();
            finish(group);
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
        maybeCompact();
    }

    private void record(Table table, StoredItem before, StoredItem after, boolean byService, Streams streams) {
        LogWriter w = requireWriter();
        TableSpec spec = table.spec();
        String identity = identity(spec);
        Integer number = numbers.get(identity);
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
                number = numberOf(table, w); // the table's first change, before TableApi declared it; or a dropped table
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
                maybeCompact();
            }
        }
    }

    /** Appends a CHANGE record (framed by the caller) to {@code out}; returns where its flags byte is. */
    private static int encodeChange(Codec.Out out, int number, TableSpec spec, StoredItem before, StoredItem after,
                                    boolean byService, boolean streams) {
        beginFrame(out);
        out.byte1(CHANGE);
        out.varint(number);
        int flagsAt = out.size;
        int flags = (after == null ? F_DELETE : 0) | (byService ? F_BY_SERVICE : 0) | (before != null ? F_HAD_BEFORE : 0);
        String view = spec.streamViewType();
        boolean oldImage = streams && before != null && view != null
                && (view.equals("OLD_IMAGE") || view.equals("NEW_AND_OLD_IMAGES"));
        if (oldImage) {
            flags |= F_OLD_IMAGE;
        }
        out.byte1(flags);
        if (after != null) {
            Codec.item(out, after.attributes());
        } else if (before != null) {
            Codec.item(out, spec.key().keyAttributes(before.attributes()));
        } else {
            Codec.item(out, Map.of());
        }
        if (oldImage) {
            Codec.item(out, before.attributes());
        }
        return flagsAt;
    }

    /** Marks the change streamed and puts the record's number and time right after the flags. */
    private static void insertStreamPart(Codec.Out out, int flagsAt, long sequence, long millis) {
        out.bytes[flagsAt] |= F_STREAMED;
        int tailStart = flagsAt + 1;
        int tailLength = out.size - tailStart;
        int mark = out.size;
        out.varint(sequence);
        out.varint(millis);
        int partLength = out.size - mark;
        byte[] part = new byte[partLength];
        System.arraycopy(out.bytes, mark, part, 0, partLength);
        System.arraycopy(out.bytes, tailStart, out.bytes, tailStart + partLength, tailLength);
        System.arraycopy(part, 0, out.bytes, tailStart, partLength);
    }

    private static int beginFrame(Codec.Out out) {
        int start = out.size;
        out.int4(0);
        out.int4(0);
        return start;
    }

    /** A thread's buffer grown by a big item goes back to its usual size, so 256 threads do not each keep megabytes. */
    private void shrink(Codec.Out out) {
        if (out.bytes.length > 64 << 10) {
            outs.set(new Codec.Out(4096));
        }
    }

    /** Append lock held: the table's number, declaring it first when new; null for a table already deleted. */
    private Integer numberOf(Table table, LogWriter w) {
        TableSpec spec = table.spec();
        String identity = identity(spec);
        Integer number = numbers.get(identity);
        if (number != null) {
            return number;
        }
        if (droppedIdentities.contains(identity)) {
            return null;
        }
        return declareLocked(spec, w);
    }

    /** Append lock held: assigns a number when new and appends the declaration (flushed by the caller). */
    private int declareLocked(TableSpec spec, LogWriter w) {
        String identity = identity(spec);
        Integer number = numbers.get(identity);
        if (number == null) {
            number = nextNumber++;
            numbers.put(identity, number);
            String previous = identityByName.put(spec.name(), identity);
            if (previous != null && !previous.equals(identity)) {
                // a table of that name deleted, its deletion not told yet (it races this creation): drop it now
                Integer old = numbers.remove(previous);
                droppedIdentities.add(previous);
                if (old != null) {
                    appendDrop(old, w);
                }
            }
        }
        Codec.Out out = new Codec.Out(512);
        int start = beginFrame(out);
        out.byte1(DECLARE);
        out.varint(number);
        out.varint(System.currentTimeMillis());
        Codec.spec(out, spec);
        LogFile.frame(out, start);
        w.addLocked(out.bytes, 0, out.size);
        return number;
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
            String identity = identity(spec);
            if (droppedIdentities.contains(identity)) {
                if (spec.tableId() != null) {
                    return; // a late declaration of a deleted table (a backfill finishing after the deletion)
                }
                droppedIdentities.remove(identity); // no TableId: a table re-created under the name
            }
            declareLocked(spec, w);
        } finally {
            w.unlockAppends();
        }
        w.flushAll();
        maybeCompact();
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
            String identity = identityByName.get(table);
            Table current = tables == null ? null : tables.find(table);
            if (identity == null || current != null && identity(current.spec()).equals(identity)) {
                return; // never journaled, or the table of that name now is a newer one (the older was dropped)
            }
            identityByName.remove(table);
            Integer number = numbers.remove(identity);
            droppedIdentities.add(identity);
            if (number != null) {
                appendDrop(number, w);
            }
        } finally {
            w.unlockAppends();
        }
        w.flushAll();
    }

    /** Append lock held. */
    private void appendDrop(int number, LogWriter w) {
        long millis = System.currentTimeMillis();
        dropTimes.put(number, millis);
        Codec.Out out = new Codec.Out(32);
        int start = beginFrame(out);
        out.byte1(DROP);
        out.varint(number);
        out.varint(millis);
        LogFile.frame(out, start);
        w.addLocked(out.bytes, 0, out.size);
    }

    private LogWriter requireWriter() {
        LogWriter w = writer;
        if (w == null) {
            if (closed) {
                throw new IllegalStateException("The journal in " + dir + " is closed");
            }
            throw new IllegalStateException("The journal in " + dir + " takes writes only after its replay");
        }
        return w;
    }

    static String identity(TableSpec spec) {
        return spec.tableId() != null ? spec.tableId() : "name:" + spec.name();
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
        long started = System.nanoTime();
        Replayer replayer = new Replayer(tables, streams);
        replaying = true;
        long droppedTail = 0;
        try {
            deleteLeftovers();
            List<Long> snapshots = generations(LogFile.SNAPSHOT);
            long snapshot = snapshots.isEmpty() ? -1 : snapshots.get(snapshots.size() - 1);
            for (long older : snapshots) {
                if (older < snapshot) {
                    Files.deleteIfExists(dir.resolve(LogFile.snapshotName(older)));
                }
            }
            List<Long> segments = new ArrayList<>();
            for (long generation : generations(LogFile.SEGMENT)) {
                if (generation <= snapshot) {
                    Files.deleteIfExists(dir.resolve(LogFile.segmentName(generation))); // a compaction's leftover
                } else {
                    segments.add(generation);
                }
            }
            if (snapshot >= 0) {
                Path file = dir.resolve(LogFile.snapshotName(snapshot));
                replayer.mode = HISTORY;
                replayer.file = file;
                LogFile.Extent extent = LogFile.read(file, snapshot, replayer);
                if (extent.torn() || replayer.mode != END) {
                    LOG.log(System.Logger.Level.ERROR, "The journal's snapshot " + file + " is damaged ("
                            + (extent.problem() == null ? "no end mark" : extent.problem()) + "); what it holds after"
                            + " offset " + extent.validEnd() + " is lost");
                }
                snapshotGeneration = snapshot;
                snapshotBytes = extent.fileSize();
                replayer.bytes += extent.fileSize();
            }
            long appendTo = -1;
            long validEnd = 0;
            long segmentBytes = 0;
            for (int i = 0; i < segments.size(); i++) {
                long generation = segments.get(i);
                Path file = dir.resolve(LogFile.segmentName(generation));
                replayer.mode = LIVE;
                replayer.file = file;
                LogFile.Extent extent = LogFile.read(file, generation, replayer);
                replayer.bytes += extent.validEnd();
                boolean last = i == segments.size() - 1;
                if (extent.validEnd() == 0 && extent.fileSize() >= LogFile.HEADER) {
                    throw new IllegalStateException("The data folder " + dir + " holds " + file + ", which is not a"
                            + " segment of this journal (" + extent.problem() + "); move it away to start");
                }
                if (extent.torn()) {
                    long lost = extent.fileSize() - extent.validEnd();
                    droppedTail += lost;
                    if (last) {
                        LOG.log(System.Logger.Level.INFO, "The journal's last segment " + file + " ends in a record cut"
                                + " short (" + extent.problem() + "): " + lost + " bytes dropped, likely a write"
                                + " that was never acknowledged");
                    } else {
                        LOG.log(System.Logger.Level.ERROR, "The journal's segment " + file + " is damaged ("
                                + extent.problem() + "): " + lost + " bytes after offset " + extent.validEnd()
                                + " are lost");
                    }
                }
                if (last) {
                    appendTo = generation;
                    validEnd = extent.validEnd();
                } else {
                    segmentBytes += extent.fileSize();
                }
            }
            if (streams != null) {
                streams.replayDone();
            }
            replayer.finish();
            sealedBytes = segmentBytes;
            openWriter(appendTo, validEnd, snapshot);
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
        lastReplay = new ReplayStats(replayer.records, replayer.bytes, tables.all().size(), items,
                (System.nanoTime() - started) / 1_000_000, droppedTail);
        activateBackfilledIndexes(tables);
        startSyncer();
        long segmentsNow = sealedBytes + writer.fileBytes();
        if (segmentsNow > Math.max(START_COMPACT_FLOOR, snapshotBytes) || sealedBytes > 0) {
            compactInBackground();
        }
    }

    /** Indexes that were being filled when the engine stopped are whole now (replay fills them): ACTIVE. */
    private void activateBackfilledIndexes(Tables tables) {
        for (Table table : tables.all()) {
            synchronized (table) {
                TableSpec spec = table.spec();
                boolean changed = false;
                List<IndexSpec> indexes = new ArrayList<>();
                for (IndexSpec index : spec.indexes()) {
                    if ("CREATING".equals(index.status())) {
                        index = index.withStatus("ACTIVE");
                        changed = true;
                    }
                    indexes.add(index);
                }
                if (changed) {
                    TableSpec active = spec.withIndexes(indexes);
                    table.respec(active);
                    declared(active);
                }
            }
        }
    }

    private void deleteLeftovers() throws IOException {
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*.tmp")) {
            for (Path file : files) {
                Files.deleteIfExists(file);
            }
        }
    }

    private List<Long> generations(String kind) throws IOException {
        List<Long> found = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
            for (Path file : files) {
                long generation = LogFile.generationOf(file.getFileName().toString(), kind);
                if (generation >= 0) {
                    found.add(generation);
                }
            }
        }
        Collections.sort(found);
        return found;
    }

    private void openWriter(long generation, long validEnd, long snapshot) throws IOException {
        RandomAccessFile file;
        if (generation < 0) {
            generation = snapshot + 1;
            file = newSegment(generation);
        } else {
            file = new RandomAccessFile(dir.resolve(LogFile.segmentName(generation)).toFile(), "rw");
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

    private RandomAccessFile newSegment(long generation) throws IOException {
        Path path = dir.resolve(LogFile.segmentName(generation));
        if (Files.exists(path)) {
            throw new FileAlreadyExistsException(path.toString());
        }
        RandomAccessFile file = new RandomAccessFile(path.toFile(), "rw");
        file.write(LogFile.header(generation));
        if (options.fsyncEveryWrite()) {
            file.getFD().sync();
            syncDirectory();
        }
        return file;
    }

    private static void writeFully(FileChannel channel, ByteBuffer buffer) throws IOException {
        while (buffer.hasRemaining()) {
            channel.write(buffer);
        }
    }

    /** Applies records to the tables (and streams) as the current section says. */
    private final class Replayer implements LogFile.Visitor {
        final Tables tables;
        final Streams streams;
        final Map<Integer, Table> byNumber = new HashMap<>();
        /** The streams' view of each table number: its latest declaration seen in a section that reaches streams. */
        final Map<Integer, TableSpec> streamSpecs = new HashMap<>();
        final Map<Integer, Table> standIns = new HashMap<>();
        final ItemLocks standInLocks = new ItemLocks();
        /** Where the stand-ins of deleted tables (made for their streams' replay) would keep rows: they never write any. */
        final RowFiles standInRows = RowFiles.inMemory();
        int mode = LIVE;
        int maxNumber;
        long records;
        long bytes;
        boolean warnedLabel;

        Replayer(Tables tables, Streams streams) {
            this.tables = tables;
            this.streams = streams;
        }

        /** The file being read, for messages. */
        Path file;

        @Override
        public boolean record(byte[] bytes, int offset, int length) {
            records++;
            try {
                apply(new Codec.In(bytes, offset, offset + length));
            } catch (RuntimeException e) {
                // a whole record (its CRC matched) this code cannot read: written by another version, or a bug
                throw new IllegalStateException("The journal file " + file + " cannot be replayed: its record "
                        + records + " (" + length + " bytes) is not understood: " + e.getMessage(), e);
            }
            return true;
        }

        void apply(Codec.In in) {
            int kind = in.byte1();
            switch (kind) {
                case DECLARE:
                    declare((int) in.varint(), in.varint(), Codec.spec(in));
                    break;
                case DROP:
                    drop((int) in.varint(), in.varint());
                    break;
                case CHANGE:
                    change(in);
                    break;
                case ATOMIC:
                    while (in.more()) {
                        int length = readInt(in);
                        in.pos += 4; // the part's CRC: the whole record's was checked
                        Codec.In part = new Codec.In(in.bytes, in.pos, in.pos + length);
                        in.pos += length;
                        apply(part);
                    }
                    break;
                case SECTION:
                    mode = in.byte1();
                    break;
                case SEQUENCE: {
                    long next = in.varint();
                    long millis = in.varint();
                    if (streams != null && mode != STATE) {
                        streams.replayNext(next, Instant.ofEpochMilli(millis));
                    }
                    break;
                }
                default:
                    throw new IllegalStateException("unknown journal record kind " + kind);
            }
        }

        private int readInt(Codec.In in) {
            int v = 0;
            for (int i = 0; i < 4; i++) {
                v = v << 8 | in.byte1();
            }
            return v;
        }

        void declare(int number, long millis, TableSpec spec) {
            maxNumber = Math.max(maxNumber, number);
            if (mode == LIVE || mode == STATE) {
                Table table = byNumber.get(number);
                if (table == null) {
                    Table existing = tables.find(spec.name());
                    if (existing != null) {
                        tables.remove(spec.name()); // its deletion was not journaled (a kill in between)
                        byNumber.values().remove(existing);
                    }
                    byNumber.put(number, tables.create(spec));
                } else {
                    TableSpec old = table.spec();
                    table.respec(spec);
                    for (IndexSpec index : spec.indexes()) {
                        if (old.index(index.name()).isEmpty()) {
                            // the index came after items did: fill it as TableApi's backfill did (unjournaled)
                            for (RowKey key : table.keys()) {
                                table.backfill(index, key);
                            }
                        }
                    }
                }
            }
            if ((mode == LIVE || mode == HISTORY) && streams != null) {
                TableSpec previous = streamSpecs.put(number, spec);
                standIns.remove(number);
                String view = spec.streamViewType();
                boolean wasOn = previous != null && previous.streamViewType() != null;
                if (view != null && (!wasOn || !Objects.equals(previous.streamLabel(), spec.streamLabel()))) {
                    streams.replayNext(0, Instant.ofEpochMilli(labelMillis(spec.streamLabel(), millis)));
                    // as TableApi called it: with the label the table had before (Streams keeps new labels above it)
                    String label = streams.enable(spec.withStream(null, previous == null ? null : previous.streamLabel()),
                            view);
                    if (!label.equals(spec.streamLabel()) && !warnedLabel) {
                        warnedLabel = true;
                        LOG.log(System.Logger.Level.WARNING, "Replay re-made the stream of table " + spec.name()
                                + " with label " + label + " where it had " + spec.streamLabel());
                    }
                } else if (view == null && wasOn) {
                    streams.replayNext(0, Instant.ofEpochMilli(millis));
                    streams.disable(spec.name());
                }
            }
        }

        void drop(int number, long millis) {
            maxNumber = Math.max(maxNumber, number);
            if (mode == LIVE) {
                Table table = byNumber.remove(number);
                if (table != null && tables.find(table.name()) == table) {
                    tables.remove(table.name());
                }
            }
            if ((mode == LIVE || mode == HISTORY)) {
                dropTimes.put(number, millis);
                TableSpec spec = streamSpecs.remove(number);
                standIns.remove(number);
                if (spec != null && streams != null) {
                    streams.replayNext(0, Instant.ofEpochMilli(millis));
                    streams.tableDeleted(spec.name());
                }
            }
        }

        void change(Codec.In in) {
            int number = (int) in.varint();
            int flags = in.byte1();
            long sequence = 0;
            long millis = 0;
            if ((flags & F_STREAMED) != 0) {
                sequence = in.varint();
                millis = in.varint();
            }
            Map<String, Value> attributes = Codec.item(in);
            Map<String, Value> old = (flags & F_OLD_IMAGE) != 0 ? Codec.item(in) : null;
            boolean byService = (flags & F_BY_SERVICE) != 0;
            StoredItem after = (flags & F_DELETE) != 0 ? null : stored(attributes);
            Table table = byNumber.get(number);
            if ((mode == LIVE || mode == STATE) && table != null) {
                RowKey key = table.keyOf(attributes);
                if (key != null) {
                    table.writeLocked(key, current -> after, byService);
                }
            }
            if ((mode == LIVE || mode == HISTORY) && (flags & F_STREAMED) != 0 && streams != null) {
                Table target = mode == LIVE && table != null ? table : standIn(number);
                if (target == null) {
                    return;
                }
                StoredItem before = null;
                if ((flags & F_HAD_BEFORE) != 0) {
                    // without the old image (the view has none), the before item only tells the event and the keys
                    before = old != null ? stored(old) : after != null ? after : stored(attributes);
                }
                streams.replayNext(sequence, Instant.ofEpochMilli(millis));
                streams.changed(target, before, after, byService);
            }
        }

        private Table standIn(int number) {
            Table standIn = standIns.get(number);
            if (standIn == null) {
                TableSpec spec = streamSpecs.get(number);
                if (spec == null) {
                    return null;
                }
                standIn = new Table(spec, standInLocks, (table, before, after, byService) -> {
                }, standInRows);
                standIns.put(number, standIn);
            }
            return standIn;
        }

        void finish() {
            for (Map.Entry<Integer, Table> entry : byNumber.entrySet()) {
                TableSpec spec = entry.getValue().spec();
                numbers.put(identity(spec), entry.getKey());
                identityByName.put(spec.name(), identity(spec));
            }
            nextNumber = maxNumber + 1;
        }
    }

    private static StoredItem stored(Map<String, Value> attributes) {
        return new StoredItem(Collections.unmodifiableMap(attributes), Sizes.item(attributes));
    }

    /** The time a stream label names (its creation, to the millisecond), or {@code fallback}. */
    static long labelMillis(String label, long fallback) {
        if (label == null) {
            return fallback;
        }
        try {
            return LocalDateTime.parse(label, DateTimeFormatter.ofPattern(
                    "yyyy-MM-dd'T'HH:mm:ss.SSS")).toInstant(ZoneOffset.UTC).toEpochMilli();
        } catch (DateTimeParseException e) {
            return fallback;
        }
    }

    // ---- compaction

    private void maybeCompact() {
        LogWriter w = writer;
        if (w == null || compacting.get()) {
            return;
        }
        long segments = sealedBytes + w.fileBytes();
        if (segments > Math.max(options.compactAfterBytes(), snapshotBytes)) {
            compactInBackground();
        }
    }

    private void compactInBackground() {
        if (closed || !compacting.compareAndSet(false, true)) {
            return;
        }
        Thread thread = new Thread(() -> {
            try {
                compactNow();
            } catch (RuntimeException e) {
                if (!closed) {
                    LOG.log(System.Logger.Level.WARNING, "The journal's compaction in " + dir + " failed; it will be"
                            + " tried again", e);
                }
            } finally {
                compacting.set(false);
                compactor = null;
            }
        }, "engine-journal-compaction");
        thread.setDaemon(true);
        compactor = thread;
        thread.start();
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
        compactNow();
    }

    private void compactNow() {
        synchronized (compaction) {
            if (closed) {
                return;
            }
            LogWriter w = requireWriter();
            long sealed;
            long previousSnapshot = snapshotGeneration;
            try {
                long next = w.generation() + 1;
                RandomAccessFile previous = w.switchTo(newSegment(next), next);
                previous.close();
                sealed = next - 1;
            } catch (IOException e) {
                throw new UncheckedIOException("The journal in " + dir + " could not start a segment: " + e, e);
            }
            Path target = dir.resolve(LogFile.snapshotName(sealed));
            Path temporary = dir.resolve(LogFile.snapshotName(sealed) + ".tmp");
            try {
                SnapshotWriter snapshot = new SnapshotWriter(temporary, sealed);
                try {
                    snapshot.section(HISTORY);
                    History history = new History(snapshot,
                            System.currentTimeMillis() - options.streamRetention().toMillis() - 60_000);
                    if (previousSnapshot >= 0) {
                        history.fromSnapshot = true;
                        LogFile.read(dir.resolve(LogFile.snapshotName(previousSnapshot)), previousSnapshot, history);
                        history.fromSnapshot = false;
                    }
                    for (long generation : generations(LogFile.SEGMENT)) {
                        if (generation > previousSnapshot && generation <= sealed) {
                            LogFile.read(dir.resolve(LogFile.segmentName(generation)), generation, history);
                        }
                    }
                    if (streams != null) {
                        snapshot.sequence(streams.nextSequenceNumber(), System.currentTimeMillis());
                    }
                    snapshot.section(STATE);
                    writeState(snapshot);
                    snapshot.section(END);
                    snapshot.finish();
                } finally {
                    snapshot.close();
                }
                if (closed) {
                    Files.deleteIfExists(temporary);
                    return;
                }
                try {
                    Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE);
                } catch (AtomicMoveNotSupportedException e) {
                    Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING);
                }
                syncDirectory();
                long bytes = Files.size(target);
                for (long generation : generations(LogFile.SEGMENT)) {
                    if (generation <= sealed) {
                        Files.deleteIfExists(dir.resolve(LogFile.segmentName(generation)));
                    }
                }
                if (previousSnapshot >= 0) {
                    Files.deleteIfExists(dir.resolve(LogFile.snapshotName(previousSnapshot)));
                }
                snapshotGeneration = sealed;
                snapshotBytes = bytes;
                long remaining = 0;
                for (long generation : generations(LogFile.SEGMENT)) {
                    if (generation > sealed && generation < w.generation()) {
                        remaining += Files.size(dir.resolve(LogFile.segmentName(generation)));
                    }
                }
                sealedBytes = remaining;
            } catch (IOException e) {
                try {
                    Files.deleteIfExists(temporary);
                } catch (IOException ignored) {
                    // the next start deletes it
                }
                throw new UncheckedIOException("The journal's compaction in " + dir + " failed: " + e, e);
            }
        }
    }

    /** The tables as they stand, read without locks: anything changed meanwhile is in the new segment too. */
    private void writeState(SnapshotWriter snapshot) throws IOException {
        for (Table table : tables.all()) {
            TableSpec spec = table.spec();
            Integer number = numbers.get(identity(spec));
            if (number == null) {
                continue; // never declared nor written: the new segment will say all there is
            }
            snapshot.declare(number, spec);
            for (StoredItem item : table.rows()) {
                if (closed) {
                    return;
                }
                snapshot.put(number, item);
            }
        }
    }

    /**
     * Copies what the streams need of the old files into the snapshot's HISTORY section: stream records still
     * within the retention, the declarations that turned streams on or off, and deletions, minus everything of
     * tables deleted longer ago than the retention.
     */
    private final class History implements LogFile.Visitor {
        final SnapshotWriter out;
        final long horizon;
        final Map<Integer, TableSpec> specs = new HashMap<>();
        boolean fromSnapshot;

        History(SnapshotWriter out, long horizon) {
            this.out = out;
            this.horizon = horizon;
        }

        @Override
        public boolean record(byte[] bytes, int offset, int length) throws IOException {
            Codec.In in = new Codec.In(bytes, offset, offset + length);
            int kind = in.byte1();
            if (kind == SECTION) {
                return !fromSnapshot || in.byte1() == HISTORY; // a snapshot's history ends where its state begins
            }
            if (kind == ATOMIC) {
                while (in.more()) {
                    int partLength = (in.byte1() << 24) | (in.byte1() << 16) | (in.byte1() << 8) | in.byte1();
                    in.pos += 4;
                    record(bytes, in.pos, partLength);
                    in.pos += partLength;
                }
                return true;
            }
            int number = (int) in.varint();
            Long dropped = dropTimes.get(number);
            boolean forgotten = dropped != null && dropped < horizon;
            switch (kind) {
                case DECLARE: {
                    long millis = in.varint();
                    TableSpec spec = Codec.spec(in);
                    TableSpec previous = specs.put(number, spec);
                    boolean wasOn = previous != null && previous.streamViewType() != null;
                    boolean isOn = spec.streamViewType() != null;
                    boolean turned = isOn != wasOn || isOn
                            && !Objects.equals(previous.streamLabel(), spec.streamLabel());
                    if (turned && !forgotten) {
                        out.raw(bytes, offset, length);
                    }
                    break;
                }
                case DROP:
                    if (!forgotten && specs.containsKey(number)) {
                        out.raw(bytes, offset, length);
                    }
                    specs.remove(number);
                    break;
                case CHANGE: {
                    int flags = in.byte1();
                    if ((flags & F_STREAMED) != 0 && !forgotten) {
                        in.varint();
                        long millis = in.varint();
                        if (millis >= horizon) {
                            out.raw(bytes, offset, length);
                        }
                    }
                    break;
                }
                default:
                    break; // SEQUENCE: the snapshot writes the current one
            }
            return true;
        }
    }

    /** Writes a snapshot file through a buffer. */
    private final class SnapshotWriter implements AutoCloseable {
        final FileChannel channel;
        final Codec.Out out = new Codec.Out(1 << 20);

        SnapshotWriter(Path file, long generation) throws IOException {
            channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                    StandardOpenOption.WRITE);
            byte[] header = LogFile.header(generation);
            out.raw(header, 0, header.length);
        }

        void section(int section) throws IOException {
            int start = beginFrame(out);
            out.byte1(SECTION);
            out.byte1(section);
            LogFile.frame(out, start);
            spill();
        }

        void sequence(long next, long millis) throws IOException {
            int start = beginFrame(out);
            out.byte1(SEQUENCE);
            out.varint(next);
            out.varint(millis);
            LogFile.frame(out, start);
            spill();
        }

        void declare(int number, TableSpec spec) throws IOException {
            int start = beginFrame(out);
            out.byte1(DECLARE);
            out.varint(number);
            out.varint(System.currentTimeMillis());
            Codec.spec(out, spec);
            LogFile.frame(out, start);
            spill();
        }

        void put(int number, StoredItem item) throws IOException {
            int start = beginFrame(out);
            out.byte1(CHANGE);
            out.varint(number);
            out.byte1(0);
            Codec.item(out, item.attributes());
            LogFile.frame(out, start);
            spill();
        }

        /** A payload read from another journal file, framed again. */
        void raw(byte[] bytes, int offset, int length) throws IOException {
            int start = beginFrame(out);
            out.raw(bytes, offset, length);
            LogFile.frame(out, start);
            spill();
        }

        private void spill() throws IOException {
            if (out.size >= (1 << 20) - (64 << 10)) {
                drain();
            }
        }

        private void drain() throws IOException {
            writeFully(channel, ByteBuffer.wrap(out.bytes, 0, out.size));
            out.reset();
        }

        void finish() throws IOException {
            drain();
            channel.force(true);
        }

        @Override
        public void close() throws IOException {
            channel.close();
        }
    }

    private void syncDirectory() {
        try (FileChannel directory = FileChannel.open(dir, StandardOpenOption.READ)) {
            directory.force(true);
        } catch (IOException | UnsupportedOperationException e) {
            // not every platform can sync a directory; the rename is still atomic
        }
    }

    // ---- fsync on an interval, close

    private void startSyncer() {
        Duration interval = options.fsyncInterval();
        if (interval == null || options.fsyncEveryWrite()) {
            return;
        }
        long millis = Math.max(1, interval.toMillis());
        Thread thread = new Thread(() -> {
            while (!closed) {
                try {
                    Thread.sleep(millis);
                } catch (InterruptedException e) {
                    return;
                }
                LogWriter w = writer;
                if (w != null && !closed) {
                    w.force();
                }
            }
        }, "engine-journal-fsync");
        thread.setDaemon(true);
        syncer = thread;
        thread.start();
    }

    /** Writes out what is pending, syncs and closes the journal file, and lets go of the folder. */
    @Override
    public void close() {
        if (dir == null || closed) {
            return;
        }
        closed = true;
        Thread background = compactor;
        if (background != null) {
            try {
                background.join(30_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        synchronized (compaction) {
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
            try {
                lock.release();
            } catch (IOException e) {
                // closing the channel releases it too
            }
            closeQuietly(lockChannel);
            if (failure != null) {
                throw new UncheckedIOException("The journal in " + dir + " could not be closed cleanly: " + failure,
                        failure);
            }
        }
    }

    private static void closeQuietly(FileChannel channel) {
        try {
            channel.close();
        } catch (IOException e) {
            // nothing more to do
        }
    }
}
