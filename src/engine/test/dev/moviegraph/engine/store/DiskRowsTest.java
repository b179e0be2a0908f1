package dev.moviegraph.engine.store;

import dev.moviegraph.engine.stream.ChangeRecord;
import dev.moviegraph.engine.stream.RecordLog;
import dev.moviegraph.engine.table.RowKey;
import dev.moviegraph.engine.table.RowStore;
import dev.moviegraph.engine.table.Rows;
import dev.moviegraph.engine.table.StoredItem;
import dev.moviegraph.engine.value.Value;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;

import static dev.moviegraph.engine.store.NumberedRows.PK;
import static dev.moviegraph.engine.store.NumberedRows.item;
import static dev.moviegraph.engine.store.NumberedRows.key;
import static dev.moviegraph.engine.store.NumberedRows.n;
import static dev.moviegraph.engine.store.NumberedRows.number;
import static dev.moviegraph.engine.store.NumberedRows.numbers;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Rows in a file behind two layers in memory answer as a sorted map does, whatever has reached the file: every
 * read is checked against a {@link TreeMap} while small layers are written out again and again.
 */
class DiskRowsTest {

    @TempDir
    Path dir;

    @BeforeAll
    static void sqlite() {
        // the jar carries SQLite for the platforms it names; a build elsewhere keeps rows in memory (RowHome)
        Assumptions.assumeTrue(DiskRows.available(), "SQLite's native library does not load here");
    }

    @Test
    void answersAsASortedMapWhileLayersReachTheFile() {
        try (DiskRows disk = DiskRows.open(dir, 4096, 2, 256)) {
            RowStore a = disk.open("a");
            RowStore b = disk.open("a/index");
            TreeMap<Integer, Integer> modelA = new TreeMap<>();
            TreeMap<Integer, Integer> modelB = new TreeMap<>();
            Random random = new Random(7);
            for (int step = 0; step < 6000; step++) {
                boolean first = random.nextBoolean();
                RowStore store = first ? a : b;
                TreeMap<Integer, Integer> model = first ? modelA : modelB;
                int k = random.nextInt(400);
                int op = random.nextInt(10);
                if (op < 5) {
                    int v = random.nextInt(1_000_000);
                    StoredItem before = store.put(key(k), item(v));
                    Integer expected = model.put(k, v);
                    assertEquals(expected, before == null ? null : number(before), "put " + k);
                } else if (op < 7) {
                    StoredItem before = store.remove(key(k));
                    Integer expected = model.remove(k);
                    assertEquals(expected, before == null ? null : number(before), "remove " + k);
                } else if (op < 8) {
                    Integer v = random.nextBoolean() ? random.nextInt(1000) : null;
                    store.write(key(k), v == null ? null : item(v));
                    if (v == null) {
                        model.remove(k);
                    } else {
                        model.put(k, v);
                    }
                } else {
                    StoredItem got = store.get(key(k));
                    assertEquals(model.get(k), got == null ? null : number(got), "get " + k);
                }
                if (step % 97 == 0) {
                    checkRanges(store, model, random);
                }
                if (step % 1500 == 0) {
                    disk.checkpointNow();
                }
            }
            assertTrue(disk.flushes() > 10, "layers reached the file: " + disk.flushes());
            disk.checkpointNow();
            checkRanges(a, modelA, random);
            checkRanges(b, modelB, random);
            assertEquals(numbersOf(modelA.values()), numbers(Rows.all(a)));
        }
    }

