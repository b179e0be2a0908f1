package dev.moviegraph.imdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * The IMDb parser knows nothing of the store or the API: it must stay usable (and testable) without
 * DynamoDB, and a change there must not reach it. A source scan of imdb/, naming file and line.
 */
class ImdbBoundaryTest {
    private static final Path SOURCES = Path.of("src", "main", "java", "dev", "moviegraph", "imdb");
    private static final List<String> FORBIDDEN = List.of("software.amazon", "dev.moviegraph.dynamo",
            "dev.moviegraph.graphql", "dev.moviegraph.http");

    @Test
    void imdbMentionsNeitherTheAwsSdkNorTheStoreNorTheApi() throws IOException {
        assertTrue(Files.isDirectory(SOURCES), SOURCES.toAbsolutePath() + " is missing (run from the project root)");
        List<String> mentions = new ArrayList<>();
        List<Path> files;
        try (Stream<Path> walk = Files.walk(SOURCES)) {
            files = walk.filter(path -> path.toString().endsWith(".java")).sorted().toList();
        }
        assertTrue(files.size() > 10, "sources scanned: " + files);
        for (Path file : files) {
            List<String> lines = Files.readAllLines(file);
            for (int i = 0; i < lines.size(); i++) {
                for (String forbidden : FORBIDDEN) {
                    if (lines.get(i).contains(forbidden)) {
                        mentions.add(file.getFileName() + ":" + (i + 1) + ": " + lines.get(i).trim());
                    }
                }
            }
        }
        assertEquals(List.of(), mentions);
    }
}
