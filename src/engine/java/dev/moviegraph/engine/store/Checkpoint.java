package dev.moviegraph.engine.store;

import dev.moviegraph.engine.stream.Streams;
import dev.moviegraph.engine.stream.StreamsState;
import dev.moviegraph.engine.table.Table;
import dev.moviegraph.engine.table.TableSpec;
import dev.moviegraph.engine.table.Tables;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the journal keeps beside a checkpoint of the rows ({@code rows.db}): the place in the journal the rows
 * stand at, the journal's table numbers, each table's declaration and counts, and the streams' state. Written
 * in the same transaction as the rows, taken while no write runs, so a restart takes all of it up and replays only
 * the journal after that place.
 *
 * @param generation the segment the place is in
 * @param offset     the place in that segment: the end of the last record the rows hold
 * @param numbers    the journal's table numbers, as {@link TableNumbers#write} wrote them
 * @param tables     the live tables the journal numbered
 * @param streams    the streams' state, or null for an engine without streams
 */
record Checkpoint(long generation, long offset, byte[] numbers, List<TableAt> tables, StreamsState streams) {
    private static final int VERSION = 1;

    /** A table: its journal number, declaration, counts, and whether its expiry store was whole. */
    record TableAt(int number, TableSpec spec, Table.Counts counts, boolean expiriesWhole) {
    }

    private static final System.Logger LOG = System.getLogger(Journal.class.getName());

    /** The checkpoint at the journal's place now: append lock held, no write running (the rows' barrier held). */
    static Checkpoint of(LogWriter w, TableNumbers numbers, Tables tables, Streams streams) {
        List<TableAt> kept = new ArrayList<>();
        for (Table table : tables.all()) {
            TableSpec spec = table.spec();
            Integer number = numbers.of(spec);
            if (number != null) {
                kept.add(new TableAt(number, spec, table.counts(), table.expiriesWhole()));
            }
        }
        return new Checkpoint(w.generation(), w.fileBytes(), numbers.write(), kept,
                streams == null ? null : streams.state());
    }

