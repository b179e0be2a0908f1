package dev.moviegraph.engine.store;

import dev.moviegraph.engine.api.TableApi;
import dev.moviegraph.engine.stream.Streams;
import dev.moviegraph.engine.table.RowKey;
import dev.moviegraph.engine.table.StoredItem;
import dev.moviegraph.engine.table.Table;
import dev.moviegraph.engine.table.Tables;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Writers, transactions and the freezes of checkpoints together on rows on disk with tiny layers, where a layer
 * fills every few writes: no write ever waits for a freeze that waits for it, and a write refused for want of
 * room leaves its thread writing to the journal as before.
 */
class CheckpointConcurrencyTest {
    @TempDir
    Path dir;

    private DiskRows disk;
    private Journal journal;
    private Tables tables;
    private ExecutorService threads;

    @BeforeEach
    void open() {
        Assumptions.assumeTrue(DiskRows.available(), "SQLite's native library does not load here");
    }

    private Table start(long layerBytes) {
        disk = DiskRows.open(dir, layerBytes, 2, 256);
        Streams streams = new Streams(Streams.StreamSettings.defaults(), Clock.systemUTC(), "us-east-1",
                disk.records());
        journal = Journal.open(dir, Journal.Options.defaults().withCompactAfterBytes(1L << 40));
        tables = new Tables(journal.listener(streams), disk);
        threads = Executors.newCachedThreadPool();
        TableApi api = new TableApi(tables, streams, "us-east-1", Clock.systemUTC(), threads, journal::declared,
                journal::deleted);
        journal.replay(tables, streams);
        api.createTable(Rig.json("{'TableName':'things','KeySchema':[{'AttributeName':'pk','KeyType':'HASH'}],"
                + "'AttributeDefinitions':[{'AttributeName':'pk','AttributeType':'S'}],'BillingMode':'PAY_PER_REQUEST',"
                + "'StreamSpecification':{'StreamEnabled':true,'StreamViewType':'NEW_IMAGE'}}"));
        return tables.require("things");
    }

    @AfterEach
    void close() {
        if (threads != null) {
            threads.shutdownNow();
        }
        if (journal != null) {
            journal.close();
        }
        if (disk != null) {
            disk.close();
        }
    }

    @Test
    @Timeout(120) // a stall (writers waiting for a layer the flush thread cannot freeze) never ends
    void writersAndTransactionsGoOnThroughFreezesOfTinyLayers() throws Exception {
        Table table = start(16 << 10);
        List<Future<?>> writers = new ArrayList<>();
        for (int w = 0; w < 12; w++) {
            int writer = w;
            writers.add(threads.submit(() -> {
                for (int i = 0; i < 150; i++) {
                    if (writer % 2 == 0) { // a transaction of 8 items, locked in one order as TransactApi does
                        List<String> names = new ArrayList<>();
                        List<RowKey> keys = new ArrayList<>();
                        List<StoredItem> items = new ArrayList<>();
                        for (int k = 0; k < 8; k++) {
                            StoredItem item = item("t" + writer + "-" + (i * 8 + k) % 200, i);
                            names.add("things");
                            keys.add(table.keyOf(item.attributes()));
                            items.add(item);
                        }
                        List<ReentrantLock> held = tables.locks().lockAll(names, keys);
                        try {
                            journal.atomically(() -> {
                                for (int k = 0; k < keys.size(); k++) {
                                    StoredItem item = items.get(k);
                                    table.writeLocked(keys.get(k), before -> item, false);
                                }
                            });
                        } finally {
                            held.forEach(ReentrantLock::unlock);
                        }
                    } else {
                        StoredItem item = item("s" + writer + "-" + i % 300, i);
                        table.write(table.keyOf(item.attributes()), before -> item);
                    }
                }
                return null;
            }));
        }
        for (Future<?> writer : writers) {
            writer.get();
        }
        assertTrue(disk.flushes() > 20, "layers written: " + disk.flushes());
        assertEquals(6 * 200 + 6 * 150, table.itemCount());
    }

    @Test
    @Timeout(120)
    void aTransactionRefusedForWantOfRoomLeavesItsThreadJournaling() throws Exception {
        Table table = start(4096);
        try (java.sql.Connection other = java.sql.DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("rows.db"));
             java.sql.Statement statement = other.createStatement()) {
            // every write of a layer fails, as on a full disk; reads go on
            statement.execute("CREATE TRIGGER full BEFORE INSERT ON rows BEGIN SELECT RAISE(ABORT, 'disk full'); END");
        }
        ExecutorService one = Executors.newSingleThreadExecutor(); // a pooled thread, as an HTTP server's
        try {
            boolean refused = false;
            for (int i = 0; i < 10_000 && !refused; i++) {
                int n = i;
                try {
                    one.submit(() -> journal.atomically(() -> put(table, "k" + n))).get();
                } catch (ExecutionException e) {
                    assertTrue(e.getCause().getMessage().contains("cannot be written"), e.getCause().toString());
                    refused = true;
                }
            }
            assertTrue(refused, "a transaction refused while the file cannot be written");
            try (java.sql.Connection other = java.sql.DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("rows.db"));
                 java.sql.Statement statement = other.createStatement()) {
                statement.execute("DROP TRIGGER full"); // the disk has room again
            }
            Path segment;
            try (var files = Files.list(dir)) {
                segment = files.filter(f -> f.getFileName().toString().startsWith("journal-")).findFirst().orElseThrow();
            }
            long size = -1;
            for (int attempt = 0; attempt < 100; attempt++) { // the flush thread tries the layer again each second
                try {
                    size = Files.size(segment);
                    one.submit(() -> put(table, "after")).get(30, TimeUnit.SECONDS);
                    break;
                } catch (ExecutionException e) {
                    Thread.sleep(100);
                }
            }
            assertTrue(Files.size(segment) > size, "the pooled thread's next write is journaled");
            threads.submit(() -> put(table, "another")).get(30, TimeUnit.SECONDS); // and nobody waits for it
        } finally {
            one.shutdownNow();
        }
    }

    private static StoredItem item(String key, int version) {
        return StoredItem.of(Rig.item("{'pk':{'S':'" + key + "'},'v':{'N':'" + version + "'},'pad':{'S':'"
                + "p".repeat(200) + "'}}"));
    }

    private static void put(Table table, String key) {
        StoredItem item = item(key, 1);
        table.write(table.keyOf(item.attributes()), before -> item);
    }
}
