package dev.moviegraph.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.catalog.CallContext;
import dev.moviegraph.catalog.Movie;
import dev.moviegraph.catalog.MovieId;
import dev.moviegraph.dynamo.admin.DynamoCatalogImport;
import dev.moviegraph.dynamo.admin.TableAdmin;
import dev.moviegraph.dynamo.client.DynamoClients;
import dev.moviegraph.dynamo.streams.ShardCounter;
import dev.moviegraph.local.EmbeddedDynamo;
import dev.moviegraph.metrics.GatewayMetrics;
import dev.moviegraph.support.DiesAtTransaction;

import java.time.YearMonth;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A batch of a stream shard is summed per movie and month and committed in transactions of 99 totals,
 * each moving the shard's checkpoint: a reader killed between two of them leaves the batch pending, and
 * the next reader finishes it without counting any stream twice; a reader that lost a race to another
 * on the same shard counts nothing.
 */
class ShardCounterTest {
    private static final String TABLE = "moviegraph";
    private static final YearMonth MONTH = YearMonth.of(2024, 6);
    private static final int MOVIES = 150;
    private static EmbeddedDynamo dynamo;
    private static DynamoDbAsyncClient client;

    @BeforeAll
    static void table() {
        dynamo = EmbeddedDynamo.ephemeral(false);
        client = DynamoClients.create(dynamo.endpoint(), List.of());
        new TableAdmin(client, TABLE).ensureTable();
        List<Movie> movies = new ArrayList<>();
        for (int m = 0; m < MOVIES; m++) {
            movies.add(new Movie(MovieId.of(id(m)), "m" + m, 2000, null, List.of(), null));
        }
        new DynamoCatalogImport(client, TABLE, 4).write(movies);
    }

    @AfterAll
    static void close() {
        client.close();
        dynamo.close();
    }

    private static String id(int movie) {
        return String.format("tt7%07d", movie);
    }

    private static ShardCounter counter(DynamoDbAsyncClient with) {
        return new ShardCounter(with, TABLE, new CallContext(new GatewayMetrics(), List.of("test")));
    }

    /** Movie m streamed m + 1 times: 150 totals, so two transactions. */
    private static List<ShardCounter.Counted> batch(Map<String, Long> expected) {
        List<ShardCounter.Counted> streams = new ArrayList<>();
        for (int m = 0; m < MOVIES; m++) {
            for (int s = 0; s <= m; s++) {
                streams.add(new ShardCounter.Counted(MovieId.of(id(m)), MONTH));
            }
            expected.merge(id(m), (long) m + 1, Long::sum);
        }
        java.util.Collections.shuffle(streams, new java.util.Random(7));
        return streams;
    }

    private static long total(int movie) {
        Map<String, AttributeValue> item = client.getItem(get -> get.tableName(TABLE).consistentRead(true)
                .key(Map.of("pk", AttributeValue.fromS("mov#" + id(movie)), "sk", AttributeValue.fromS("tot#" + MONTH))))
                .join().item();
        return item == null || item.isEmpty() ? 0 : Long.parseLong(item.get("streams").n());
    }

    @Test
    void aReaderKilledBetweenTransactionsLeavesTheBatchPendingAndTheNextOneFinishesItOnce() {
        String shard = "shard-killed";
        Map<String, Long> expected = new HashMap<>();
        List<ShardCounter.Counted> first = batch(expected);
        DynamoDbAsyncClient dying = DynamoClients.create(dynamo.endpoint(), List.of(new DiesAtTransaction(2)));
        try {
            assertThrows(RuntimeException.class, () -> counter(dying).count(shard, ShardCounter.Position.START, first,
                    "1000", false));
        } finally {
            dying.close();
        }
        ShardCounter.Position pending = counter(client).position(shard);
        assertNull(pending.sequence());
        assertEquals("1000", pending.pending());
        assertEquals(1, pending.done(), "the first 99 totals are in, the other 51 not");
        long halfway = 0;
        for (int m = 0; m < MOVIES; m++) {
            halfway += total(m);
        }
        assertEquals(expected.entrySet().stream().sorted(Map.Entry.comparingByKey()).limit(99)
                .mapToLong(Map.Entry::getValue).sum(), halfway);

        // A reader with other sums (a Lambda window whose state was lost) does not finish it with them.
        assertThrows(IllegalStateException.class,
                () -> counter(client).count(shard, pending, first.subList(1, first.size()), "1000", false));
        assertEquals(1, counter(client).position(shard).done());

        counter(client).count(shard, pending, first, "1000", false);
        ShardCounter.Position done = counter(client).position(shard);
        assertEquals("1000", done.sequence());
        assertNull(done.pending());
        // The next batch of the shard, after the first.
        List<ShardCounter.Counted> second = batch(expected);
        counter(client).count(shard, done, second, "2000", false);
        for (int m = 0; m < MOVIES; m++) {
            assertEquals(expected.get(id(m)), total(m), id(m));
        }
    }

    @Test
    void aReaderThatLostTheRaceForAShardCountsNothing() {
        String shard = "shard-raced";
        ShardCounter.Position start = counter(client).position(shard);
        long before = total(3);
        List<ShardCounter.Counted> streams = List.of(new ShardCounter.Counted(MovieId.of(id(3)), MONTH));
        counter(client).count(shard, start, streams, "500", false);
        IllegalStateException lost = assertThrows(IllegalStateException.class,
                () -> counter(client).count(shard, start, streams, "500", false));
        assertEquals(before + 1, total(3), lost.getMessage());
        assertEquals("500", counter(client).position(shard).sequence());
    }

