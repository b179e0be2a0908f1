package dev.moviegraph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * The AWS SDK stays inside dynamo/ (and the start-up assembly, local/ and cli/, which build clients):
 * the catalog port, the GraphQL layer and HTTP know only the catalog's exceptions, so a change of client
 * library or a new SDK exception cannot leak into errors clients see. A source scan: any mention of the
 * SDK's package in these packages' sources fails the build, naming file and line.
 */
class SdkBoundaryTest {
    private static final Path SOURCES = Path.of("src", "main", "java", "dev", "moviegraph");
    private static final List<String> SDK_FREE = List.of("catalog", "graphql", "http");

    @Test
    void catalogGraphqlAndHttpNeverMentionTheAwsSdk() {
        List<String> mentions = new ArrayList<>();
        int files = 0;
        for (String pkg : SDK_FREE) {
            Path dir = SOURCES.resolve(pkg);
            assertTrue(Files.isDirectory(dir), dir.toAbsolutePath() + " is missing (run from the project root)");
            for (Path file : javaFiles(dir)) {
                files++;
                List<String> lines = lines(file);
                for (int i = 0; i < lines.size(); i++) {
                    if (lines.get(i).contains("software.amazon")) {
                        mentions.add(SOURCES.relativize(file) + ":" + (i + 1) + ": " + lines.get(i).trim());
                    }
                }
            }
        }
        assertFalse(files == 0, "no sources scanned");
        assertEquals(List.of(), mentions, "AWS SDK types must not leave dynamo/; translate them there"
                + " (dynamo/StoreFailures) into the catalog's exceptions");
    }

    private static List<Path> javaFiles(Path dir) {
        try (Stream<Path> walk = Files.walk(dir)) {
            return walk.filter(path -> path.toString().endsWith(".java")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<String> lines(Path file) {
        try {
            return Files.readAllLines(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
