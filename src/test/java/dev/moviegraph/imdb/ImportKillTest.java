package dev.moviegraph.imdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.moviegraph.cli.Import;
import dev.moviegraph.config.AppConfig;
import dev.moviegraph.dynamo.client.DynamoClients;
import dev.moviegraph.local.EmbeddedDynamo;
import dev.moviegraph.support.ChildJava;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The real command in a JVM of its own, killed with SIGKILL in the middle of writing the cast, then run
 * again: it goes on from its checkpoint and ends with exactly the items an uninterrupted import writes.
 */
class ImportKillTest {
    /** Enough that writing the cast takes a few seconds (chunks of 4,000 items): time to be killed in it. */
    private static final int MOVIES = 2_000;
    private static final int PEOPLE = 1_000;

    @TempDir
    Path files;

    @Test
    void anImportKilledWithSigkillGoesOnWhereItStoppedAndEndsWithTheSameItems() throws Exception {
        ImdbFixture.writeGeneratedSet(files, MOVIES, PEOPLE);

        Path whole = EmbeddedDynamo.scratchDirectory("moviegraph-import-whole");
        Path killed = EmbeddedDynamo.scratchDirectory("moviegraph-import-killed");
        try {
            Import.run(config(whole), List.of(files.toString()), quiet());
            Map<String, Map<String, AttributeValue>> uninterrupted = ImportCommandTest.catalogItems(whole);

            Path log = files.resolve("import.log");
            Process process = launch(killed, log);
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (!Files.readString(log).contains("phase cast") && process.isAlive() && System.nanoTime() < until) {
                Thread.sleep(20);
            }
            Thread.sleep(200);
            if (!process.isAlive()) {
                fail("the import ended before it could be killed; grow the fixture\n" + Files.readString(log));
            }
            process.destroyForcibly(); // SIGKILL: no shutdown hook, no last checkpoint
            assertTrue(process.waitFor(30, TimeUnit.SECONDS));
            assertEquals(137, process.exitValue(), Files.readString(log));

            Map<String, Map<String, AttributeValue>> halfway = ImportCommandTest.catalogItems(killed);
            assertTrue(halfway.size() < uninterrupted.size(), "killed before the end: " + halfway.size() + " items");
            assertFalse(streamOn(killed), "no stream while the import is not done");
            ImdbImport.Summary resumed = Import.run(config(killed), List.of(files.toString()), quiet());
            assertFalse(resumed.alreadyDone());
            // Killed in the credits (one item a record): what it writes is the rest, plus at most the chunks lost.
            long rest = uninterrupted.size() - halfway.size();
            long lag = (ResumablePasses.IN_FLIGHT + 1L) * ImdbImport.CHUNK;
            assertTrue(resumed.itemsWritten() >= rest && resumed.itemsWritten() <= rest + lag,
                    "rest " + rest + ", lag " + lag + ": the second run wrote " + resumed.itemsWritten() + " items");
            assertEquals(uninterrupted, ImportCommandTest.catalogItems(killed), "attribute for attribute");
            assertTrue(streamOn(killed), "the stream is on once the import is done");
        } finally {
            delete(whole);
            delete(killed);
        }
    }

    private static AppConfig config(Path data) {
        return AppConfig.fromEnvironment(Map.of("DYNAMODB_DATA_DIR", data.toString(), "PORT", "0"));
    }

    private static boolean streamOn(Path data) {
        try (EmbeddedDynamo dynamo = EmbeddedDynamo.persistent(data, false);
             DynamoDbAsyncClient client = DynamoClients.create(dynamo.endpoint(), List.of())) {
            var stream = client.describeTable(request -> request.tableName("moviegraph")
                    .overrideConfiguration(ImportCommandTest.PATIENT)).join().table().streamSpecification();
            return stream != null && Boolean.TRUE.equals(stream.streamEnabled());
        }
    }

    private static PrintStream quiet() {
        return new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
    }

    private Process launch(Path data, Path log) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(ChildJava.command("-cp", System.getProperty("java.class.path"),
                "dev.moviegraph.Main", "import", files.toString()))
                .redirectErrorStream(true).redirectOutput(log.toFile());
        Map<String, String> environment = builder.environment();
        environment.keySet().removeIf(key -> !key.equals("PATH") && !key.equals("HOME"));
        environment.put("DYNAMODB_DATA_DIR", data.toString());
        environment.put("AWS_EC2_METADATA_DISABLED", "true"); // as the tests' JVMs have it (pom.xml)
        return builder.start();
    }

    private static void delete(Path dir) throws IOException {
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path file : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(file);
            }
        }
    }
}