    @Test
    void totalsBelowTheMonthsFloorStayOutOfItsTopListAndTheListStaysExact() {
        YearMonth month = YearMonth.of(2024, 7);
        List<Movie> movies = new ArrayList<>();
        for (int m = 0; m < 260; m++) {
            movies.add(new Movie(MovieId.of(String.format("tt6%07d", m)), "f" + m, 2001, null, List.of(), null));
        }
        new DynamoCatalogImport(client, TABLE, 4).write(movies);
        Map<String, Long> expected = new HashMap<>();
        List<ShardCounter.Counted> first = new ArrayList<>();
        for (int m = 0; m < 260; m++) { // movie m streamed m + 1 times: the 200th best has 61
            for (int s = 0; s <= m; s++) {
                first.add(new ShardCounter.Counted(movies.get(m).id(), month));
            }
            expected.put(movies.get(m).id().value(), (long) m + 1);
        }
        ShardCounter counter = counter(client);
        counter.count("shard-floor", ShardCounter.Position.START, first, "100", false);
        Map<String, AttributeValue> list = topList(month);
        assertEquals("61", list.get("floor").n(), "the 200th best total's streams");
        assertEquals(200, list.get("entries").l().size());
        String low = movies.get(0).id().value();
        String rising = movies.get(1).id().value();

        List<ShardCounter.Counted> second = new ArrayList<>();
        for (int s = 0; s < 5; s++) {
            second.add(new ShardCounter.Counted(MovieId.of(low), month)); // 6: still far below the floor
        }
        for (int s = 0; s < 100; s++) {
            second.add(new ShardCounter.Counted(MovieId.of(rising), month)); // 102: past it
        }
        expected.merge(low, 5L, Long::sum);
        expected.merge(rising, 100L, Long::sum);
        counter.count("shard-floor", counter.position("shard-floor"), second, "200", false);

        assertEquals("6", item(low, month).get("streams").n());
        list = topList(month);
        assertEquals("62", list.get("floor").n(), "the floor rose with the list: 102 came in, 61 went out");
        List<String> top = new ArrayList<>();
        for (AttributeValue entry : list.get("entries").l()) {
            top.add(entry.m().get("m").s());
            assertEquals(expected.get(entry.m().get("m").s()), Long.valueOf(entry.m().get("s").n()));
        }
        assertEquals(expected.entrySet().stream().sorted(java.util.Comparator.comparing((Map.Entry<String, Long> e) -> -e.getValue())
                .thenComparing(Map.Entry::getKey)).limit(200).map(Map.Entry::getKey).toList(), top);
        assertFalse(top.contains(low));
        assertEquals("200", counter.position("shard-floor").sequence(), "the batch is finished once its list is merged");
        assertNull(counter.position("shard-floor").pending());
    }

    @Test
    void aShardCheckpointedWhereLayoutThreeKeptCheckpointsGoesOnFromThereIntoAnItemOfItsOwn() {
        String shard = "shard-of-layout-3";
        client.putItem(put -> put.tableName(TABLE).item(Map.of("pk", AttributeValue.fromS("agg#checkpoints"),
                "sk", AttributeValue.fromS("shard#" + shard), "type", AttributeValue.fromS("checkpoint"),
                "shardId", AttributeValue.fromS(shard), "sequenceNumber", AttributeValue.fromS("300")))).join();
        ShardCounter.Position old = counter(client).position(shard);
        assertEquals("300", old.sequence());
        YearMonth month = YearMonth.of(2024, 9);
        long before = streamsOf(id(5), month);
        List<ShardCounter.Counted> streams = List.of(new ShardCounter.Counted(MovieId.of(id(5)), month));

        client.updateItem(update -> update.tableName(TABLE).key(Map.of("pk", AttributeValue.fromS("agg#checkpoints"),
                "sk", AttributeValue.fromS("shard#" + shard))).updateExpression("SET sequenceNumber = :moved")
                .expressionAttributeValues(Map.of(":moved", AttributeValue.fromS("350")))).join();
        assertThrows(IllegalStateException.class, () -> counter(client).count(shard, old, streams, "400", false),
                "a layout 3 aggregator moved it meanwhile: nothing counted");
        assertEquals(before, streamsOf(id(5), month));

        ShardCounter.Position moved = counter(client).position(shard);
        counter(client).count(shard, moved, streams, "400", false);
        assertEquals(before + 1, streamsOf(id(5), month));
        ShardCounter.Position own = counter(client).position(shard);
        assertEquals("400", own.sequence());
        assertFalse(own.layout3(), "the shard's checkpoint is now its own item");
    }

    private static long streamsOf(String movie, YearMonth month) {
        Map<String, AttributeValue> found = item(movie, month);
        return found == null || found.isEmpty() ? 0 : Long.parseLong(found.get("streams").n());
    }

    private static Map<String, AttributeValue> item(String movie, YearMonth month) {
        return client.getItem(get -> get.tableName(TABLE).consistentRead(true)
                .key(Map.of("pk", AttributeValue.fromS("mov#" + movie), "sk", AttributeValue.fromS("tot#" + month))))
                .join().item();
    }

    /** The month's top-list item, read consistently. */
    private static Map<String, AttributeValue> topList(YearMonth month) {
        return client.getItem(get -> get.tableName(TABLE).consistentRead(true)
                .key(Map.of("pk", AttributeValue.fromS("toplist#" + month), "sk", AttributeValue.fromS("toplist#" + month))))
                .join().item();
    }
}
