package dev.moviegraph.engine.stream;

import static dev.moviegraph.engine.stream.StreamFixture.item;
import static dev.moviegraph.engine.stream.StreamFixture.put;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;

import dev.moviegraph.engine.table.Table;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;

class ConcurrentAppendTest {
    private static final int THREADS = 8;
    private static final int WRITES = 500;

    @Test
    void concurrentWritersLoseNoRecordAndKeepEachItemsOrder() throws Exception {
        StreamFixture fixture = new StreamFixture();
        Table table = fixture.table("Movies", "NEW_IMAGE");
        String arn = fixture.arn(table);
        String shard = fixture.shardIds(arn).get(0);
        ExecutorService pool = Executors.newFixedThreadPool(THREADS + 1);
        CountDownLatch go = new CountDownLatch(1);
        AtomicBoolean writing = new AtomicBoolean(true);
        try {
            // a reader polls all along: it must never see a gap (a record without the ones numbered before it)
            Future<Integer> reader = pool.submit(() -> {
                go.await();
                String iterator = fixture.iterator(arn, shard, "TRIM_HORIZON", null);
                int seen = 0;
                String previous = "";
                while ((writing.get() || seen < THREADS * WRITES) && !Thread.currentThread().isInterrupted()) {
                    var page = fixture.records(iterator);
                    for (JsonNode record : page.path("Records")) {
                        String number = record.path("dynamodb").path("SequenceNumber").asText();
                        assertTrue(number.compareTo(previous) > 0);
                        previous = number;
                        seen++;
                    }
                    iterator = page.path("NextShardIterator").asText();
                }
                return seen;
            });
            List<Future<?>> writers = new java.util.ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                String pk = "writer" + t;
                writers.add(pool.submit(() -> {
                    go.await();
                    for (int i = 0; i < WRITES; i++) {
                        put(table, item(pk, i % 5, "n", i));
                    }
                    return null;
                }));
            }
            go.countDown();
            for (Future<?> writer : writers) {
                writer.get(60, TimeUnit.SECONDS);
            }
            writing.set(false);
            assertEquals(THREADS * WRITES, reader.get(60, TimeUnit.SECONDS));
        } finally {
            pool.shutdownNow();
        }

        List<JsonNode> records = fixture.readShard(arn, shard);
        assertEquals(THREADS * WRITES, records.size());
        Set<String> numbers = new HashSet<>();
        Map<String, Long> lastByItem = new HashMap<>();
        for (JsonNode record : records) {
            assertTrue(numbers.add(record.path("dynamodb").path("SequenceNumber").asText()));
            JsonNode image = record.path("dynamodb").path("NewImage");
            String item = image.path("pk").path("S").asText() + "/" + image.path("sk").path("N").asText();
            long n = image.path("n").path("N").asLong();
            Long before = lastByItem.put(item, n);
            assertTrue(before == null || before < n, item + ": " + n + " after " + before);
        }
    }
}
