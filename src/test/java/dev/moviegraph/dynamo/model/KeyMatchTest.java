package dev.moviegraph.dynamo.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** Key conditions are derived from the index's declaration: {@link KeyMatch} writes the only text of them. */
class KeyMatchTest {
    private static final Path MAIN = Path.of("src/main/java");

    @Test
    void eachMatchIsWrittenOnTheKeysOfTheIndexItReads() {
        assertEquals("gsi3pk = :pk AND gsi3sk BETWEEN :from AND :to", KeyMatch.BETWEEN.on(Index.GSI3));
        assertEquals("pk = :pk AND begins_with(sk, :sk)", KeyMatch.BEGINS_WITH.on(Index.TABLE));
        assertEquals("pk = :pk", KeyMatch.NONE.on(Index.TABLE));
        assertEquals("pk = mov#tt1 AND sk BETWEEN cast#0 AND cast#~", KeyMatch.substitute(KeyMatch.BETWEEN.on(Index.TABLE),
                Map.of(":pk", "mov#tt1", ":from", "cast#0", ":to", "cast#~")::get));
        assertEquals(KeyMatch.BETWEEN, KeyMatch.of(Map.of(":pk", AttributeValue.fromS("a"), ":from", AttributeValue.fromS("b"),
                ":to", AttributeValue.fromS("c"))));
    }

    @Test
    void everyQueryOfEveryAccessPatternTakesItsConditionFromTheIndexDeclaration() {
        for (Access access : Access.values()) {
            if (access.operation().equals("Query")) {
                String condition = access.describe().keyTemplate();
                assertTrue(condition.startsWith(access.index().partitionKey() + " = "), access + ": " + condition);
            }
        }
    }

    @Test
    void noKeyConditionIsWrittenAsAStringOutsideKeyMatch() throws IOException {
        try (Stream<Path> files = Files.walk(MAIN)) {
            List<String> written = files.filter(file -> file.toString().endsWith(".java"))
                    .filter(file -> !file.endsWith("KeyMatch.java"))
                    .flatMap(file -> lines(file).stream()
                            .filter(line -> !line.trim().startsWith("*") && !line.trim().startsWith("//"))
                            .filter(line -> line.contains("begins_with(") || line.contains(" BETWEEN ")
                                    || line.contains("= :pk") || line.contains("keyConditionExpression(\""))
                            .map(line -> file.getFileName() + ": " + line.trim()))
                    .toList();
            assertEquals(List.of(), written);
        }
    }

    private static List<String> lines(Path file) {
        try {
            return Files.readAllLines(file);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
