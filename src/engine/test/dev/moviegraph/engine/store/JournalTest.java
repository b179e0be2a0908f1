package dev.moviegraph.engine.store;

import com.fasterxml.jackson.databind.JsonNode;

import dev.moviegraph.engine.table.Table;
import dev.moviegraph.engine.value.Value;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JournalTest {
    private static final String MOVIES = "{'TableName':'movies','BillingMode':'PAY_PER_REQUEST',"
            + "'AttributeDefinitions':[{'AttributeName':'pk','AttributeType':'S'},{'AttributeName':'sk','AttributeType':'N'},"
            + "{'AttributeName':'year','AttributeType':'N'},{'AttributeName':'genre','AttributeType':'S'}],"
            + "'KeySchema':[{'AttributeName':'pk','KeyType':'HASH'},{'AttributeName':'sk','KeyType':'RANGE'}],"
            + "'LocalSecondaryIndexes':[{'IndexName':'byYear','KeySchema':[{'AttributeName':'pk','KeyType':'HASH'},"
            + "{'AttributeName':'year','KeyType':'RANGE'}],'Projection':{'ProjectionType':'KEYS_ONLY'}}],"
            + "'GlobalSecondaryIndexes':[{'IndexName':'byGenre','KeySchema':[{'AttributeName':'genre','KeyType':'HASH'},"
            + "{'AttributeName':'year','KeyType':'RANGE'}],'Projection':{'ProjectionType':'INCLUDE',"
            + "'NonKeyAttributes':['title']}}],"
            + "'StreamSpecification':{'StreamEnabled':true,'StreamViewType':'NEW_AND_OLD_IMAGES'}}";

    @TempDir
    Path dir;

    private static String simple(String name, String stream) {
        return "{'TableName':'" + name + "','BillingMode':'PAY_PER_REQUEST',"
                + "'AttributeDefinitions':[{'AttributeName':'pk','AttributeType':'S'}],"
                + "'KeySchema':[{'AttributeName':'pk','KeyType':'HASH'}]"
                + (stream == null ? "" : ",'StreamSpecification':{'StreamEnabled':true,'StreamViewType':'" + stream + "'}")
                + "}";
    }

    private static Map<String, Value> movie(int i) {
        return Rig.item("{'pk':{'S':'p" + (i % 17) + "'},'sk':{'N':'" + i + "'},'year':{'N':'" + (1950 + i % 70) + "'},"
                + "'genre':{'S':'g" + (i % 5) + "'},'title':{'S':'Title é " + i + "'},'rating':{'N':'" + (i % 10) + ".5'},"
                + "'blob':{'B':'AAEC/w=='},'ok':{'BOOL':" + (i % 2 == 0) + "},'nothing':{'NULL':true},"
                + "'list':{'L':[{'S':'a'},{'N':'-1.25E+3'},{'M':{'deep':{'SS':['x','y']}}}]},"
                + "'tags':{'SS':['t" + i + "','all']},'nums':{'NS':['1','2.5']},'bins':{'BS':['AQ==','Ag==']},"
                + "'expires':{'N':'" + (1_000_000 + i) + "'}}");
    }

    private static Map<String, Value> key(String pk) {
        return Rig.item("{'pk':{'S':'" + pk + "'}}");
    }

    /** Builds the data the round trip checks: every kind of declaration change and item change. */
    private void populate(Rig rig) throws InterruptedException {
        rig.call(rig.api::createTable, MOVIES);
        rig.call(rig.api::updateTimeToLive,
                "{'TableName':'movies','TimeToLiveSpecification':{'Enabled':true,'AttributeName':'expires'}}");
        for (int i = 0; i < 300; i++) {
            rig.put("movies", movie(i));
        }
        for (int i = 0; i < 300; i += 3) {
            Map<String, Value> changed = new java.util.LinkedHashMap<>(movie(i));
            changed.put("title", Value.s("Changed " + i));
            changed.put("genre", Value.s("g" + (i % 7)));
            rig.put("movies", changed);
        }
        for (int i = 0; i < 300; i += 10) {
            rig.delete("movies", Rig.item("{'pk':{'S':'p" + (i % 17) + "'},'sk':{'N':'" + i + "'}}"));
        }
        for (int i = 5; i < 300; i += 50) {
            rig.expire("movies", Rig.item("{'pk':{'S':'p" + (i % 17) + "'},'sk':{'N':'" + i + "'}}"));
        }
        // a global index added once items are there: its backfill is not journaled, replay fills it again
        rig.call(rig.api::updateTable, "{'TableName':'movies','AttributeDefinitions':[{'AttributeName':'title',"
                + "'AttributeType':'S'}],'GlobalSecondaryIndexUpdates':[{'Create':{'IndexName':'byTitle','KeySchema':"
                + "[{'AttributeName':'title','KeyType':'HASH'}],'Projection':{'ProjectionType':'ALL'}}}]}");
        rig.awaitIndexesActive("movies");
        rig.put("movies", movie(1000));

        rig.call(rig.api::createTable, simple("plain", null));
        for (int i = 0; i < 50; i++) {
            rig.put("plain", Rig.item("{'pk':{'S':'k" + i + "'},'v':{'N':'" + i + "'}}"));
        }
        rig.call(rig.api::createTable, simple("gone", "KEYS_ONLY"));
        rig.put("gone", Rig.item("{'pk':{'S':'x'}}"));
        rig.call(rig.api::deleteTable, "{'TableName':'gone'}");

        rig.call(rig.api::createTable, simple("again", null));
        rig.put("again", Rig.item("{'pk':{'S':'first'}}"));
        rig.call(rig.api::deleteTable, "{'TableName':'again'}");
        rig.call(rig.api::createTable, simple("again", null));
        rig.put("again", Rig.item("{'pk':{'S':'second'}}"));

        rig.call(rig.api::createTable, simple("toggle", "KEYS_ONLY"));
        rig.put("toggle", Rig.item("{'pk':{'S':'a'}}"));
        rig.call(rig.api::updateTable, "{'TableName':'toggle','StreamSpecification':{'StreamEnabled':false}}");
        rig.put("toggle", Rig.item("{'pk':{'S':'b'}}"));
        Thread.sleep(2); // labels are to the millisecond
        rig.call(rig.api::updateTable, "{'TableName':'toggle','StreamSpecification':{'StreamEnabled':true,"
                + "'StreamViewType':'NEW_IMAGE'}}");
        rig.put("toggle", Rig.item("{'pk':{'S':'c'},'n':{'N':'3'}}"));
        rig.delete("toggle", key("a"));
    }

    @Test
    void roundTripKeepsTablesIndexesItemsTtlAndStreams() throws Exception {
        String before;
        Map<String, Long> times;
        try (Rig rig = Rig.open(dir)) {
            populate(rig);
            before = rig.fingerprint();
            times = rig.recordTimes();
            assertTrue(before.contains("byTitle"), before);
        }
        try (Rig rig = Rig.open(dir)) {
            sameState(before, rig.fingerprint());
            Map<String, Long> replayed = rig.recordTimes();
            assertEquals(times.keySet(), replayed.keySet());
            times.forEach((id, second) -> assertTrue(Math.abs(replayed.get(id) - second) <= 1, id));
            Table movies = rig.tables.require("movies");
            assertEquals("expires", movies.spec().ttlAttribute());
            assertEquals("NEW_AND_OLD_IMAGES", movies.spec().streamViewType());
            assertNull(rig.tables.find("gone"));
            assertEquals(1, rig.tables.require("again").itemCount());
            assertTrue(rig.journal.lastReplay().records() > 300);
            // writes go on, and the stream's numbers go on above the ones before
            List<JsonNode> records = rig.streamRecordsOf("movies");
            String lastBefore = records.get(records.size() - 1).path("dynamodb").path("SequenceNumber").asText();
            rig.put("movies", movie(2000));
            records = rig.streamRecordsOf("movies");
            String lastAfter = records.get(records.size() - 1).path("dynamodb").path("SequenceNumber").asText();
            assertTrue(lastAfter.compareTo(lastBefore) > 0, lastBefore + " then " + lastAfter);
            before = rig.fingerprint();
        }
        try (Rig rig = Rig.open(dir)) {
            sameState(before, rig.fingerprint());
        }
    }

    @Test
    void compactionKeepsEverything() throws Exception {
        String before;
        try (Rig rig = Rig.open(dir)) {
            populate(rig);
            for (int round = 0; round < 5; round++) {
                for (int i = 0; i < 200; i++) {
                    rig.put("plain", Rig.item("{'pk':{'S':'k" + i + "'},'round':{'N':'" + round + "'}}"));
                }
            }
            before = rig.fingerprint();
            rig.journal.compact();
            sameState(before, rig.fingerprint());
            assertEquals(1, files("snapshot-").size(), files("").toString());
            assertEquals(1, files("journal-").size(), files("").toString());
            rig.put("plain", Rig.item("{'pk':{'S':'after-compaction'}}"));
            rig.call(rig.api::deleteTable, "{'TableName':'again'}");
            before = rig.fingerprint();
        }
        try (Rig rig = Rig.open(dir)) {
            sameState(before, rig.fingerprint());
            rig.journal.compact(); // a second compaction starts from the first one's snapshot
            sameState(before, rig.fingerprint());
        }
        try (Rig rig = Rig.open(dir)) {
            sameState(before, rig.fingerprint());
            assertNull(rig.tables.find("again"));
        }
    }

    @Test
    void compactsInTheBackgroundWhileWritesGoOn() throws Exception {
        Journal.Options small = Journal.Options.defaults().withCompactAfterBytes(64 << 10);
        String before;
        try (Rig rig = Rig.open(dir, small)) {
            rig.call(rig.api::createTable, simple("busy", "NEW_AND_OLD_IMAGES"));
            ExecutorService pool = Executors.newFixedThreadPool(4);
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int thread = t;
                done.add(pool.submit(() -> {
                    for (int i = 0; i < 5000; i++) {
                        rig.put("busy", Rig.item("{'pk':{'S':'k" + (i % 300) + "'},'by':{'N':'" + thread + "'},"
                                + "'i':{'N':'" + i + "'},'pad':{'S':'" + "x".repeat(100) + "'}}"));
                    }
                }));
            }
            for (Future<?> future : done) {
                future.get();
            }
            pool.shutdown();
            awaitNoCompaction(rig);
            assertFalse(files("snapshot-").isEmpty(), files("").toString());
            before = rig.fingerprint();
        }
        try (Rig rig = Rig.open(dir, small)) {
            sameState(before, rig.fingerprint());
            assertEquals(20_000, rig.streamRecordsOf("busy").size());
        }
    }

    private void awaitNoCompaction(Rig rig) throws InterruptedException {
        // the background compaction may still be writing; a synchronous one waits for it and then runs again
        rig.journal.compact();
    }

    @Test
    void aTornTailIsDroppedAndTheRestKept() throws Exception {
        try (Rig rig = Rig.open(dir)) {
            rig.call(rig.api::createTable, simple("tee", "NEW_IMAGE"));
            for (int i = 0; i < 10; i++) {
                rig.put("tee", Rig.item("{'pk':{'S':'k" + i + "'}}"));
            }
        }
        Path segment = files("journal-").get(0);
        long size = Files.size(segment);
        // a kill in the middle of the last write: its record is cut short
        try (FileChannel channel = FileChannel.open(segment, StandardOpenOption.WRITE)) {
            channel.truncate(size - 3);
        }
        try (Rig rig = Rig.open(dir)) {
            Table table = rig.tables.require("tee");
            assertEquals(9, table.itemCount());
            assertNull(table.get(table.keyOf(key("k9"))));
            assertNotNull(table.get(table.keyOf(key("k8"))));
            assertTrue(rig.journal.lastReplay().droppedTailBytes() > 0);
            assertEquals(9, rig.streamRecordsOf("tee").size());
            rig.put("tee", Rig.item("{'pk':{'S':'after'}}"));
        }
        // garbage after the last whole record (a half-written frame header and some bytes)
        try (FileChannel channel = FileChannel.open(segment, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
            channel.write(ByteBuffer.wrap(new byte[] {0, 0, 0, 100, 1, 2, 3, 4, 5, 6, 7}));
        }
        try (Rig rig = Rig.open(dir)) {
            Table table = rig.tables.require("tee");
            assertEquals(10, table.itemCount());
            assertNotNull(table.get(table.keyOf(key("after"))));
            rig.put("tee", Rig.item("{'pk':{'S':'later'}}"));
        }
        // a record whose bytes changed: its CRC no longer matches
        size = Files.size(segment);
        try (FileChannel channel = FileChannel.open(segment, StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.wrap(new byte[] {'#'}), size - 2);
        }
        try (Rig rig = Rig.open(dir)) {
            Table table = rig.tables.require("tee");
            assertEquals(10, table.itemCount());
            assertNull(table.get(table.keyOf(key("later"))));
        }
    }

    @Test
    void aTransactionReplaysWholeOrNotAtAll() throws Exception {
        try (Rig rig = Rig.open(dir)) {
            rig.call(rig.api::createTable, simple("tee", "NEW_IMAGE"));
            rig.journal.atomically(() -> {
                rig.put("tee", Rig.item("{'pk':{'S':'a'}}"));
                rig.put("tee", Rig.item("{'pk':{'S':'b'}}"));
            });
        }
        try (Rig rig = Rig.open(dir)) {
            assertEquals(2, rig.tables.require("tee").itemCount());
            assertEquals(2, rig.streamRecordsOf("tee").size());
            rig.journal.atomically(() -> {
                rig.put("tee", Rig.item("{'pk':{'S':'c'}}"));
                rig.put("tee", Rig.item("{'pk':{'S':'d'},'pad':{'S':'" + "z".repeat(50) + "'}}"));
            });
        }
        Path segment = files("journal-").get(files("journal-").size() - 1);
        try (FileChannel channel = FileChannel.open(segment, StandardOpenOption.WRITE)) {
            channel.truncate(Files.size(segment) - 20); // cut inside the second change of the transaction
        }
        try (Rig rig = Rig.open(dir)) {
            assertEquals(2, rig.tables.require("tee").itemCount());
        }
    }

    @Test
    void concurrentWritersReplayInTheirStreamOrder() throws Exception {
        String before;
        try (Rig rig = Rig.open(dir)) {
            rig.call(rig.api::createTable, simple("conc", "NEW_AND_OLD_IMAGES"));
            ExecutorService pool = Executors.newFixedThreadPool(8);
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                int thread = t;
                done.add(pool.submit(() -> {
                    for (int i = 0; i < 1000; i++) {
                        String pk = "k" + ((i * 7 + thread) % 100);
                        if (i % 9 == 0) {
                            rig.delete("conc", key(pk));
                        } else {
                            rig.put("conc", Rig.item("{'pk':{'S':'" + pk + "'},'t':{'N':'" + thread + "'},'i':{'N':'" + i
                                    + "'}}"));
                        }
                    }
                }));
            }
            for (Future<?> future : done) {
                future.get();
            }
            pool.shutdown();
            before = rig.fingerprint();
        }
        try (Rig rig = Rig.open(dir)) {
            sameState(before, rig.fingerprint());
        }
    }

    @Test
    void fsyncOptionsKeepTheSameData() throws Exception {
        for (Journal.Options options : List.of(Journal.Options.defaults().withFsyncEveryWrite(),
                Journal.Options.defaults().withFsyncEvery(java.time.Duration.ofMillis(5)))) {
            Path folder = dir.resolve(options.fsyncEveryWrite() ? "every-write" : "interval");
            String before;
            try (Rig rig = Rig.open(folder, options)) {
                rig.call(rig.api::createTable, simple("synced", "NEW_IMAGE"));
                for (int i = 0; i < 50; i++) {
                    rig.put("synced", Rig.item("{'pk':{'S':'k" + i + "'}}"));
                }
                Thread.sleep(20);
                before = rig.fingerprint();
            }
            try (Rig rig = Rig.open(folder, options)) {
                sameState(before, rig.fingerprint());
            }
        }
    }

    @Test
    void aCrashBetweenSnapshotAndCleanUpLosesNothing() throws Exception {
        String before;
        Path copies = Files.createDirectories(dir.resolve("copies"));
        Path data = dir.resolve("data");
        try (Rig rig = Rig.open(data)) {
            populate(rig);
            for (Path segment : files(data, "journal-")) {
                Files.copy(segment, copies.resolve(segment.getFileName()));
            }
            rig.journal.compact();
            rig.put("plain", Rig.item("{'pk':{'S':'after'}}"));
            before = rig.fingerprint();
        }
        // the segments the snapshot replaced are back (a kill before they were deleted), and a snapshot's temporary
        for (Path segment : files(copies, "journal-")) {
            Files.copy(segment, data.resolve(segment.getFileName()));
        }
        Files.writeString(data.resolve(LogFile.snapshotName(7) + ".tmp"), "half a snapshot");
        try (Rig rig = Rig.open(data)) {
            sameState(before, rig.fingerprint());
        }
        assertTrue(files(data, "snapshot-").stream().noneMatch(path -> path.toString().endsWith(".tmp")));
    }

    @Test
    void aForeignFileIsNotWipedOut() throws Exception {
        try (Rig rig = Rig.open(dir)) {
            rig.call(rig.api::createTable, simple("kept", null));
        }
        Path segment = files(dir, "journal-").get(0);
        Files.write(segment, "this is not a journal file, but it is long".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        IllegalStateException refused = assertThrows(IllegalStateException.class, () -> Rig.open(dir));
        assertTrue(refused.getMessage().contains(segment.toString()), refused.getMessage());
        assertEquals(42, Files.size(segment));
    }

    @Test
    void anInterruptedWriterDoesNotBreakTheJournal() throws Exception {
        try (Rig rig = Rig.open(dir)) {
            rig.call(rig.api::createTable, simple("interrupted", null));
            Thread writer = new Thread(() -> {
                for (int i = 0; i < 100; i++) {
                    Thread.currentThread().interrupt(); // a pool shutting down interrupts its threads mid-write
                    rig.put("interrupted", Rig.item("{'pk':{'S':'k" + i + "'}}"));
                }
            });
            writer.start();
            writer.join();
            rig.put("interrupted", Rig.item("{'pk':{'S':'after'}}"));
        }
        try (Rig rig = Rig.open(dir)) {
            assertEquals(101, rig.tables.require("interrupted").itemCount());
        }
    }

    @Test
    void aSecondEngineOnTheFolderIsRefused() {
        Journal first = Journal.open(dir);
        try {
            IllegalStateException refused = assertThrows(IllegalStateException.class, () -> Journal.open(dir));
            assertTrue(refused.getMessage().contains(dir.toAbsolutePath().toString()), refused.getMessage());
            assertTrue(refused.getMessage().contains("in use by another engine"), refused.getMessage());
        } finally {
            first.close();
        }
        Journal.open(dir).close(); // free again once the first let go
    }

    @Test
    void aFolderThatIsNotOneIsNamed() throws IOException {
        Path file = Files.writeString(dir.resolve("a-file"), "x");
        IllegalStateException notDirectory = assertThrows(IllegalStateException.class, () -> Journal.open(file));
        assertTrue(notDirectory.getMessage().contains(file.toString()), notDirectory.getMessage());
        assertTrue(notDirectory.getMessage().contains("not a directory"), notDirectory.getMessage());
        Path below = file.resolve("data");
        IllegalStateException cannot = assertThrows(IllegalStateException.class, () -> Journal.open(below));
        assertTrue(cannot.getMessage().contains(below.toString()), cannot.getMessage());
    }

    @Test
    void inMemoryKeepsNothing() {
        Journal journal = Journal.open(null);
        journal.replay(null, null);
        journal.declared(null);
        journal.deleted("x");
        journal.close();
        assertNull(journal.dataDir());
    }

    /** Equal fingerprints, or a failure that shows where they part (they are long). */
    static void sameState(String expected, String actual) {
        if (expected.equals(actual)) {
            return;
        }
        String[] a = expected.split("\n");
        String[] b = actual.split("\n");
        int i = 0;
        while (i < a.length && i < b.length && a[i].equals(b[i])) {
            i++;
        }
        throw new AssertionError("states differ at line " + i + " of " + a.length + "/" + b.length + ":\n expected: "
                + (i < a.length ? a[i] : "<end>") + "\n actual:   " + (i < b.length ? b[i] : "<end>"));
    }

    private List<Path> files(String prefix) throws IOException {
        return files(dir, prefix);
    }

    private static List<Path> files(Path dir, String prefix) throws IOException {
        try (Stream<Path> list = Files.list(dir)) {
            return list.filter(path -> path.getFileName().toString().startsWith(prefix)).sorted().toList();
        }
    }
}
