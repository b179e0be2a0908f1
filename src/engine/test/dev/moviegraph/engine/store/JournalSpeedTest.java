package dev.moviegraph.engine.store;

import dev.moviegraph.engine.table.StoredItem;
import dev.moviegraph.engine.table.Table;
import dev.moviegraph.engine.table.Tables;
import dev.moviegraph.engine.value.Value;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Numbers for the journal (run with -Djournal.speed=true): writes a second through the listener, the CPU a
 * write costs with and without the journal, and how long a replay of 100,000 items takes.
 */
@EnabledIfSystemProperty(named = "journal.speed", matches = "true")
class JournalSpeedTest {
    private static final int ITEMS = 100_000;
    private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();

    @TempDir
    Path dir;

    private static Map<String, Value> item(int i) {
        Map<String, Value> item = new LinkedHashMap<>();
        item.put("pk", Value.s("title#" + i));
        item.put("sk", Value.s("meta"));
        item.put("name", Value.s("A movie called number " + i));
        item.put("year", Value.n(1900 + i % 120));
        item.put("rating", Value.n("7.5"));
        item.put("genres", new Value.SS(java.util.Set.of("Drama", "Comedy")));
        item.put("plot", Value.s("x".repeat(80)));
        return item;
    }

    private static final String TABLE = "{'TableName':'speed','BillingMode':'PAY_PER_REQUEST',"
            + "'AttributeDefinitions':[{'AttributeName':'pk','AttributeType':'S'},{'AttributeName':'sk','AttributeType':'S'}],"
            + "'KeySchema':[{'AttributeName':'pk','KeyType':'HASH'},{'AttributeName':'sk','KeyType':'RANGE'}]STREAM}";

    @Test
    void numbers() throws Exception {
        for (int round = 0; round < 2; round++) { // the first round warms up
            boolean report = round == 1;
            Path base = dir.resolve("round" + round);
            run(base.resolve("memory"), null, 1, report, "in memory, 1 thread");
            run(base.resolve("journal"), "", 1, report, "journal, 1 thread");
            run(base.resolve("journal-stream"), ",'StreamSpecification':{'StreamEnabled':true,'StreamViewType':"
                    + "'NEW_AND_OLD_IMAGES'}", 1, report, "journal + stream, 1 thread");
            run(base.resolve("memory8"), null, 8, report, "in memory, 8 threads");
            run(base.resolve("journal8"), "", 8, report, "journal, 8 threads");
            run(base.resolve("fsync8"), "", 8, report, "journal fsync each, 8 thr.", 20_000,
                    Journal.Options.defaults().withFsyncEveryWrite());
            Path replayed = base.resolve("journal");
            long started = System.nanoTime();
            long cpuStarted = CPU.getCurrentThreadCpuTime();
            try (Rig rig = Rig.open(replayed)) {
                long millis = (System.nanoTime() - started) / 1_000_000;
                long cpu = (CPU.getCurrentThreadCpuTime() - cpuStarted) / 1_000_000;
                assertEquals(ITEMS, rig.tables.require("speed").itemCount());
                if (report) {
                    System.out.printf("replay of %,d items (%,d journal bytes): %,d ms open to ready, %,d ms CPU%n",
                            ITEMS, rig.journal.lastReplay().bytes(), millis, cpu);
                }
                rig.journal.compact();
            }
            started = System.nanoTime();
            cpuStarted = CPU.getCurrentThreadCpuTime();
            try (Rig rig = Rig.open(replayed)) {
                if (report) {
                    System.out.printf("replay of the compacted snapshot (%,d bytes): %,d ms, %,d ms CPU%n",
                            rig.journal.lastReplay().bytes(), (System.nanoTime() - started) / 1_000_000,
                            (CPU.getCurrentThreadCpuTime() - cpuStarted) / 1_000_000);
                }
            }
            Path streamed = base.resolve("journal-stream");
            started = System.nanoTime();
            cpuStarted = CPU.getCurrentThreadCpuTime();
            try (Rig rig = Rig.open(streamed)) {
                if (report) {
                    System.out.printf("replay of %,d items with their stream records: %,d ms, %,d ms CPU%n", ITEMS,
                            (System.nanoTime() - started) / 1_000_000,
                            (CPU.getCurrentThreadCpuTime() - cpuStarted) / 1_000_000);
                }
            }
        }
    }

    private void run(Path folder, String stream, int threads, boolean report, String label) throws Exception {
        run(folder, stream, threads, report, label, ITEMS, Journal.Options.defaults());
    }

    private void run(Path folder, String stream, int threads, boolean report, String label, int count,
                     Journal.Options options) throws Exception {
        Files.createDirectories(folder);
        try (Rig rig = stream == null ? Rig.open(null) : Rig.open(folder, options)) {
            rig.call(rig.api::createTable, TABLE.replace("STREAM", stream == null ? "" : stream));
            Table table = rig.tables.require("speed");
            List<StoredItem> items = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                items.add(StoredItem.of(item(i)));
            }
            AtomicLong cpu = new AtomicLong();
            List<Thread> workers = new ArrayList<>();
            long started = System.nanoTime();
            for (int t = 0; t < threads; t++) {
                int offset = t;
                Thread worker = new Thread(() -> {
                    long cpuStart = CPU.getCurrentThreadCpuTime();
                    for (int i = offset; i < count; i += threads) {
                        StoredItem item = items.get(i);
                        table.write(table.keyOf(item.attributes()), before -> item);
                    }
                    cpu.addAndGet(CPU.getCurrentThreadCpuTime() - cpuStart);
                });
                workers.add(worker);
                worker.start();
            }
            for (Thread worker : workers) {
                worker.join();
            }
            long nanos = System.nanoTime() - started;
            if (report) {
                System.out.printf("%-28s %,9.0f writes/s, %5.2f µs CPU a write%n", label, count / (nanos / 1e9),
                        cpu.get() / 1000.0 / count);
            }
        }
    }
}
