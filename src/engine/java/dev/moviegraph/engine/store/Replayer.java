package dev.moviegraph.engine.store;

import dev.moviegraph.engine.stream.Streams;
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
import java.nio.file.Files;
import java.nio.file.Path;
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

import static dev.moviegraph.engine.store.JournalRecords.ATOMIC;
import static dev.moviegraph.engine.store.JournalRecords.CHANGE;
import static dev.moviegraph.engine.store.JournalRecords.DECLARE;
import static dev.moviegraph.engine.store.JournalRecords.DROP;
import static dev.moviegraph.engine.store.JournalRecords.END;
import static dev.moviegraph.engine.store.JournalRecords.F_BY_SERVICE;
import static dev.moviegraph.engine.store.JournalRecords.F_DELETE;
import static dev.moviegraph.engine.store.JournalRecords.F_HAD_BEFORE;
import static dev.moviegraph.engine.store.JournalRecords.F_OLD_IMAGE;
import static dev.moviegraph.engine.store.JournalRecords.F_STREAMED;
import static dev.moviegraph.engine.store.JournalRecords.HISTORY;
import static dev.moviegraph.engine.store.JournalRecords.LIVE;
import static dev.moviegraph.engine.store.JournalRecords.SECTION;
import static dev.moviegraph.engine.store.JournalRecords.SEQUENCE;
import static dev.moviegraph.engine.store.JournalRecords.STATE;

/**
 * A journal's replay: reads the folder's newest snapshot, then the segments after it, and applies records to
 * the tables (and streams) as the current section says.
 */
final class Replayer implements LogFile.Visitor {
    private static final System.Logger LOG = System.getLogger(Journal.class.getName());

    /**
     * What the folder held: the snapshot replayed (-1: none) and its size, the segment to append to (-1: none)
     * and where its whole records end, the bytes of the segments before that one, and the torn tails' bytes.
     */
    record Found(long snapshot, long snapshotBytes, long appendTo, long validEnd, long sealedBytes,
                 long droppedTail) {
    }

    private final Tables tables;
    private final Streams streams;
    private final TableNumbers numbers;
    private final Map<Integer, Table> byNumber = new HashMap<>();
    /** The streams' view of each table number: its latest declaration seen in a section that reaches streams. */
    private final Map<Integer, TableSpec> streamSpecs = new HashMap<>();
    private final Map<Integer, Table> standIns = new HashMap<>();
    private final ItemLocks standInLocks = new ItemLocks();
    /** Where the stand-ins of deleted tables (made for their streams' replay) would keep rows: they never write any. */
    private final RowFiles standInRows = RowFiles.inMemory();
    private int mode = LIVE;
    /** The streams a checkpoint's restore took up; null for a replay of everything. */
    private dev.moviegraph.engine.stream.StreamsState restoredStreams;
    private int maxNumber;
    private long records;
    private long bytes;
    private boolean warnedLabel;
    /** The file being read, for messages. */
    private Path file;

    Replayer(Tables tables, Streams streams, TableNumbers numbers) {
        this.tables = tables;
        this.streams = streams;
        this.numbers = numbers;
    }

    /** The newest snapshot's generation (-1: none), deleting a compaction's leftovers and older snapshots. */
    private static long newestSnapshot(DataFolder folder) throws IOException {
        folder.deleteLeftovers();
        List<Long> snapshots = folder.generations(LogFile.SNAPSHOT);
        long snapshot = snapshots.isEmpty() ? -1 : snapshots.get(snapshots.size() - 1);
        for (long older : snapshots) {
            if (older < snapshot) {
                Files.deleteIfExists(folder.resolve(LogFile.snapshotName(older)));
            }
        }
        return snapshot;
    }

    /** Replays the folder's newest snapshot and the segments after it, deleting what they replace. */
    Found replay(DataFolder folder) throws IOException {
        long snapshot = newestSnapshot(folder);
        List<Long> segments = new ArrayList<>();
        for (long generation : folder.generations(LogFile.SEGMENT)) {
            if (generation <= snapshot) {
                Files.deleteIfExists(folder.resolve(LogFile.segmentName(generation))); // a compaction's leftover
            } else {
                segments.add(generation);
            }
        }
        long snapshotBytes = 0;
        if (snapshot >= 0) {
            file = folder.resolve(LogFile.snapshotName(snapshot));
            mode = HISTORY;
            LogFile.Extent extent = LogFile.read(file, snapshot, this);
            if (extent.torn() || mode != END) {
                LOG.log(System.Logger.Level.ERROR, "The journal's snapshot " + file + " is damaged ("
                        + (extent.problem() == null ? "no end mark" : extent.problem()) + "); what it holds after"
                        + " offset " + extent.validEnd() + " is lost");
            }
            snapshotBytes = extent.fileSize();
            bytes += extent.fileSize();
        }
        return readSegments(folder, segments, -1, 0, snapshot, snapshotBytes, 0);
    }

