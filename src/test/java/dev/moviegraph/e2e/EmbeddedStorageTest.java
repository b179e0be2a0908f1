package dev.moviegraph.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.Moviegraph;
import dev.moviegraph.config.AppConfig;
import dev.moviegraph.support.GraphQLClient;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedded default keeps its data in DYNAMODB_DATA_DIR across restarts, and without it keeps the
 * engine's data in memory only: not a file is opened in the temporary folders for it.
 */
class EmbeddedStorageTest {
    private static final String QUERY = "{ movie(id: \"tt0068646\") { title } }";

    @Test
    void aDataDirectoryKeepsTheCatalogAcrossRestarts(@TempDir Path dir) throws IOException {
        AppConfig config = AppConfig.fromEnvironment(Map.of("PORT", "0", "DYNAMODB_DATA_DIR", dir.toString()));
        try (Moviegraph first = Moviegraph.start(config, List.of())) {
            assertEquals("The Godfather", title(first));
        }
        try (Stream<Path> files = Files.list(dir)) {
            assertTrue(files.findAny().isPresent(), "the engine's data is in the folder");
        }
        // Without the sample this time: whatever answers now was kept on disk by the first run.
        AppConfig again = AppConfig.fromEnvironment(Map.of("PORT", "0", "DYNAMODB_DATA_DIR", dir.toString(),
                "LOAD_SAMPLE", "false"));
        try (Moviegraph second = Moviegraph.start(again, List.of())) {
            assertEquals("The Godfather", title(second));
        }
    }

    @Test
    void withoutADataDirectoryTheDataIsInMemoryAndNoSampleMeansAnEmptyTable() throws Exception {
        Set<Path> before = filesOpenInTemporaryFolders();
        AppConfig config = AppConfig.fromEnvironment(Map.of("PORT", "0", "LOAD_SAMPLE", "false"));
        try (Moviegraph server = Moviegraph.start(config, List.of())) {
            GraphQLClient.Response response = new GraphQLClient(server.port()).query(QUERY);
            assertTrue(response.data().path("movie").isNull(), "an empty table: " + response.body());
            assertEquals(Set.of(), newlyOpen(before), "no sample, no file: the table is in memory");
        }
        Set<Path> copy;
        try (Moviegraph server = Moviegraph.start(AppConfig.defaults().withPort(0), List.of())) {
            assertEquals("The Godfather", title(server));
            // The sample starts from a copy of the build's data folder, in memory where the machine has a tmpfs.
            copy = newlyOpen(before);
            if (Files.isDirectory(Path.of("/dev/shm"))) {
                assertTrue(copy.stream().allMatch(file -> file.startsWith(real(Path.of("/dev/shm")))),
                        "the sample's copy is in memory (/dev/shm): " + copy);
            }
        }
        for (Path file : copy) {
            assertTrue(Files.notExists(file), "the copy is deleted when the server stops: " + file);
        }
    }

    private static String title(Moviegraph server) {
        return new GraphQLClient(server.port()).query(QUERY).data().path("movie").path("title").asText();
    }

    private static Set<Path> newlyOpen(Set<Path> before) throws IOException {
        Set<Path> now = filesOpenInTemporaryFolders();
        now.removeAll(before);
        return now;
    }

    /** The files this JVM holds open under the temporary folder or /dev/shm (another test's server may hold some). */
    private static Set<Path> filesOpenInTemporaryFolders() throws IOException {
        List<Path> roots = Stream.of(Path.of(System.getProperty("java.io.tmpdir")), Path.of("/dev/shm"))
                .filter(Files::isDirectory).map(EmbeddedStorageTest::real).toList();
        Set<Path> open = new TreeSet<>();
        try (Stream<Path> descriptors = Files.list(Path.of("/proc/self/fd"))) {
            for (Path descriptor : descriptors.toList()) {
                Path target;
                try {
                    target = Files.readSymbolicLink(descriptor);
                } catch (IOException closedMeanwhile) {
                    continue;
                }
                if (roots.stream().anyMatch(target::startsWith)) {
                    open.add(target);
                }
            }
        }
        return open;
    }

    private static Path real(Path path) {
        try {
            return path.toRealPath();
        } catch (IOException e) {
            return path;
        }
    }
}
