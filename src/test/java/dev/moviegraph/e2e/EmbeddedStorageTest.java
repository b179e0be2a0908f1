package dev.moviegraph.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.Moviegraph;
import dev.moviegraph.config.AppConfig;
import dev.moviegraph.local.EmbeddedDynamo;
import dev.moviegraph.local.SampleSnapshot;
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

/** The embedded default keeps its data in DYNAMODB_DATA_DIR across restarts, and leaves nothing behind without it. */
class EmbeddedStorageTest {
    private static final String QUERY = "{ movie(id: \"tt0068646\") { title } }";

    @Test
    void aDataDirectoryKeepsTheCatalogAcrossRestarts(@TempDir Path dir) {
        AppConfig config = AppConfig.fromEnvironment(Map.of("PORT", "0", "DYNAMODB_DATA_DIR", dir.toString()));
        try (Moviegraph first = Moviegraph.start(config, List.of())) {
            assertEquals("The Godfather", title(first));
        }
        assertTrue(Files.exists(dir.resolve(SampleSnapshot.FILE_NAME)), "the database is a file in the folder");
        // Without the sample this time: whatever answers now was kept on disk by the first run.
        AppConfig again = AppConfig.fromEnvironment(Map.of("PORT", "0", "DYNAMODB_DATA_DIR", dir.toString(),
                "LOAD_SAMPLE", "false"));
        try (Moviegraph second = Moviegraph.start(again, List.of())) {
            assertEquals("The Godfather", title(second));
        }
    }

    @Test
    void withoutADataDirectoryNothingIsLeftBehindAndNoSampleMeansAnEmptyTable() throws Exception {
        // Where ephemeral copies go: tmpfs when the machine has one, else the temporary folder.
        Path probe = EmbeddedDynamo.scratchDirectory("moviegraph-probe");
        Path tmp = probe.getParent();
        Files.delete(probe);
        // Copies this JVM already holds (a server another test class left running) are not this test's.
        Set<Path> held = databaseFoldersOpenHere(tmp);
        AppConfig config = AppConfig.fromEnvironment(Map.of("PORT", "0", "LOAD_SAMPLE", "false"));
        try (Moviegraph server = Moviegraph.start(config, List.of())) {
            GraphQLClient.Response response = new GraphQLClient(server.port()).query(QUERY);
            assertTrue(response.data().path("movie").isNull(), "an empty table: " + response.body());
            assertEquals(Set.of(), newCopies(tmp, held), "no sample, no copy: the table is in memory");
        }
        Set<Path> copies;
        try (Moviegraph server = Moviegraph.start(AppConfig.defaults().withPort(0), List.of())) {
            assertEquals("The Godfather", title(server));
            copies = newCopies(tmp, held);
            assertEquals(1, copies.size(), "a temporary copy of the sample while running: " + copies);
        }
        assertFalse(Files.exists(copies.iterator().next()), "the temporary copy is deleted at close: " + copies);
    }

    private static Set<Path> newCopies(Path tmp, Set<Path> held) throws Exception {
        Set<Path> copies = databaseFoldersOpenHere(tmp);
        copies.removeAll(held);
        return copies;
    }

    private static String title(Moviegraph server) {
        return new GraphQLClient(server.port()).query(QUERY).data().path("movie").path("title").asText();
    }

    /**
     * The database folders in {@code tmp} that this JVM holds a file open in. Other processes (a second
     * suite, a gateway another test started) keep copies in the same place, so counting the folders there
     * would count theirs too.
     */
    private static Set<Path> databaseFoldersOpenHere(Path tmp) throws Exception {
        Set<Path> folders = new TreeSet<>();
        try (Stream<Path> descriptors = Files.list(Path.of("/proc/self/fd"))) {
            for (Path descriptor : descriptors.toList()) {
                Path target;
                try {
                    target = Files.readSymbolicLink(descriptor);
                } catch (IOException closedMeanwhile) {
                    continue;
                }
                if (target.startsWith(tmp) && target.getNameCount() > tmp.getNameCount()
                        && target.getName(tmp.getNameCount()).toString().startsWith("moviegraph-dynamodb")) {
                    folders.add(tmp.resolve(target.getName(tmp.getNameCount())));
                }
            }
        }
        return folders;
    }
}