    /** Replays the segments in order ({@code fromGeneration}'s from {@code offset} on) and says what it found. */
    private Found readSegments(DataFolder folder, List<Long> segments, long fromGeneration, long offset,
                               long snapshot, long snapshotBytes, long olderBytes) throws IOException {
        long droppedTail = 0;
        long appendTo = -1;
        long validEnd = 0;
        long segmentBytes = olderBytes;
        for (int i = 0; i < segments.size(); i++) {
            long generation = segments.get(i);
            file = folder.resolve(LogFile.segmentName(generation));
            mode = LIVE;
            long from = generation == fromGeneration ? offset : LogFile.HEADER;
            LogFile.Extent extent = LogFile.read(file, generation, this, from);
            bytes += Math.max(0, extent.validEnd() - from);
            boolean last = i == segments.size() - 1;
            if (extent.validEnd() == 0 && extent.fileSize() >= LogFile.HEADER) {
                throw new IllegalStateException("The data folder " + folder.dir() + " holds " + file + ", which is"
                        + " not a segment of this journal (" + extent.problem() + "); move it away to start");
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
        return new Found(snapshot, snapshotBytes, appendTo, validEnd, segmentBytes, droppedTail);
    }

    /**
     * Whether the folder still holds the journal from the checkpoint's place on: its segment, long enough, and every
     * segment after it. (A compaction writes a checkpoint past its snapshot before it deletes any segment.)
     */
    static boolean canReplayFrom(DataFolder folder, Checkpoint checkpoint) throws IOException {
        List<Long> segments = folder.generations(LogFile.SEGMENT);
        int at = segments.indexOf(checkpoint.generation());
        if (at < 0) {
            return false;
        }
        for (int i = at + 1; i < segments.size(); i++) {
            if (segments.get(i) != segments.get(i - 1) + 1) {
                return false;
            }
        }
        return Files.size(folder.resolve(LogFile.segmentName(checkpoint.generation()))) >= checkpoint.offset();
    }

    /**
     * Takes the tables and streams up as the checkpoint kept them (their rows are in the stores already), before
     * {@link #replayFrom}: indexes the checkpoint caught being filled are filled.
     */
    void restore(Checkpoint checkpoint) {
        numbers.read(checkpoint.numbers());
        maxNumber = Math.max(maxNumber, numbers.nextNumber() - 1);
        for (Checkpoint.TableAt at : checkpoint.tables()) {
            Table existing = tables.find(at.spec().name());
            if (existing != null) {
                tables.remove(at.spec().name());
            }
            Table table = tables.create(at.spec());
            table.restored(at.counts(), at.expiriesWhole());
            for (IndexSpec index : at.spec().indexes()) {
                if ("CREATING".equals(index.status())) {
                    for (RowKey key : table.keys()) {
                        table.backfill(index, key);
                    }
                }
            }
            byNumber.put(at.number(), table);
            streamSpecs.put(at.number(), at.spec());
            maxNumber = Math.max(maxNumber, at.number());
        }
        if (streams != null && checkpoint.streams() != null) {
            streams.restore(checkpoint.streams());
            restoredStreams = checkpoint.streams();
        }
    }

    /**
     * Replays the segments from the checkpoint's place on (after {@link #restore}); deletes what the newest snapshot
     * replaces, as {@link #replay} does.
     */
    Found replayFrom(DataFolder folder, Checkpoint checkpoint) throws IOException {
        long snapshot = newestSnapshot(folder);
        long snapshotBytes = snapshot < 0 ? 0 : Files.size(folder.resolve(LogFile.snapshotName(snapshot)));
        List<Long> segments = new ArrayList<>();
        for (long generation : folder.generations(LogFile.SEGMENT)) {
            if (generation <= snapshot && generation < checkpoint.generation()) {
                Files.deleteIfExists(folder.resolve(LogFile.segmentName(generation))); // a compaction's leftover
            } else if (generation >= checkpoint.generation()) {
                segments.add(generation);
            }
        }
        return readSegments(folder, segments, checkpoint.generation(), checkpoint.offset(), snapshot, snapshotBytes,
                olderSegmentBytes(folder, snapshot, checkpoint.generation()));
    }

    /** The bytes of the segments after the snapshot and before {@code generation}, kept for a replay without rows. */
    private static long olderSegmentBytes(DataFolder folder, long snapshot, long generation) throws IOException {
        long bytes = 0;
        for (long older : folder.generations(LogFile.SEGMENT)) {
            if (older > snapshot && older < generation) {
                bytes += Files.size(folder.resolve(LogFile.segmentName(older)));
            }
        }
        return bytes;
    }

    /**
     * After the replay: indexes that were being filled when the engine stopped are whole now (the replay and a
     * checkpoint's restore fill them), so ACTIVE, each new declaration told to {@code declared}.
     */
    static void activateBackfilledIndexes(Tables tables, java.util.function.Consumer<TableSpec> declared) {
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
                    declared.accept(active);
                }
            }
        }
    }

    /** The records replayed. */
    long records() {
        return records;
    }

    /** The bytes replayed: the snapshot's, and the segments' whole records. */
    long bytes() {
        return bytes;
    }

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

    private void apply(Codec.In in) {
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

    private void declare(int number, long millis, TableSpec spec) {
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
            if (view != null && (!wasOn || !Objects.equals(previous.streamLabel(), spec.streamLabel()))
                    && !streams.isLatest(spec.name(), spec.streamLabel())) {
                // (a checkpoint can hold a stream whose declaration the journal has after it)
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

    private void drop(int number, long millis) {
        maxNumber = Math.max(maxNumber, number);
        if (mode == LIVE) {
            Table table = byNumber.remove(number);
            if (table != null && tables.find(table.name()) == table) {
                tables.remove(table.name());
            }
        }
        if ((mode == LIVE || mode == HISTORY)) {
            numbers.dropped(number, millis);
            TableSpec spec = streamSpecs.remove(number);
            standIns.remove(number);
            if (spec != null && streams != null) {
                streams.replayNext(0, Instant.ofEpochMilli(millis));
                streams.tableDeleted(spec.name());
            }
        }
    }

    private void change(Codec.In in) {
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
        numbers.replayed(byNumber, maxNumber);
        if (restoredStreams != null && streams != null) {
            // a checkpoint taken between a table's removal and its stream's end: the stream ends now
            for (String table : restoredStreams.latestByTable().keySet()) {
                if (tables.find(table) == null) {
                    streams.tableDeleted(table);
                }
            }
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
}
