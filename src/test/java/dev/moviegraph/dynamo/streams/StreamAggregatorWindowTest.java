package dev.moviegraph.dynamo.streams;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.catalog.Movie;
import dev.moviegraph.catalog.MovieId;
import dev.moviegraph.dynamo.admin.DynamoCatalogImport;
import dev.moviegraph.dynamo.admin.TableAdmin;
import dev.moviegraph.dynamo.client.DynamoClients;
import dev.moviegraph.dynamo.model.TableModel;
import dev.moviegraph.local.EmbeddedDynamo;
import dev.moviegraph.metrics.GatewayMetrics;
import dev.moviegraph.support.RequestCounter;

import java.time.Duration;
import java.time.Instant;
import java.time.YearMonth;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsAsyncClient;

/**
 * The in-process aggregator counts what a shard holds in windows: a pass over 15,000 streams of 150
 * movies (more than Lambda's largest batch, 10,000 records) is one window, each total written once in it;
 * a window of at most N streams, as the capacity benchmark asks for, cuts the pass into more.
 */
class StreamAggregatorWindowTest {
    private static final String TABLE = "moviegraph";
    private static final int MOVIES = 150;
    private static final YearMonth MONTH = YearMonth.of(2023, 3);
    private static EmbeddedDynamo dynamo;
    private static DynamoDbAsyncClient client;
    private static DynamoDbStreamsAsyncClient streams;
    private static String arn;

    @BeforeAll
    static void table() {
        dynamo = EmbeddedDynamo.ephemeral(false);
        client = DynamoClients.create(dynamo.endpoint(), List.of());
        streams = DynamoClients.createStreams(dynamo.endpoint());
        new TableAdmin(client, TABLE).ensureTable();
        arn = new TableAdmin(client, TABLE).ensureStream(false);
        List<Movie> movies = new ArrayList<>();
        for (int m = 0; m < MOVIES; m++) {
            movies.add(new Movie(MovieId.of(id(m)), "w" + m, 2001, null, List.of(), null));
        }
        new DynamoCatalogImport(client, TABLE, 4).write(movies);
    }

    @AfterAll
    static void close() {
        streams.close();
        client.close();
        dynamo.close();
    }

    private static String id(int movie) {
        return String.format("tt6%07d", movie);
    }

    /** {@code each} streams of every movie, interleaved, as the gateway's writer stores them (TOTALS=stream). */
    private static void record(String prefix, int each) {
        List<WriteRequest> batch = new ArrayList<>();
        for (int s = 0; s < each; s++) {
            for (int m = 0; m < MOVIES; m++) {
                String streamId = prefix + "-" + m + "-" + s;
                batch.add(WriteRequest.builder().putRequest(PutRequest.builder().item(TableModel.STREAM.encode(
                        new TableModel.StoredStream(streamId, MovieId.of(id(m)), Instant.parse("2023-03-05T10:00:00Z"),
                                MONTH, "w" + m))).build()).build());
                if (batch.size() == 25) {
                    List<WriteRequest> full = List.copyOf(batch);
                    client.batchWriteItem(write -> write.requestItems(Map.of(TABLE, full))).join();
                    batch.clear();
                }
            }
        }
        if (!batch.isEmpty()) {
            client.batchWriteItem(write -> write.requestItems(Map.of(TABLE, batch))).join();
        }
    }

    private static long total(int movie) {
        Map<String, AttributeValue> item = client.getItem(get -> get.tableName(TABLE).consistentRead(true)
                .key(TableModel.totalKey(MovieId.of(id(movie)), MONTH))).join().item();
        return item == null || item.isEmpty() ? 0 : Long.parseLong(item.get("streams").n());
    }

    @Test
    void twoAggregatorsTakingTurnsOnAShardCountEachStreamOnce() {
        YearMonth month = MONTH;
        long before = total(0);
        StreamAggregator one = new StreamAggregator(client, streams, TABLE, arn, new GatewayMetrics());
        StreamAggregator two = new StreamAggregator(client, streams, TABLE, arn, new GatewayMetrics());
        record("one", 1);
        one.countOnce(StreamAggregator.Window.DEFAULT); // it remembers where it was in the shard
        record("two", 1);
        two.countOnce(StreamAggregator.Window.DEFAULT); // counts past that
        record("three", 1);
        one.countOnce(StreamAggregator.Window.DEFAULT); // goes on from the checkpoint, not from where it was
        for (int m = 0; m < MOVIES; m++) {
            assertEquals(before + 3, total(m), id(m) + " " + month);
        }
    }

    @Test
    void aPassIsOneWindowEachTotalWrittenOnceAndABoundedWindowCutsItIntoMore() {
        RequestCounter requests = new RequestCounter();
        DynamoDbAsyncClient counted = DynamoClients.create(dynamo.endpoint(), List.of(requests));
        try {
            StreamAggregator aggregator = new StreamAggregator(counted, streams, TABLE, arn, new GatewayMetrics());
            aggregator.countOnce(StreamAggregator.Window.DEFAULT); // whatever another test left
            long before = total(0);
            record("a", 100); // 15,000 streams
            requests.reset();
            aggregator.countOnce(new StreamAggregator.Window(Long.MAX_VALUE, Duration.ofDays(1)));
            assertEquals(2, requests.operations().stream().filter("TransactWriteItems"::equals).count(),
                    "150 totals in one window: two transactions of at most 99, " + requests.operations());
            for (int m = 0; m < MOVIES; m++) {
                assertEquals(before + 100, total(m), id(m));
            }

            record("b", 2); // 300 streams, in windows of at most 50: six windows of 50 totals, one transaction each
            requests.reset();
            aggregator.countOnce(new StreamAggregator.Window(50, Duration.ofDays(1)));
            long transactions = requests.operations().stream().filter("TransactWriteItems"::equals).count();
            assertTrue(transactions >= 6 && transactions <= 7, transactions + " transactions: " + requests.operations());
            for (int m = 0; m < MOVIES; m++) {
                assertEquals(before + 102, total(m), id(m));
            }
        } finally {
            counted.close();
        }
    }
}
