package dev.moviegraph.engine.store;

import dev.moviegraph.engine.Engine;
import dev.moviegraph.engine.EngineOptions;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** kill -9 of an engine in the middle of a load loses no acknowledged write, nor its stream record. */
class KillTest {
    private static final int WRITERS = 8;
    private static final int ACKS_BEFORE_KILL = 2000;

    @TempDir
    Path dir;

    @Test
    void everyAcknowledgedWriteSurvivesAKill() throws Exception {
        killAndRestart(List.of(), List.of(), ignored -> true);
    }

    /**
     * Rows on disk in 1 MB layers, so the child writes checkpoints of them as it goes: the restart takes the rows up
     * from the last one, whatever was half done at the kill, and replays the journal after it.
     */
    @Test
    void everyAcknowledgedWriteSurvivesAKillAfterCheckpoints() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(DiskRows.available(), "SQLite's native library does not load");
        String restoredAt = killAndRestart(List.of("-DDYNAMODB_WRITE_BUFFER_MB=1"), List.of("0", "512"),
                ignored -> true);
        assertTrue(restoredAt != null, "the restart took up a checkpoint of the rows");
    }

    /**
     * Compactions one after another (a 16 KB floor, 4 KB items: each snapshot takes a while to write), and the kill
     * sent while one is writing its snapshot: the restart reads the last whole snapshot and the segments after it.
     */
    @Test
    void everyAcknowledgedWriteSurvivesAKillDuringACompaction() throws Exception {
        killAndRestart(List.of(), List.of(Long.toString(16 << 10), Integer.toString(4 << 10)), data -> {
            try (var files = Files.list(data)) {
                return files.anyMatch(file -> file.getFileName().toString().endsWith(".tmp"));
            } catch (java.io.IOException e) {
                return false; // the folder not made yet, or a file gone while listed: look again
            }
        });
    }

    /** Kills the child once it acknowledged enough writes and {@code when} holds of its folder; checks the restart. */
    private String killAndRestart(List<String> jvmArguments, List<String> childArguments,
                                  java.util.function.Predicate<Path> when) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Path data = dir.resolve("data");
        Path printed = dir.resolve("child.out");
        long started = System.nanoTime();
        // the child's Jetty and SDK would log at DEBUG without a configuration: warnings only
        Path logging = Files.writeString(dir.resolve("logback.xml"), "<configuration><appender"
                + " name='err' class='ch.qos.logback.core.ConsoleAppender'><target>System.err</target><encoder>"
                + "<pattern>child %level %logger - %msg%n</pattern></encoder></appender><root level='WARN'>"
                + "<appender-ref ref='err'/></root></configuration>");
        List<String> command = new ArrayList<>(List.of(java, "-Dlogback.configurationFile=" + logging));
        command.addAll(jvmArguments);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"),
                KillChild.class.getName(), data.toString(), Integer.toString(WRITERS)));
        command.addAll(childArguments);
        Process child = new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .redirectOutput(printed.toFile())
                .start();
        int killedAt;
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(240);
            while ((killedAt = acknowledged(printed).size()) < ACKS_BEFORE_KILL) {
                alive(child, killedAt, deadline);
                Thread.sleep(20);
            }
            // stopped first, so that what the folder shows when it dies is what `when` saw
            while (true) {
                alive(child, killedAt, deadline);
                if (when.test(data)) {
                    signal(child, "STOP");
                    if (when.test(data)) {
                        break;
                    }
                    signal(child, "CONT");
                }
                Thread.sleep(1);
            }
            child.destroyForcibly(); // SIGKILL: no shutdown hook, no close
            assertTrue(child.waitFor(30, TimeUnit.SECONDS));
            assertTrue(when.test(data), "the folder changed after the kill");
        } finally {
            child.destroyForcibly();
        }
        long loadMillis = (System.nanoTime() - started) / 1_000_000;
        String atKill = journalStats(data);
        // every whole line the child printed is a write it had an answer for, including those after the check
        Set<String> acknowledged = acknowledged(printed);
        try (Engine engine = Engine.start(EngineOptions.inMemory().withDataDir(data));
             DynamoDbClient client = KillChild.client(engine);
             DynamoDbStreamsClient streams = DynamoDbStreamsClient.builder()
                     .endpointOverride(engine.endpoint())
                     .region(software.amazon.awssdk.regions.Region.US_EAST_1)
                     .credentialsProvider(software.amazon.awssdk.auth.credentials.StaticCredentialsProvider.create(
                             software.amazon.awssdk.auth.credentials.AwsBasicCredentials.create("any", "any")))
                     .build()) {
            Set<String> present = new HashSet<>();
            Map<String, AttributeValue> start = null;
            do {
                Map<String, AttributeValue> from = start;
                ScanResponse page = client.scan(request -> request.tableName(KillChild.TABLE).exclusiveStartKey(from));
                page.items().forEach(item -> present.add(item.get("pk").s()));
                start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
            } while (start != null);
            Set<String> missing = new HashSet<>(acknowledged);
            missing.removeAll(present);
            Set<String> unacknowledged = new HashSet<>(present);
            unacknowledged.removeAll(acknowledged);

            List<String> recorded = new ArrayList<>();
            String arn = streams.listStreams(request -> request.tableName(KillChild.TABLE)).streams().get(0).streamArn();
            var shards = streams.describeStream(request -> request.streamArn(arn)).streamDescription().shards();
            String previous = "";
            for (var shard : shards) {
                String iterator = streams.getShardIterator(request -> request.streamArn(arn).shardId(shard.shardId())
                        .shardIteratorType("TRIM_HORIZON")).shardIterator();
                while (iterator != null) {
                    String at = iterator;
                    var page = streams.getRecords(request -> request.shardIterator(at));
                    for (var record : page.records()) {
                        String sequence = record.dynamodb().sequenceNumber();
                        assertTrue(sequence.compareTo(previous) > 0, previous + " then " + sequence);
                        previous = sequence;
                        recorded.add(record.dynamodb().keys().get("pk").s());
                    }
                    iterator = page.records().isEmpty() ? null : page.nextShardIterator();
                }
            }
            System.out.printf("kill test: %d writes acknowledged (%d when the kill was sent), %d items after restart,"
                            + " %d acknowledged missing, %d present but never acknowledged (in flight at the kill),"
                            + " %d stream records; replay %s%n", acknowledged.size(), killedAt, present.size(),
                    missing.size(), unacknowledged.size(), recorded.size(), journalStats(data) + " (child ran " + loadMillis
                            + " ms; its folder at the kill " + atKill + ")");
            assertTrue(missing.isEmpty(), "acknowledged writes lost: " + missing);
            try (var files = Files.list(data)) {
                assertTrue(files.noneMatch(file -> file.getFileName().toString().endsWith(".tmp")),
                        "the restart left the half-written snapshot");
            }
            assertTrue(new HashSet<>(recorded).containsAll(acknowledged), "acknowledged writes without a stream record");
            assertEquals(present.size(), recorded.size(), "one stream record per item written (each key once)");
            var description = client.describeTable(request -> request.tableName(KillChild.TABLE)).table();
            assertEquals(present.size(), description.itemCount(), "the table's count");
            assertEquals(present.size(), description.globalSecondaryIndexes().get(0).itemCount(), "the index's count");
            Set<String> indexed = new HashSet<>();
            for (int w = 0; w < WRITERS; w++) {
                String writer = "w" + w;
                client.queryPaginator(request -> request.tableName(KillChild.TABLE).indexName(KillChild.INDEX)
                                .keyConditionExpression("w = :w")
                                .expressionAttributeValues(Map.of(":w", AttributeValue.fromS(writer))))
                        .items().forEach(item -> assertTrue(indexed.add(item.get("pk").s()), "indexed twice: " + item));
            }
            assertEquals(present, indexed, "the index holds each item once, and no other");
            return engine.restoredAt();
        }
    }

    private static void signal(Process child, String signal) throws Exception {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(child.pid())).start();
        assertTrue(kill.waitFor(10, TimeUnit.SECONDS) && kill.exitValue() == 0, "kill -" + signal + " failed");
    }

    private static void alive(Process child, int acknowledged, long deadline) {
        if (!child.isAlive()) {
            throw new AssertionError("the child ended early, after " + acknowledged + " writes");
        }
        if (System.nanoTime() > deadline) {
            throw new AssertionError("the child acknowledged " + acknowledged + " writes in 240 s, the moment to"
                    + " kill it never came");
        }
    }

    private static Set<String> acknowledged(Path printed) throws java.io.IOException {
        Set<String> keys = new HashSet<>();
        String text = Files.readString(printed, StandardCharsets.UTF_8);
        int end = text.lastIndexOf('\n'); // a line cut by the kill is not whole
        for (String line : text.substring(0, end + 1).split("\n")) {
            if (line.startsWith("ACK ")) {
                keys.add(line.substring(4));
            }
        }
        return keys;
    }

    private static String journalStats(Path dir) throws java.io.IOException {
        try (var files = Files.list(dir)) {
            return files.map(file -> file.getFileName() + "=" + file.toFile().length() + "B").sorted().toList().toString();
        }
    }
}
