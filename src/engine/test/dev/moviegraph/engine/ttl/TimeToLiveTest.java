package dev.moviegraph.engine.ttl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;

import dev.moviegraph.engine.stream.Streams;
import dev.moviegraph.engine.stream.TestClock;
import dev.moviegraph.engine.table.KeySchema;
import dev.moviegraph.engine.table.RowKey;
import dev.moviegraph.engine.table.RowStore;
import dev.moviegraph.engine.table.Storage;
import dev.moviegraph.engine.table.StoredItem;
import dev.moviegraph.engine.table.Table;
import dev.moviegraph.engine.table.TableSpec;
import dev.moviegraph.engine.table.Tables;
import dev.moviegraph.engine.value.Numbers;
import dev.moviegraph.engine.value.Value;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

import org.junit.jupiter.api.Test;

class TimeToLiveTest {
    private static final Instant NOW = Instant.parse("2024-03-01T10:00:00Z");
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final TestClock clock = new TestClock(NOW);
    private final Streams streams = new Streams(Streams.StreamSettings.defaults(), clock, "eu-west-1", dev.moviegraph.engine.store.RowFiles.inMemory().records());
    private final Tables tables = new Tables(streams, dev.moviegraph.engine.store.RowFiles.inMemory());
    private final TimeToLive ttl = new TimeToLive(tables, Duration.ofMillis(20), clock);

    private Table table(String name, String ttlAttribute, boolean stream) {
        TableSpec spec = new TableSpec(name, name + "-id", NOW, new KeySchema("pk", "S", null, null), Map.of("pk", "S"),
                "PAY_PER_REQUEST", 0, 0, List.of(), null, null, ttlAttribute, "ACTIVE");
        Table table = tables.create(spec);
        if (stream) {
            table.respec(spec.withStream("NEW_AND_OLD_IMAGES", streams.enable(spec, "NEW_AND_OLD_IMAGES")));
        }
        return table;
    }

    private static RowKey key(String pk) {
        return RowKey.of(new Value.S(pk), null);
    }

    private static void put(Table table, String pk, Value expires) {
        Map<String, Value> item = new LinkedHashMap<>();
        item.put("pk", new Value.S(pk));
        if (expires != null) {
            item.put("expires", expires);
        }
        table.write(key(pk), current -> StoredItem.of(item));
    }

    private static Value.N seconds(long epochSeconds) {
        return Numbers.of(BigDecimal.valueOf(epochSeconds));
    }

    @Test
    void expiredItemsAreDeletedAndOthersKept() {
        Table table = table("Sessions", "expires", false);
        long now = NOW.getEpochSecond();
        put(table, "past", seconds(now - 1));
        put(table, "fractionPast", Numbers.of(new BigDecimal(now - 1 + ".5")));
        put(table, "future", seconds(now + 60));
        put(table, "exactlyNow", seconds(now));
        put(table, "text", new Value.S(Long.toString(now - 100)));
        put(table, "none", null);
        put(table, "ancient", seconds(now - Duration.ofDays(6 * 365).toSeconds()));

        assertEquals(2, ttl.sweepOnce());
        assertNull(table.get(key("past")));
        assertNull(table.get(key("fractionPast")));
        for (String kept : List.of("future", "exactlyNow", "text", "none", "ancient")) {
            assertNotNull(table.get(key(kept)), kept);
        }

        clock.advance(Duration.ofSeconds(61));
        assertEquals(2, ttl.sweepOnce()); // future and exactlyNow
        assertEquals(0, ttl.sweepOnce());
    }

    @Test
    void tablesWithoutTimeToLiveAreLeftAlone() {
        Table table = table("Plain", null, false);
        put(table, "past", seconds(NOW.getEpochSecond() - 10));
        assertEquals(0, ttl.sweepOnce());
        assertNotNull(table.get(key("past")));
    }

    @Test
    void anItemRenewedWhileTheSweepWaitsForItsLockIsKept() throws Exception {
        Table table = table("Sessions", "expires", false);
        put(table, "renewed", seconds(NOW.getEpochSecond() - 10));
        ReentrantLock lock = tables.locks().lockFor(table.name(), key("renewed"));
        CompletableFuture<Integer> sweep;
        lock.lock();
        try {
            sweep = CompletableFuture.supplyAsync(ttl::sweepOnce);
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (!lock.hasQueuedThreads() && System.nanoTime() < deadline) {
                Thread.onSpinWait(); // the sweep saw the item expired and now waits for its lock
            }
            assertTrue(lock.hasQueuedThreads());
            Map<String, Value> renewed = Map.of("pk", new Value.S("renewed"), "expires",
                    seconds(NOW.getEpochSecond() + 3600));
            table.writeLocked(key("renewed"), current -> StoredItem.of(renewed), false);
        } finally {
            lock.unlock();
        }
        assertEquals(0, sweep.get(10, TimeUnit.SECONDS));
        assertNotNull(table.get(key("renewed")));
    }

    @Test
    void aDeletionByTimeToLiveIsARemoveRecordByTheService() {
        Table table = table("Sessions", "expires", true);
        put(table, "gone", seconds(NOW.getEpochSecond() - 5));
        assertEquals(1, ttl.sweepOnce());

        String arn = streams.streamArn(table.spec());
        JsonNode shard = streams.describeStream(NODES.objectNode().put("StreamArn", arn))
                .path("StreamDescription").path("Shards").get(0);
        String iterator = streams.getShardIterator(NODES.objectNode().put("StreamArn", arn)
                .put("ShardId", shard.path("ShardId").asText()).put("ShardIteratorType", "TRIM_HORIZON"))
                .path("ShardIterator").asText();
        JsonNode records = streams.getRecords(NODES.objectNode().put("ShardIterator", iterator)).path("Records");
        assertEquals(2, records.size());
        assertFalse(records.get(0).has("userIdentity"));
        JsonNode remove = records.get(1);
        assertEquals("REMOVE", remove.path("eventName").asText());
        assertEquals("dynamodb.amazonaws.com", remove.path("userIdentity").path("PrincipalId").asText());
        assertEquals("Service", remove.path("userIdentity").path("Type").asText());
        assertTrue(remove.path("dynamodb").has("OldImage"));
    }

