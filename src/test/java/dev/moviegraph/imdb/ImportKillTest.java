package dev.moviegraph.imdb;

import static dev.moviegraph.imdb.ImdbFixture.N;
import static dev.moviegraph.imdb.ImdbFixture.line;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.moviegraph.cli.Import;
import dev.moviegraph.config.AppConfig;
import dev.moviegraph.local.EmbeddedDynamo;

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
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The real command in a JVM of its own, killed with SIGKILL in the middle of writing the cast, then run
 * again: it goes on from its checkpoint and ends with exactly the items an uninterrupted import writes.
 */
class ImportKillTest {
    /** Enough that writing the cast takes a few seconds (chunks of 2,000): time to be killed in it. */
    private static final int MOVIES = 2_000;
    private static final int PEOPLE = 1_000;

    @TempDir
    Path files;

    @Test
    void anImportKilledWithSigkillGoesOnWhereItStoppedAndEndsWithTheSameItems() throws Exception {
        ImdbFixture.writeGenerated(files, "title.basics.tsv.gz", ImdbFixture.TITLE_BASICS_HEADER, MOVIES,
                i -> line("tt" + (2_000_000 + i), "movie", "Film " + i, "Film", "0", Long.toString(1950 + i % 70), N,
                        "95", "Drama"));
        ImdbFixture.writeGenerated(files, "name.basics.tsv.gz", ImdbFixture.NAME_BASICS_HEADER, PEOPLE,
                i -> line("nm" + (2_000_000 + i), "Player " + i, "1960", N, "actor", N));
        ImdbFixture.writeGenerated(files, "title.principals.tsv.gz", ImdbFixture.TITLE_PRINCIPALS_HEADER, MOVIES * 4L,
                i -> line("tt" + (2_000_000 + i / 4), Long.toString(i % 4 + 1), "nm" + (2_000_000 + (i * 7) % PEOPLE),
                        i % 4 == 3 ? "director" : "actor", N, i % 4 == 3 ? N : "[\"Part " + i + "\"]"));

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
            ImdbImport.Summary resumed = Import.run(config(killed), List.of(files.toString()), quiet());
            assertFalse(resumed.alreadyDone());
            assertTrue(resumed.itemsWritten() < uninterrupted.size(),
                    "the second run did not redo the stored work: " + resumed.itemsWritten() + " items written");
            assertEquals(uninterrupted, ImportCommandTest.catalogItems(killed), "attribute for attribute");
        } finally {
            delete(whole);
            delete(killed);
        }
    }

    private static AppConfig config(Path data) {
        return AppConfig.fromEnvironment(Map.of("DYNAMODB_DATA_DIR", data.toString(), "PORT", "0"));
    }

    private static PrintStream quiet() {
        return new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
    }

    private Process launch(Path data, Path log) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder builder = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                "dev.moviegraph.Main", "import", files.toString())
                .redirectErrorStream(true).redirectOutput(log.toFile());
        Map<String, String> environment = builder.environment();
        environment.keySet().removeIf(key -> !key.equals("PATH") && !key.equals("HOME"));
        environment.put("DYNAMODB_DATA_DIR", data.toString());
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
