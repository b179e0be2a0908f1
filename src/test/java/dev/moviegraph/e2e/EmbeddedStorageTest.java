package dev.moviegraph.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.Moviegraph;
import dev.moviegraph.config.AppConfig;
import dev.moviegraph.local.EmbeddedDynamo;
import dev.moviegraph.local.SampleSnapshot;
import dev.moviegraph.support.GraphQLClient;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
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
        long before = countDatabaseFolders(tmp);
        AppConfig config = AppConfig.fromEnvironment(Map.of("PORT", "0", "LOAD_SAMPLE", "false"));
        try (Moviegraph server = Moviegraph.start(config, List.of())) {
            GraphQLClient.Response response = new GraphQLClient(server.port()).query(QUERY);
            assertTrue(response.data().path("movie").isNull(), "an empty table: " + response.body());
        }
        AppConfig withSample = AppConfig.defaults().withPort(0);
        try (Moviegraph server = Moviegraph.start(withSample, List.of())) {
            assertEquals("The Godfather", title(server));
            assertEquals(before + 1, countDatabaseFolders(tmp), "a temporary copy while running");
        }
        assertEquals(before, countDatabaseFolders(tmp), "the temporary copy is deleted at close");
    }

    private static String title(Moviegraph server) {
        return new GraphQLClient(server.port()).query(QUERY).data().path("movie").path("title").asText();
    }

    private static long countDatabaseFolders(Path tmp) throws Exception {
        try (Stream<Path> entries = Files.list(tmp)) {
            return entries.filter(p -> p.getFileName().toString().startsWith("moviegraph-dynamodb")).count();
        }
    }
}