    @Test
    void boundsInBothDirectionsAsTheMemoryRowsGiveThem() {
        try (DiskRows disk = DiskRows.open(dir, 1 << 20, 2, 256)) {
            RowStore store = disk.open("t");
            for (int i = 0; i < 10; i++) {
                store.put(key(i), item(i));
            }
            store.put(RowKey.of(new Value.S("other"), n(1)), item(99));
            disk.checkpointNow();
            store.remove(key(3)); // a removal still in memory hides the row in the file
            Rows partition = Rows.all(store).subMap(RowKey.partitionStart(PK), true, RowKey.partitionEnd(PK), true);
            assertEquals(List.of(0, 1, 2, 4, 5, 6, 7, 8, 9), numbers(partition));
            assertEquals(List.of(9, 8, 7, 6, 5, 4, 2, 1, 0), numbers(partition.descendingMap()));
            assertEquals(List.of(4, 5), numbers(partition.subMap(key(3), true, key(5), true)));
            assertEquals(List.of(6, 7), numbers(partition.subMap(key(5), false, key(8), false)));
            assertEquals(List.of(8, 7, 6), numbers(partition.subMap(key(5), false, key(8), true).descendingMap()));
            assertEquals(List.of(), numbers(partition.subMap(key(5), false, key(5), false)));
        }
    }

    @Test
    void aDroppedStoreLeavesNothingBehindInMemoryOrInTheFile() {
        try (DiskRows disk = DiskRows.open(dir, 1 << 20, 2, 256)) {
            RowStore old = disk.open("t");
            for (int i = 0; i < 50; i++) {
                old.put(key(i), item(i));
            }
            disk.checkpointNow();
            old.put(key(60), item(60));
            disk.drop("t");
            old.put(key(61), item(61)); // a write racing the deletion lands nowhere
            RowStore again = disk.open("t");
            assertNull(again.get(key(1)));
            assertEquals(List.of(), numbers(Rows.all(again)));
            again.put(key(2), item(2));
            disk.checkpointNow();
            assertEquals(List.of(2), numbers(Rows.all(again)));
        }
    }

    @Test
    void theHeapHoldsAtMostTwoLayersWhateverIsWritten() {
        long layer = 64 * 1024;
        try (DiskRows disk = DiskRows.open(dir, layer, 2, 256)) {
            RowStore store = disk.open("t");
            String filler = "x".repeat(400);
            long max = 0;
            for (int i = 0; i < 20_000; i++) {
                store.write(key(i), StoredItem.of(Map.of("n", n(i), "f", new Value.S(filler))));
                max = Math.max(max, disk.bytesInMemory());
            }
            assertTrue(max <= 2 * layer + 2048, "at most two layers in memory, held " + max);
            assertTrue(disk.bytesOnDisk() > 20_000L * 400, "the rows are in the file: " + disk.bytesOnDisk());
            assertEquals(20_000, numbers(Rows.all(store)).size());
            assertEquals(12_345, number(store.get(key(12_345))));
        }
    }

    @Test
    void rangeReadsDuringWritesAndFlushesSeeEachKeyOnceInOrder() throws Exception {
        try (DiskRows disk = DiskRows.open(dir, 8192, 2, 256)) {
            RowStore store = disk.open("t");
            for (int i = 0; i < 2000; i += 2) {
                store.put(key(i), item(i));
            }
            AtomicReference<Throwable> failure = new AtomicReference<>();
            Thread writer = new Thread(() -> {
                try {
                    Random random = new Random(3);
                    for (int n = 0; n < 20_000; n++) {
                        int k = random.nextInt(2000);
                        if (k % 2 == 0) {
                            store.put(key(k), item(k)); // the even keys stay, rewritten
                        } else if (random.nextBoolean()) {
                            store.put(key(k), item(k));
                        } else {
                            store.remove(key(k));
                        }
                    }
                } catch (Throwable t) {
                    failure.set(t);
                }
            });
            writer.start();
            int walks = 0;
            while (writer.isAlive() || walks < 5) {
                boolean descending = walks % 2 == 1;
                Rows rows = Rows.all(store);
                List<Integer> seen = numbers(descending ? rows.descendingMap() : rows);
                for (int i = 1; i < seen.size(); i++) {
                    assertTrue(descending ? seen.get(i) < seen.get(i - 1) : seen.get(i) > seen.get(i - 1),
                            "in order, each once: " + seen.get(i - 1) + " then " + seen.get(i));
                }
                for (int even = 0; even < 2000; even += 2) {
                    assertTrue(seen.contains(even), "an item no one removed is always seen: " + even);
                }
                walks++;
            }
            writer.join();
            assertNull(failure.get());
            assertTrue(disk.flushes() > 0);
        }
    }