    /** The checkpoint in {@code bytes}, or null when there is none or this version cannot read it (logged). */
    static Checkpoint readable(byte[] bytes) {
        if (bytes == null) {
            return null;
        }
        try {
            return decode(bytes);
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "The rows file's checkpoint cannot be read (" + e.getMessage()
                    + "): the rows are made again from the journal");
            return null;
        }
    }

    byte[] encode() {
        Codec.Out out = new Codec.Out(4096);
        out.varint(VERSION);
        out.varint(generation);
        out.varint(offset);
        out.varint(numbers.length);
        out.raw(numbers, 0, numbers.length);
        out.varint(tables.size());
        for (TableAt table : tables) {
            out.varint(table.number());
            Codec.spec(out, table.spec());
            out.varint(table.counts().items());
            out.varint(table.counts().bytes());
            out.varint(table.counts().indexes().size());
            for (Map.Entry<String, long[]> index : table.counts().indexes().entrySet()) {
                out.string(index.getKey());
                out.varint(index.getValue()[0]);
                out.varint(index.getValue()[1]);
            }
            out.byte1(table.expiriesWhole() ? 1 : 0);
        }
        out.byte1(streams == null ? 0 : 1);
        if (streams != null) {
            writeStreams(out, streams);
        }
        return java.util.Arrays.copyOf(out.bytes, out.size);
    }

    /** The checkpoint {@code bytes} hold; {@link IllegalArgumentException} when this version cannot read them. */
    static Checkpoint decode(byte[] bytes) {
        Codec.In in = new Codec.In(bytes, 0, bytes.length);
        long version = in.varint();
        if (version != VERSION) {
            throw new IllegalArgumentException("a checkpoint of version " + version + ", this engine reads " + VERSION);
        }
        long generation = in.varint();
        long offset = in.varint();
        byte[] numbers = in.raw(in.length());
        int count = in.length();
        List<TableAt> tables = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            int number = (int) in.varint();
            TableSpec spec = Codec.spec(in);
            long items = in.varint();
            long size = in.varint();
            int indexCount = in.length();
            Map<String, long[]> indexes = new HashMap<>();
            for (int j = 0; j < indexCount; j++) {
                indexes.put(in.string(), new long[] {in.varint(), in.varint()});
            }
            boolean whole = in.byte1() == 1;
            tables.add(new TableAt(number, spec, new Table.Counts(items, size, indexes), whole));
        }
        StreamsState streams = in.byte1() == 1 ? readStreams(in) : null;
        return new Checkpoint(generation, offset, numbers, tables, streams);
    }

    private static void writeStreams(Codec.Out out, StreamsState state) {
        out.varint(state.nextSequence());
        out.varint(state.streams().size());
        for (StreamsState.StreamState stream : state.streams()) {
            out.string(stream.arn());
            out.string(stream.label());
            out.string(stream.tableName());
            out.nullableString(stream.tableId());
            Codec.keySchema(out, stream.key());
            out.string(stream.viewType());
            instant(out, stream.created());
            out.byte1(stream.enabled() ? 1 : 0);
            out.varint(stream.floor());
            out.varint(stream.lastShardMillis());
            out.varint(stream.shardCount());
            out.varint(stream.shards().size());
            for (StreamsState.ShardState shard : stream.shards()) {
                out.string(shard.id());
                out.nullableString(shard.parentId());
                out.varint(shard.starting());
                instant(out, shard.opened());
                out.varint(shard.last());
                out.varint(shard.ending() + 1); // -1 while open
                out.byte1(shard.closedAt() == null ? 0 : 1);
                if (shard.closedAt() != null) {
                    instant(out, shard.closedAt());
                }
                out.varint(shard.trimmedUpTo());
            }
        }
        out.varint(state.latestByTable().size());
        for (Map.Entry<String, String> latest : state.latestByTable().entrySet()) {
            out.string(latest.getKey());
            out.string(latest.getValue());
        }
    }

    private static StreamsState readStreams(Codec.In in) {
        long next = in.varint();
        int count = in.length();
        List<StreamsState.StreamState> streams = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            String arn = in.string();
            String label = in.string();
            String tableName = in.string();
            String tableId = in.nullableString();
            var key = Codec.keySchema(in);
            String viewType = in.string();
            Instant created = instant(in);
            boolean enabled = in.byte1() == 1;
            long floor = in.varint();
            long lastShardMillis = in.varint();
            int shardCount = (int) in.varint();
            int shards = in.length();
            List<StreamsState.ShardState> kept = new ArrayList<>(shards);
            for (int j = 0; j < shards; j++) {
                String id = in.string();
                String parent = in.nullableString();
                long starting = in.varint();
                Instant opened = instant(in);
                long last = in.varint();
                long ending = in.varint() - 1;
                Instant closedAt = in.byte1() == 1 ? instant(in) : null;
                long trimmedUpTo = in.varint();
                kept.add(new StreamsState.ShardState(id, parent, starting, opened, last, ending, closedAt,
                        trimmedUpTo));
            }
            streams.add(new StreamsState.StreamState(arn, label, tableName, tableId, key, viewType, created, enabled,
                    floor, lastShardMillis, shardCount, kept));
        }
        int latestCount = in.length();
        Map<String, String> latest = new LinkedHashMap<>();
        for (int i = 0; i < latestCount; i++) {
            latest.put(in.string(), in.string());
        }
        return new StreamsState(next, streams, latest);
    }

    private static void instant(Codec.Out out, Instant at) {
        out.varint(at.getEpochSecond());
        out.varint(at.getNano());
    }

    private static Instant instant(Codec.In in) {
        return Instant.ofEpochSecond(in.varint(), in.varint());
    }
}
