package dev.moviegraph.dynamo.write;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.catalog.CallContext;
import dev.moviegraph.catalog.MonthlyStreams;
import dev.moviegraph.catalog.Movie;
import dev.moviegraph.catalog.MovieId;
import dev.moviegraph.catalog.TopList;
import dev.moviegraph.catalog.TotalsMode;
import dev.moviegraph.dynamo.admin.DynamoCatalogImport;
import dev.moviegraph.dynamo.admin.TableAdmin;
import dev.moviegraph.dynamo.client.DynamoClients;
import dev.moviegraph.dynamo.model.TopShards;
import dev.moviegraph.dynamo.streams.ShardCounter;
import dev.moviegraph.local.EmbeddedDynamo;
import dev.moviegraph.metrics.GatewayMetrics;
import dev.moviegraph.support.RequestCounter;

import java.time.Duration;
import java.time.YearMonth;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;

/**
 * Deleting a month's best movies takes them out of its top list at once, and once deletions leave a list
 * that was full with fewer than {@link TopLists#REFILL_BELOW} entries, a refill rebuilds it from the
 * month's totals (GSI8's keys, one Query per shard, then the totals): the list is again the exact best of
 * what remains, however far below the old floor that is.
 */
class TopListRefillTest {
    private static final String TABLE = "moviegraph";
    private static final YearMonth MONTH = YearMonth.of(2024, 7);
    private static final int MOVIES = 260;
    private static EmbeddedDynamo dynamo;
    private static DynamoDbAsyncClient client;
    private static final ExecutorService WRITES = Executors.newFixedThreadPool(4);
    private static final CallContext CONTEXT = new CallContext(new GatewayMetrics(), List.of("test"));

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
        List<ShardCounter.Counted> streams = new ArrayList<>();
        for (int m = 0; m < MOVIES; m++) { // movie m streamed m + 1 times
            for (int s = 0; s <= m; s++) {
                streams.add(new ShardCounter.Counted(MovieId.of(id(m)), MONTH));
            }
        }
        new ShardCounter(client, TABLE, CONTEXT).count("refill-shard", ShardCounter.Position.START, streams, "1", false);
    }

    @AfterAll
    static void close() {
        WRITES.shutdownNow();
        client.close();
        dynamo.close();
    }

    private static String id(int movie) {
        return String.format("tt8%07d", movie);
    }

    private static TopList list(TopLists lists) {
        return lists.read(MONTH, CONTEXT).list();
    }

    @Test
    void deletedMoviesLeaveTheListAndAListLeftShortIsRefilledExactFromTheRemainingTotals() throws Exception {
        TopLists lists = new TopLists(client, TABLE);
        TopList full = list(lists);
        assertEquals(TopLists.KEPT, full.entries().size());
        assertEquals(61, full.floor(), "the 200th best of 260 totals streamed 1 to 260 times");

        DynamoCatalogWriter writer = new DynamoCatalogWriter(client, TABLE, TotalsMode.STREAM, WRITES);
        int deleted = 80; // the 80 best: more than the 50 a list of 200 can lose and stay exact for a top 150
        for (int m = MOVIES - 1; m >= MOVIES - deleted; m--) {
            assertTrue(writer.deleteMovie(MovieId.of(id(m)), CONTEXT).join());
            if (m == MOVIES - 10) {
                TopList afterTen = list(lists);
                assertFalse(afterTen.entries().stream().anyMatch(entry -> entry.movieId().value().equals(id(MOVIES - 1))),
                        "a deleted movie leaves the list at once");
                assertEquals(TopLists.KEPT - 10, afterTen.entries().size(), "no refill while 190 entries stay exact");
            }
        }
        // 180 movies remain, streamed 1 to 180 times: after the refill the list holds all of them, best first.
        Map<String, Long> remaining = new TreeMap<>();
        for (int m = 0; m < MOVIES - deleted; m++) {
            remaining.put(id(m), (long) m + 1);
        }
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        TopList refilled = list(lists);
        while (refilled.entries().size() != remaining.size() && System.nanoTime() < deadline) {
            Thread.sleep(200);
            refilled = list(lists);
        }
        List<String> expected = remaining.entrySet().stream()
                .sorted(java.util.Comparator.comparing((Map.Entry<String, Long> e) -> -e.getValue()).thenComparing(Map.Entry::getKey))
                .map(Map.Entry::getKey).toList();
        assertEquals(expected, refilled.entries().stream().map(entry -> entry.movieId().value()).toList());
        for (MonthlyStreams entry : refilled.entries()) {
            assertEquals(remaining.get(entry.movieId().value()), entry.streams(), entry.toString());
        }
        // Every remaining total is listed, so the floor is at most the last entry's streams. It is 0 when the last
        // refill saw fewer than 200 totals, and 1 when it ran while exactly 200 remained (the 20 deletions after it
        // leave 180 entries, too many to refill again): both keep the list exact.
        long last = refilled.entries().get(refilled.entries().size() - 1).streams();
        assertTrue(refilled.floor() <= last, "floor " + refilled.floor() + " above the last entry's " + last);

        // What a refill costs: a Query per GSI8 shard (keys only), the totals by key, the list read and written.
        RequestCounter requests = new RequestCounter(); // this refill's own, not the background ones'
        try (DynamoDbAsyncClient counted = DynamoClients.create(dynamo.endpoint(), List.of(requests))) {
            new TopLists(counted, TABLE).refill(MONTH, CONTEXT);
        }
        List<String> operations = requests.operations();
        assertEquals(TopShards.COUNT, operations.stream().filter("Query"::equals).count(), operations.toString());
        assertFalse(operations.contains("Scan"));
        assertTrue(operations.size() <= TopShards.COUNT + 8, operations.toString());
    }
}