    @Test
    void theBackgroundSweepDeletesOnItsOwn() throws InterruptedException {
        Table table = table("Sessions", "expires", false);
        put(table, "past", seconds(NOW.getEpochSecond() - 1));
        try (TimeToLive running = new TimeToLive(tables, Duration.ofMillis(10), clock)) {
            running.start();
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (table.get(key("past")) != null && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
        }
        assertNull(table.get(key("past")));
    }
    @Test
    void turningTimeToLiveOnFindsTheItemsAlreadyThere() {
        Table table = table("Later", null, false);
        long now = NOW.getEpochSecond();
        put(table, "past", seconds(now - 10));
        put(table, "future", seconds(now + 10));
        assertEquals(0, ttl.sweepOnce());
        table.respec(table.spec().withTtl("expires"));
        assertEquals(1, ttl.sweepOnce());
        assertNull(table.get(key("past")));
        assertNotNull(table.get(key("future")));
        // off again: nothing is due any more, whatever its time
        table.respec(table.spec().withTtl(null));
        clock.advance(Duration.ofSeconds(60));
        assertEquals(0, ttl.sweepOnce());
        assertNotNull(table.get(key("future")));
    }

    @Test
    void anItemMovedIntoThePastIsDeletedAndOneMovedOutOfItIsKept() {
        Table table = table("Moving", "expires", false);
        long now = NOW.getEpochSecond();
        put(table, "shortened", seconds(now + 3600));
        put(table, "renewed", seconds(now - 10));
        put(table, "cleared", seconds(now - 10));
        put(table, "shortened", seconds(now - 1));
        put(table, "renewed", seconds(now + 3600));
        put(table, "cleared", null);
        assertEquals(1, ttl.sweepOnce());
        assertNull(table.get(key("shortened")));
        assertNotNull(table.get(key("renewed")));
        assertNotNull(table.get(key("cleared")));
        clock.advance(Duration.ofSeconds(3601));
        assertEquals(1, ttl.sweepOnce());
        assertNull(table.get(key("renewed")));
    }

    @Test
    void theSweepReadsTheItemsDueAndNoOthers() {
        CountingStorage storage = new CountingStorage();
        Tables counted = new Tables(streams, storage);
        TimeToLive sweep = new TimeToLive(counted, Duration.ofMillis(20), clock);
        TableSpec spec = new TableSpec("Big", "Big-id", NOW, new KeySchema("pk", "S", null, null), Map.of("pk", "S"),
                "PAY_PER_REQUEST", 0, 0, List.of(), null, null, "expires", "ACTIVE");
        Table table = counted.create(spec);
        long now = NOW.getEpochSecond();
        for (int i = 0; i < 2000; i++) {
            put(table, "later-" + i, seconds(now + 3600 + i));
        }
        for (int i = 0; i < 3; i++) {
            put(table, "due-" + i, seconds(now - 1 - i));
        }
        storage.walked.clear();
        assertEquals(3, sweep.sweepOnce());
        long rowsWalked = storage.walked.values().stream().mapToLong(java.util.concurrent.atomic.AtomicLong::get).sum();
        assertEquals(0, storage.walked.getOrDefault("Big-id", new java.util.concurrent.atomic.AtomicLong()).get(),
                "the sweep walked the table's items");
        assertTrue(rowsWalked <= 3, "the sweep walked " + rowsWalked + " rows for 3 items due");
        assertEquals(2000, table.itemCount());
    }

    /** Rows in memory, each store's walks counted (rows read by ranges, by the store's name). */
    private static final class CountingStorage implements Storage {
        private final Storage inner = dev.moviegraph.engine.store.RowFiles.inMemory();
        final Map<String, java.util.concurrent.atomic.AtomicLong> walked = new java.util.concurrent.ConcurrentHashMap<>();

        @Override
        public RowStore open(String name) {
            RowStore store = inner.open(name);
            return new RowStore() {
                @Override
                public StoredItem get(RowKey key) {
                    return store.get(key);
                }

                @Override
                public StoredItem put(RowKey key, StoredItem item) {
                    return store.put(key, item);
                }

                @Override
                public StoredItem remove(RowKey key) {
                    return store.remove(key);
                }

                @Override
                public void write(RowKey key, StoredItem item) {
                    store.write(key, item);
                }

                @Override
                public java.util.Iterator<StoredItem> items(RowKey low, boolean lowInclusive, RowKey high,
                                                            boolean highInclusive, boolean descending) {
                    return counted(store.items(low, lowInclusive, high, highInclusive, descending));
                }

                @Override
                public java.util.Iterator<Row> rows(RowKey low, boolean lowInclusive, RowKey high,
                                                    boolean highInclusive, boolean descending) {
                    return counted(store.rows(low, lowInclusive, high, highInclusive, descending));
                }

                private <T> java.util.Iterator<T> counted(java.util.Iterator<T> walk) {
                    return new java.util.Iterator<>() {
                        @Override
                        public boolean hasNext() {
                            return walk.hasNext();
                        }

                        @Override
                        public T next() {
                            walked.computeIfAbsent(name, any -> new java.util.concurrent.atomic.AtomicLong())
                                    .incrementAndGet();
                            return walk.next();
                        }
                    };
                }
            };
        }

        @Override
        public void drop(String name) {
            inner.drop(name);
        }
    }
}
