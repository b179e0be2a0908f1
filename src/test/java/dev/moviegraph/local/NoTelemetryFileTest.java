package dev.moviegraph.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * DynamoDB Local writes {@code dynamodb-local-metadata.json} (an installation id for its telemetry) into
 * the process's working directory, the project root under Maven, whenever its telemetry is on; the
 * embedded one runs with {@code -disableTelemetry}, so neither an in-memory nor a file database may
 * leave it behind. Checked in a JVM of its own whose working directory is a fresh folder.
 */
class NoTelemetryFileTest {
    private static final String METADATA_FILE = "dynamodb-local-metadata.json";

    /** Runs in the child: DynamoDB Local in memory, then on a folder, each started and stopped. */
    public static final class Child {
        public static void main(String[] args) {
            EmbeddedDynamo.ephemeral(false).close();
            EmbeddedDynamo.persistent(Path.of(args[0]), false).close();
            System.out.println("both stopped");
            // DynamoDB Local leaves a non-daemon thread behind after it stops.
            System.exit(0);
        }
    }

    @Test
    void embeddedDynamoDbLocalWritesNothingIntoTheWorkingDirectory(@TempDir Path workingDir, @TempDir Path dataDir)
            throws Exception {
        Path log = Files.createTempFile("moviegraph-no-telemetry", ".log");
        try {
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            // A short-lived JVM: C1 alone and one GC thread start it on less CPU; the files it leaves do not depend on them.
            Process process = new ProcessBuilder(List.of(java, "-Xmx256m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                    "-cp", System.getProperty("java.class.path"), Child.class.getName(), dataDir.resolve("db").toString()))
                    .directory(workingDir.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
            assertTrue(process.waitFor(120, TimeUnit.SECONDS), "DynamoDB Local did not stop");
            assertEquals(0, process.exitValue(), Files.readString(log));
            assertTrue(Files.readString(log).contains("both stopped"), Files.readString(log));

            assertFalse(Files.exists(workingDir.resolve(METADATA_FILE)), METADATA_FILE + " was written");
            try (var files = Files.list(workingDir)) {
                assertEquals(List.of(), files.toList(), "the working directory stays empty");
            }
        } finally {
            Files.deleteIfExists(log);
        }
    }
}
