package dev.moviegraph.engine.stream;

import dev.moviegraph.engine.table.KeySchema;
import dev.moviegraph.engine.value.Value;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One stream of a table (one label): its view type, status and shards. Writers append under this
 * stream's monitor, which is what orders its records: a number is taken and its record added in one step,
 * so no reader ever sees a record without the ones numbered before it. Readers take the monitor only when
 * a shard is due to close or records are due to go ({@link #needsMaintenance}), and then briefly.
 */
final class Stream {
    private final String arn;
    private final String label;
    private final String tableName;
    private final String tableId;
    private final KeySchema key;
    private final String viewType;
    private final Instant created;
    private final Duration shardPeriod;
    private final Duration retention;
    private final SequenceNumbers numbers;
    private final RecordLog.Logs logs;

    private volatile boolean enabled = true;
    /** Oldest first; replaced whole under the monitor so readers iterate a stable list. */
    private volatile List<Shard> shards = List.of();
    /** The highest number this stream used (a record's or an empty shard's end); under the monitor. */
    private long floor;
    private long lastShardMillis;
    private int shardCount;

    Stream(String arn, String label, String tableName, String tableId, KeySchema key, String viewType, Instant created,
           Duration shardPeriod, Duration retention, SequenceNumbers numbers, RecordLog.Logs logs) {
        this(arn, label, tableName, tableId, key, viewType, created, shardPeriod, retention, numbers, logs, true);
    }

    private Stream(String arn, String label, String tableName, String tableId, KeySchema key, String viewType,
                   Instant created, Duration shardPeriod, Duration retention, SequenceNumbers numbers,
                   RecordLog.Logs logs, boolean openFirstShard) {
        this.logs = logs;
        this.arn = arn;
        this.label = label;
        this.tableName = tableName;
        this.tableId = tableId;
        this.key = key;
        this.viewType = viewType;
        this.created = created;
        this.shardPeriod = shardPeriod;
        this.retention = retention;
        this.numbers = numbers;
        if (openFirstShard) {
            synchronized (this) {
                openShard(null, created);
            }
        }
    }

    /** A stream as a checkpoint kept it, its shards' records in their logs already. */
    static Stream restored(StreamsState.StreamState state, Duration shardPeriod, Duration retention,
                           SequenceNumbers numbers, RecordLog.Logs logs) {
        Stream stream = new Stream(state.arn(), state.label(), state.tableName(), state.tableId(), state.key(),
                state.viewType(), state.created(), shardPeriod, retention, numbers, logs, false);
        synchronized (stream) {
            stream.enabled = state.enabled();
            stream.floor = state.floor();
            stream.lastShardMillis = state.lastShardMillis();
            stream.shardCount = state.shardCount();
            List<Shard> shards = new ArrayList<>();
            for (StreamsState.ShardState shard : state.shards()) {
                shards.add(Shard.restored(shard, logs.open(stream.logName(shard.id()))));
            }
            stream.shards = List.copyOf(shards);
        }
        return stream;
    }

    /** What a checkpoint keeps of this stream. */
    synchronized StreamsState.StreamState state() {
        List<StreamsState.ShardState> kept = new ArrayList<>();
        for (Shard shard : shards) {
            kept.add(shard.state());
        }
        return new StreamsState.StreamState(arn, label, tableName, tableId, key, viewType, created, enabled, floor,
                lastShardMillis, shardCount, kept);
    }

    String arn() {
        return arn;
    }

    String label() {
        return label;
    }

    String tableName() {
        return tableName;
    }

    KeySchema key() {
        return key;
    }

    String viewType() {
        return viewType;
    }

    Instant created() {
        return created;
    }

    boolean enabled() {
        return enabled;
    }

    String status() {
        return enabled ? "ENABLED" : "DISABLED";
    }

    /** Whether a change of the table with this id belongs here (a table re-created under the same name does not). */
    boolean belongsTo(String changedTableId) {
        return tableId == null || changedTableId == null || tableId.equals(changedTableId);
    }

    List<Shard> shards() {
        return shards;
    }

    Shard shard(String shardId) {
        for (Shard shard : shards) {
            if (shard.id().equals(shardId)) {
                return shard;
            }
        }
        return null;
    }

    /**
     * Adds a record made at {@code at} (a replay's time, or now), first closing the open shard when it is
     * older than the shard period, and trims what is older than the retention at {@code now}. Returns the
     * record's number, or 0 when the stream was turned off meanwhile.
     */
    synchronized long append(ChangeRecord draft, Instant at, Instant now) {
        if (!enabled) {
            return 0;
        }
        rollIfDue(at);
        Shard open = shards.get(shards.size() - 1);
        long number = numbers.takeAbove(Math.max(floor, open.starting() - 1));
        floor = number;
        open.add(new ChangeRecord(number, at.toEpochMilli(), draft.eventName(), draft.keys(), draft.newImage(),
                draft.oldImage(), draft.byService(), draft.sizeBytes()));
        trimAndDrop(now);
        return number;
    }

    /** Whether a reader at {@code now} would find a shard due to close or records or shards due to go. */
    boolean needsMaintenance(Instant now) {
        List<Shard> current = shards;
        if (current.isEmpty()) {
            return !enabled;
        }
        Shard newest = current.get(current.size() - 1);
        if (enabled && !newest.closed() && !now.isBefore(newest.opened().plus(shardPeriod))) {
            return true;
        }
        Instant horizon = now.minus(retention);
        Shard oldest = current.get(0);
        return oldest.closed() && !oldest.closedAt().isAfter(horizon) || oldestRecordBefore(current, horizon);
    }

    private static boolean oldestRecordBefore(List<Shard> current, Instant horizon) {
        long horizonMillis = horizon.toEpochMilli();
        for (Shard shard : current) {
            Long first = shard.firstCreatedMillis();
            if (first != null) {
                return first < horizonMillis; // shards are in time order, so the first with records has the oldest
            }
        }
        return false;
    }

    /** Closes a shard due to close and trims; returns whether the stream is gone (off and every shard expired). */
    synchronized boolean maintain(Instant now) {
        if (enabled) {
            rollIfDue(now);
        }
        trimAndDrop(now);
        return !enabled && shards.isEmpty();
    }

    /** Turned off: no more records; the open shard closes and what it holds stays readable until retention. */
    synchronized void disable(Instant at) {
        if (!enabled) {
            return;
        }
        enabled = false;
        Shard newest = shards.get(shards.size() - 1);
        if (!newest.closed()) {
            close(newest, at);
        }
    }

    /**
     * Cuts the open shard at each period's boundary up to {@code at}: a shard closes and its child opens at the
     * boundary, not when the cut is noticed. A reader noticing it (now) and a replay (at the next record's time)
     * then cut the same shards with the same ids; a stream idle for several periods gets a shard per period,
     * empty ones going at the retention as DynamoDB's do.
     */
    private void rollIfDue(Instant at) {
        Shard open = shards.get(shards.size() - 1);
        while (!open.closed() && !at.isBefore(open.opened().plus(shardPeriod))) {
            Instant boundary = open.opened().plus(shardPeriod);
            close(open, boundary);
            openShard(open.id(), boundary);
            open = shards.get(shards.size() - 1);
        }
    }

    private void close(Shard shard, Instant at) {
        // an empty shard ends at its own first number, so its range is not empty and its child starts above it;
        // the number comes from this stream's floor, not the engine's counter, so a replay (which sets the
        // counter to each record's number before making it) cuts the same shards without taking a record's
        long end = shard.hasRecords() ? shard.last() : shard.starting();
        floor = Math.max(floor, end);
        shard.close(end, at);
    }

    private void openShard(String parentId, Instant at) {
        // ids sort as text in the order the shards opened, which ExclusiveStartShardId relies on
        long millis = Math.max(at.toEpochMilli(), lastShardMillis + 1);
        lastShardMillis = millis;
        String digits = Long.toString(millis);
        String id = "shardId-" + "0".repeat(Math.max(0, 20 - digits.length())) + digits + "-" + suffix(shardCount++);
        long starting = floor + 1;
        List<Shard> next = new ArrayList<>(shards);
        next.add(new Shard(id, parentId, starting, at, logs.open(logName(id))));
        shards = List.copyOf(next);
    }

    /** Eight hex digits from the stream and the shard's ordinal: the same after a journal's replay. */
    private String suffix(int ordinal) {
        int h = Objects.hash(arn, ordinal);
        h ^= h >>> 16;
        h *= 0x85ebca6b;
        h ^= h >>> 13;
        h *= 0xc2b2ae35;
        h ^= h >>> 16;
        String hex = Integer.toHexString(h);
        return "0".repeat(8 - hex.length()) + hex;
    }

    private void trimAndDrop(Instant now) {
        Instant horizon = now.minus(retention);
        long horizonMillis = horizon.toEpochMilli();
        List<Shard> kept = null;
        List<Shard> current = shards;
        for (int i = 0; i < current.size(); i++) {
            Shard shard = current.get(i);
            shard.trim(horizonMillis);
            boolean expired = shard.closed() && !shard.closedAt().isAfter(horizon) && shard.isEmptyNow();
            if (expired) {
                logs.drop(logName(shard.id()));
            }
            if (expired && kept == null) {
                kept = new ArrayList<>(current.subList(0, i));
            } else if (!expired && kept != null) {
                kept.add(shard);
            }
        }
        if (kept != null) {
            shards = List.copyOf(kept);
        }
    }

    private String logName(String shardId) {
        return arn + "/" + shardId;
    }

    /** The key attributes of an item, partition key first. */
    Map<String, Value> keysOf(Map<String, Value> item) {
        Map<String, Value> keys = new LinkedHashMap<>(4);
        keys.put(key.partition(), item.get(key.partition()));
        if (key.hasSort() && item.get(key.sort()) != null) {
            keys.put(key.sort(), item.get(key.sort()));
        }
        return Collections.unmodifiableMap(keys);
    }
}
