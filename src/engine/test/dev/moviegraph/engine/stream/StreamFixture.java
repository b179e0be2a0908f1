package dev.moviegraph.engine.stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.moviegraph.engine.table.KeySchema;
import dev.moviegraph.engine.table.RowKey;
import dev.moviegraph.engine.table.StoredItem;
import dev.moviegraph.engine.table.Table;
import dev.moviegraph.engine.table.TableSpec;
import dev.moviegraph.engine.table.Tables;
import dev.moviegraph.engine.value.Numbers;
import dev.moviegraph.engine.value.Value;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** Streams over real tables with a hand-moved clock, and the calls tests make again and again. */
final class StreamFixture {
    static final Instant START = Instant.parse("2024-03-01T10:00:00.250Z");
    static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    final TestClock clock = new TestClock(START);
    final Streams streams;
    final Tables tables;

    StreamFixture() {
        this(Streams.StreamSettings.defaults());
    }

    StreamFixture(Streams.StreamSettings settings) {
        streams = new Streams(settings, clock, "eu-west-1", dev.moviegraph.engine.store.RowFiles.inMemory().records());
        tables = new Tables(streams, dev.moviegraph.engine.store.RowFiles.inMemory());
    }

    /** A table keyed by pk (S) and sk (N), its stream on with {@code viewType} (null: off). */
    Table table(String name, String viewType) {
        TableSpec spec = new TableSpec(name, UUID.randomUUID().toString(), clock.instant(),
                new KeySchema("pk", "S", "sk", "N"), Map.of("pk", "S", "sk", "N"), "PAY_PER_REQUEST", 0, 0,
                List.of(), null, null, null, "ACTIVE");
        Table table = tables.create(spec);
        if (viewType != null) {
            enable(table, viewType);
        }
        return table;
    }

    String enable(Table table, String viewType) {
        String label = streams.enable(table.spec(), viewType);
        table.respec(table.spec().withStream(viewType, label));
        return label;
    }

    String arn(Table table) {
        return streams.streamArn(table.spec());
    }

    static Map<String, Value> item(String pk, int sk, Object... more) {
        Map<String, Value> item = new LinkedHashMap<>();
        item.put("pk", new Value.S(pk));
        item.put("sk", number(sk));
        for (int i = 0; i < more.length; i += 2) {
            Object value = more[i + 1];
            item.put((String) more[i], value instanceof Number n ? number(n.longValue()) : new Value.S((String) value));
        }
        return item;
    }

    static Value.N number(long n) {
        return Numbers.of(BigDecimal.valueOf(n));
    }

    static RowKey key(String pk, int sk) {
        return RowKey.of(new Value.S(pk), number(sk));
    }

    static void put(Table table, Map<String, Value> item) {
        RowKey key = table.keyOf(item);
        table.write(key, current -> StoredItem.of(item));
    }

    static void delete(Table table, String pk, int sk) {
        table.write(key(pk, sk), current -> null);
    }

    ObjectNode describe(String arn) {
        return streams.describeStream(request("StreamArn", arn));
    }

    List<String> shardIds(String arn) {
        List<String> ids = new ArrayList<>();
        describe(arn).path("StreamDescription").path("Shards").forEach(shard -> ids.add(shard.path("ShardId").asText()));
        return ids;
    }

    String iterator(String arn, String shardId, String type, String sequence) {
        ObjectNode request = request("StreamArn", arn, "ShardId", shardId, "ShardIteratorType", type);
        if (sequence != null) {
            request.put("SequenceNumber", sequence);
        }
        return streams.getShardIterator(request).path("ShardIterator").asText();
    }

    ObjectNode records(String iterator) {
        return streams.getRecords(request("ShardIterator", iterator));
    }

    /** Every record of a shard from its trim horizon, following NextShardIterator while pages come back full. */
    List<JsonNode> readShard(String arn, String shardId) {
        List<JsonNode> all = new ArrayList<>();
        String iterator = iterator(arn, shardId, "TRIM_HORIZON", null);
        while (iterator != null) {
            ObjectNode page = records(iterator);
            page.path("Records").forEach(all::add);
            iterator = page.path("Records").isEmpty() ? null : page.path("NextShardIterator").asText(null);
        }
        return all;
    }

    /** Every record of the stream, shard by shard. */
    List<JsonNode> readAll(String arn) {
        List<JsonNode> all = new ArrayList<>();
        for (String shardId : shardIds(arn)) {
            all.addAll(readShard(arn, shardId));
        }
        return all;
    }

    static ObjectNode request(String... pairs) {
        ObjectNode node = NODES.objectNode();
        for (int i = 0; i < pairs.length; i += 2) {
            node.put(pairs[i], pairs[i + 1]);
        }
        return node;
    }

    void advance(Duration by) {
        clock.advance(by);
    }
}