    @Test
    void streamRecordsByNumberThroughTheLayersAndTheFile() {
        try (DiskRows disk = DiskRows.open(dir, 2048, 2, 256)) {
            RecordLog log = disk.records().open("arn/shard-1");
            for (long sequence = 100; sequence < 400; sequence++) {
                log.add(record(sequence));
            }
            assertEquals(100, log.first().sequence());
            for (long sequence = 100; sequence < 150; sequence++) {
                log.remove(sequence);
            }
            assertEquals(150, log.first().sequence());
            Iterator<ChangeRecord> from = log.from(390);
            List<Long> tail = new ArrayList<>();
            from.forEachRemaining(r -> tail.add(r.sequence()));
            assertEquals(List.of(390L, 391L, 392L, 393L, 394L, 395L, 396L, 397L, 398L, 399L), tail);
            assertEquals(Map.of("n", n(123 + 77)), log.from(200).next().newImage());
            disk.records().drop("arn/shard-1");
            assertNull(disk.records().open("arn/shard-1").first());
            assertFalse(disk.records().open("arn/shard-1").from(0).hasNext());
        }
    }

    @Test
    @org.junit.jupiter.api.Timeout(60) // without the refusal the writes wait for room forever
    void aFileThatCannotBeWrittenRefusesWritesRatherThanHangingThem() throws Exception {
        try (DiskRows disk = DiskRows.open(dir, 4096, 2, 256)) {
            RowStore store = disk.open("t");
            try (java.sql.Connection other = java.sql.DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("rows.db"));
                 java.sql.Statement statement = other.createStatement()) {
                statement.execute("DROP TABLE rows"); // every later write of a layer fails
            }
            IllegalStateException refused = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
                    () -> {
                        for (int i = 0; i < 1_000_000; i++) {
                            store.write(key(i), item(i));
                        }
                    });
            assertTrue(refused.getMessage().contains("rows file") && refused.getMessage().contains("cannot be written"),
                    refused.getMessage());
            assertTrue(disk.bytesInMemory() <= 2 * 4096 + 2048, "still at most two layers: " + disk.bytesInMemory());
        }
    }

    private static ChangeRecord record(long sequence) {
        Map<String, Value> image = Map.of("n", n((int) sequence));
        return new ChangeRecord(sequence, 1_700_000_000_000L + sequence, "INSERT", Map.of("n", n((int) sequence)),
                image, null, false, 10);
    }

    private static void checkRanges(RowStore store, TreeMap<Integer, Integer> model, Random random) {
        Rows all = Rows.all(store).subMap(RowKey.partitionStart(PK), true, RowKey.partitionEnd(PK), true);
        assertEquals(numbersOf(model.values()), numbers(all));
        for (int i = 0; i < 4; i++) {
            int lo = random.nextInt(400);
            int hi = lo + random.nextInt(60);
            boolean loIn = random.nextBoolean();
            boolean hiIn = random.nextBoolean();
            NavigableMap<Integer, Integer> expected = model.subMap(lo, loIn, hi, hiIn);
            Rows range = all.subMap(key(lo), loIn, key(hi), hiIn);
            assertEquals(numbersOf(expected.values()), numbers(range), "range " + lo + ".." + hi);
            assertEquals(numbersOf(expected.descendingMap().values()), numbers(range.descendingMap()));
        }
    }

    private static List<Integer> numbersOf(Iterable<Integer> values) {
        List<Integer> list = new ArrayList<>();
        values.forEach(list::add);
        return list;
    }
}
