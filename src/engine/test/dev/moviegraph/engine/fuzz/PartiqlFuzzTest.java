package dev.moviegraph.engine.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.DictionaryFile;
import com.code_intelligence.jazzer.junit.FuzzTest;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.moviegraph.engine.api.BatchApi;
import dev.moviegraph.engine.api.ItemApi;
import dev.moviegraph.engine.api.ReadApi;
import dev.moviegraph.engine.api.Throughput;
import dev.moviegraph.engine.api.TransactApi;
import dev.moviegraph.engine.error.ApiException;
import dev.moviegraph.engine.partiql.PartiqlApi;
import dev.moviegraph.engine.table.IndexSpec;
import dev.moviegraph.engine.table.KeySchema;
import dev.moviegraph.engine.table.Projection;
import dev.moviegraph.engine.table.TableSpec;
import dev.moviegraph.engine.table.Tables;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Timeout;

/**
 * Hostile PartiQL: whatever the statement, ExecuteStatement (lexer, parser, planner and the operation it becomes,
 * on a table with a sort key and a global index) answers, or refuses with one of DynamoDB's exceptions as a
 * 400, never another exception, a stack overflow or a hang. An input is the statement's text, run with two
 * parameters ('a' and 1). {@code mvn test} replays the kept inputs in PartiqlFuzzTestInputs/statement/;
 * JAZZER_FUZZ=1 fuzzes (src/bench/fuzz/run.sh).
 */
class PartiqlFuzzTest {
    private static final String PREFIX = "com.amazonaws.dynamodb.v20120810#";
    private static final Set<String> CLIENT_ERRORS = Set.of("com.amazon.coral.validate#ValidationException",
            PREFIX + "ResourceNotFoundException", PREFIX + "ConditionalCheckFailedException",
            PREFIX + "DuplicateItemException", PREFIX + "TransactionConflictException");

    private static final PartiqlApi PARTIQL = engine();

    private static PartiqlApi engine() {
        Tables tables = new Tables((table, before, after, byService) -> {
        }, dev.moviegraph.engine.store.RowFiles.inMemory());
        KeySchema key = new KeySchema("pk", "S", "sk", "N");
        IndexSpec byG = new IndexSpec("byG", true, new KeySchema("g", "S", null, null),
                new Projection("ALL", List.of()), 0, 0, "ACTIVE");
        tables.create(new TableSpec("fuzz", "id", Instant.now(), key, Map.of("pk", "S", "sk", "N", "g", "S"),
                "PAY_PER_REQUEST", 0, 0, List.of(byG), null, null, null, "ACTIVE"));
        return new PartiqlApi(tables, new ItemApi(tables, Throughput.UNLIMITED), new ReadApi(tables, Throughput.UNLIMITED),
                new BatchApi(tables, Throughput.UNLIMITED), new TransactApi(tables, Throughput.UNLIMITED, Runnable::run));
    }

    @Timeout(10)
    @DictionaryFile(resourcePath = "partiql.dict")
    @FuzzTest(maxDuration = "3m")
    void statement(byte[] data) {
        String text = new String(data, StandardCharsets.UTF_8);
        ObjectNode request = JsonNodeFactory.instance.objectNode();
        request.put("Statement", text);
        request.putArray("Parameters").add(JsonNodeFactory.instance.objectNode().put("S", "a"))
                .add(JsonNodeFactory.instance.objectNode().put("N", "1"));
        try {
            PARTIQL.executeStatement(request);
        } catch (ApiException e) {
            assertTrue(CLIENT_ERRORS.contains(e.type()), () -> e.type() + " for \"" + shown(text) + "\": "
                    + e.getMessage());
            assertEquals(400, e.status());
        }
    }

    private static String shown(String text) {
        return text.length() > 200 ? text.substring(0, 200) + "..." : text;
    }
}
