package dev.moviegraph.engine.stream;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Iterator;

/**
 * One shard of a stream: its records by sequence number in a {@link RecordLog} readers walk without locks. Only its
 * stream (under the stream's lock) adds, trims and closes; the volatile fields publish what it did in an
 * order readers can rely on: the end is set before the close time, trimmedUpTo before a record is removed.
 */
final class Shard {
    private final String id;
    private final String parentId;
    private final long starting;
    private final Instant opened;
    private final RecordLog records;
    /** The highest number of a record added (starting - 1 before any). Written under the stream's lock. */
    private volatile long last;
    private volatile long ending = -1;
    private volatile Instant closedAt;
    /** The highest number trimmed away: positions at or below it are gone. */
    private volatile long trimmedUpTo;
    /**
     * The oldest record held (null: none) once known, kept by the stream's lock so that each append's trim
     * does not read the log (with rows on disk, a read of the file).
     */
    private volatile ChangeRecord oldest;
    private volatile boolean oldestKnown;

    Shard(String id, String parentId, long starting, Instant opened, RecordLog records) {
        this.records = records;
        this.id = id;
        this.parentId = parentId;
        this.starting = starting;
        this.opened = opened;
        this.last = starting - 1;
        this.trimmedUpTo = starting - 1;
    }

    /** A shard as a checkpoint kept it; its records are in {@code records} already. */
    static Shard restored(StreamsState.ShardState state, RecordLog records) {
        Shard shard = new Shard(state.id(), state.parentId(), state.starting(), state.opened(), records);
        shard.last = state.last();
        shard.ending = state.ending();
        shard.trimmedUpTo = state.trimmedUpTo();
        shard.closedAt = state.closedAt();
        return shard;
    }

    /** Stream's lock held. */
    StreamsState.ShardState state() {
        return new StreamsState.ShardState(id, parentId, starting, opened, last, ending, closedAt, trimmedUpTo);
    }

    String id() {
        return id;
    }

    String parentId() {
        return parentId;
    }

    long starting() {
        return starting;
    }

    Instant opened() {
        return opened;
    }

    /** The end, or -1 while open. */
    long ending() {
        return ending;
    }

    boolean closed() {
        return closedAt != null;
    }

    Instant closedAt() {
        return closedAt;
    }

    long trimmedUpTo() {
        return trimmedUpTo;
    }

    long last() {
        return last;
    }

    boolean hasRecords() {
        return last >= starting;
    }

    /** When the oldest record still held was made, or null when none is. */
    Long firstCreatedMillis() {
        ChangeRecord first = oldest();
        return first == null ? null : first.createdMillis();
    }

    boolean isEmptyNow() {
        return oldest() == null;
    }

    private ChangeRecord oldest() {
        return oldestKnown ? oldest : records.first();
    }

    /** Stream's lock held. */
    void add(ChangeRecord record) {
        if (!oldestKnown) {
            oldest = records.first();
            oldestKnown = true;
        }
        if (oldest == null) {
            oldest = record;
        }
        records.add(record);
        last = record.sequence();
    }

    /** Stream's lock held; {@code end} at or above every number of the shard. */
    void close(long end, Instant at) {
        ending = end;
        closedAt = at;
    }

    /** Drops the records made before {@code horizonMillis}; stream's lock held. */
    void trim(long horizonMillis) {
        while (true) {
            ChangeRecord first = oldestKnown ? oldest : records.first();
            if (first == null || first.createdMillis() >= horizonMillis) {
                oldest = first;
                oldestKnown = true;
                return;
            }
            trimmedUpTo = first.sequence(); // before the removal: see the class comment
            oldestKnown = false;
            records.remove(first.sequence());
        }
    }

    /** A page of records from {@code from} on, at most {@code limit} of them and about {@code maxBytes}. */
    Page read(long from, int limit, long maxBytes) {
        List<ChangeRecord> page = new ArrayList<>(Math.min(limit, 64));
        long bytes = 0;
        boolean cut = false;
        for (Iterator<ChangeRecord> all = records.from(from); all.hasNext(); ) {
            ChangeRecord record = all.next();
            if (page.size() == limit || !page.isEmpty() && bytes + record.sizeBytes() > maxBytes) {
                cut = true;
                break;
            }
            page.add(record);
            bytes += record.sizeBytes();
        }
        return new Page(page, cut);
    }

    /** Records read, and whether the limit or the size stopped the read before the shard's records ran out. */
    record Page(List<ChangeRecord> records, boolean cut) {
    }
}
