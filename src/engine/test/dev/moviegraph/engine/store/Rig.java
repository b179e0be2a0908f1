package dev.moviegraph.engine.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.moviegraph.engine.api.TableApi;
import dev.moviegraph.engine.stream.Streams;
import dev.moviegraph.engine.table.IndexSpec;
import dev.moviegraph.engine.table.RowKey;
import dev.moviegraph.engine.table.StoredItem;
import dev.moviegraph.engine.table.Table;
import dev.moviegraph.engine.table.Tables;
import dev.moviegraph.engine.value.Value;
import dev.moviegraph.engine.value.Wire;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;

/** An engine's storage side without HTTP: tables, streams, TableApi and the journal, assembled as Engine does. */
final class Rig implements AutoCloseable {
    static final ObjectMapper JSON = new ObjectMapper();

    final Journal journal;
    final Tables tables;
    final Streams streams;
    final TableApi api;
    private final ExecutorService backfills;

    private Rig(Journal journal, Tables tables, Streams streams, TableApi api, ExecutorService backfills) {
        this.journal = journal;
        this.tables = tables;
        this.streams = streams;
        this.api = api;
        this.backfills = backfills;
    }

    static Rig open(Path dir) {
        return open(dir, Journal.Options.defaults());
    }

    static Rig open(Path dir, Journal.Options options) {
        return open(dir, options, Streams.StreamSettings.defaults());
    }

    static Rig open(Path dir, Journal.Options options, Streams.StreamSettings settings) {
        Clock clock = Clock.systemUTC();
        Streams streams = new Streams(settings, clock, "us-east-1", dev.moviegraph.engine.store.RowFiles.inMemory().records());
        Journal journal = Journal.open(dir, options);
        Tables tables = new Tables(journal.listener(streams), dev.moviegraph.engine.store.RowFiles.inMemory());
        ExecutorService backfills = Executors.newCachedThreadPool(runnable -> {
            Thread thread = new Thread(runnable, "rig-backfill");
            thread.setDaemon(true);
            return thread;
        });
        TableApi api = new TableApi(tables, streams, "us-east-1", clock, backfills, journal::declared,
                journal::deleted);
        journal.replay(tables, streams);
        return new Rig(journal, tables, streams, api, backfills);
    }

    static JsonNode json(String text) {
        try {
            return JSON.readTree(text.replace('\'', '"'));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    ObjectNode call(Function<JsonNode, ObjectNode> operation, String request) {
        return operation.apply(json(request));
    }

    static Map<String, Value> item(String json) {
        return Wire.item(json(json));
    }

    void put(String table, Map<String, Value> attributes) {
        Table t = tables.require(table);
        StoredItem item = StoredItem.of(attributes);
        t.write(t.keyOf(attributes), before -> item);
    }

    void delete(String table, Map<String, Value> key) {
        Table t = tables.require(table);
        t.write(t.keyOf(key), before -> null);
    }

    /** A deletion by time to live (the service's). */
    void expire(String table, Map<String, Value> key) {
        Table t = tables.require(table);
        RowKey rowKey = t.keyOf(key);
        ReentrantLock lock = tables.locks().lockFor(table, rowKey);
        lock.lock();
        try {
            t.writeLocked(rowKey, before -> null, true);
        } finally {
            lock.unlock();
        }
    }

    void awaitIndexesActive(String table) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (tables.require(table).spec().indexes().stream().anyMatch(index -> !index.status().equals("ACTIVE"))) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("index backfill did not finish");
            }
            Thread.sleep(10);
        }
    }

    /** Everything a client could see: declarations, items, index entries, TTL, streams and their records. */
    String fingerprint() {
        StringBuilder out = new StringBuilder();
        for (String name : tables.names()) {
            Table table = tables.require(name);
            // attribute types in a stable order (the spec's own map iterates in an order of its making)
            out.append("table ").append(table.spec().withAttributeTypes(Map.of())).append(' ')
                    .append(new java.util.TreeMap<>(table.spec().attributeTypes())).append('\n');
            out.append(" describe ").append(describeWithoutCounts(name)).append('\n');
            rows(out, " row ", table.rows());
            for (IndexSpec index : table.spec().indexes()) {
                rows(out, " index " + index.name() + " ", table.indexRows(index.name()));
            }
        }
        for (JsonNode stream : streams.listStreams(json("{}")).path("Streams")) {
            String arn = stream.path("StreamArn").asText();
            ObjectNode description = streams.describeStream(json("{'StreamArn':'" + arn + "'}"));
            out.append("stream ").append(description).append('\n');
            for (JsonNode record : streamRecords(arn)) {
                // the journal keeps a record's time as read just before Streams reads its own (Streams does not
                // tell it): the same to the second but when a second turns in between; recordTimes() compares them
                ((ObjectNode) record.path("dynamodb")).remove("ApproximateCreationDateTime");
                out.append(" record ").append(record).append('\n');
            }
        }
        return out.toString();
    }

    /** Every stream record's ApproximateCreationDateTime, by its eventID. */
    Map<String, Long> recordTimes() {
        Map<String, Long> times = new java.util.HashMap<>();
        for (JsonNode stream : streams.listStreams(json("{}")).path("Streams")) {
            for (JsonNode record : streamRecords(stream.path("StreamArn").asText())) {
                times.put(record.path("eventID").asText(), record.path("dynamodb").path("ApproximateCreationDateTime")
                        .asLong());
            }
        }
        return times;
    }

    private String describeWithoutCounts(String name) {
        ObjectNode table = (ObjectNode) api.describeTable(json("{'TableName':'" + name + "'}")).path("Table");
        return table.toString();
    }

    private static void rows(StringBuilder out, String prefix, dev.moviegraph.engine.table.Rows rows) {
        for (StoredItem item : rows) {
            out.append(prefix).append(Wire.json(item.attributes())).append(" size=").append(item.size()).append('\n');
        }
    }

    List<JsonNode> streamRecords(String arn) {
        List<JsonNode> records = new ArrayList<>();
        ObjectNode description = streams.describeStream(json("{'StreamArn':'" + arn + "'}"));
        for (JsonNode shard : description.path("StreamDescription").path("Shards")) {
            String iterator = streams.getShardIterator(json("{'StreamArn':'" + arn + "','ShardId':'"
                    + shard.path("ShardId").asText() + "','ShardIteratorType':'TRIM_HORIZON'}"))
                    .path("ShardIterator").asText();
            while (iterator != null && !iterator.isEmpty()) {
                ObjectNode page = streams.getRecords(json("{'ShardIterator':'" + iterator + "'}"));
                page.path("Records").forEach(records::add);
                if (page.path("Records").isEmpty()) {
                    break;
                }
                JsonNode next = page.get("NextShardIterator");
                iterator = next == null || next.isNull() ? null : next.asText();
            }
        }
        return records;
    }

    List<JsonNode> streamRecordsOf(String table) {
        List<JsonNode> records = new ArrayList<>();
        for (JsonNode stream : streams.listStreams(json("{'TableName':'" + table + "'}")).path("Streams")) {
            records.addAll(streamRecords(stream.path("StreamArn").asText()));
        }
        return records;
    }

    @Override
    public void close() {
        backfills.shutdownNow();
        journal.close();
    }
}
