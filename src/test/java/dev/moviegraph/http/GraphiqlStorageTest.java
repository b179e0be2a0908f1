package dev.moviegraph.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.support.Node;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * GraphiQL keeps its tabs and their headers in the browser's localStorage; the storage app.js hands it
 * must never keep an Authorization header there, and must keep the others (Moviegraph-Trace). The real
 * app.js runs in Node with stand-ins for React, GraphiQL and localStorage (test resource
 * graphiql/storage-harness.js), and what GraphiQL would write goes through its storage.
 */
class GraphiqlStorageTest {
    private static JsonNode stored;

    @BeforeAll
    static void runTheBootstrapInNode() throws Exception {
        Node.Result run = Node.run(List.of("node", Path.of("src", "test", "resources", "graphiql",
                "storage-harness.js").toString(), Path.of("src", "main", "resources", "graphiql", "app.js").toString()), 30);
        assertEquals(0, run.exitCode(), run.toString());
        String output = run.stdout();
        stored = new ObjectMapper().readTree(output);
    }

    @Test
    void noAuthorizationEverReachesLocalStorageWhateverTheHeadersCase() {
        String everything = stored.path("everything").toString().toLowerCase();

        assertFalse(everything.contains("authorization"), everything);
        assertFalse(everything.contains("token"), everything);
        assertTrue(stored.path("shouldPersistHeaders").asBoolean(), "the other headers are still kept");
    }

    @Test
    void theOtherHeadersOfTheEditorAndOfEveryTabAreKept() throws IOException {
        ObjectMapper json = new ObjectMapper();

        assertEquals("plan", json.readTree(stored.path("typedHeaders").asText()).path("Moviegraph-Trace").asText());
        assertEquals("on", json.readTree(stored.path("tabHeaders").path(0).asText()).path("Moviegraph-Trace").asText());
        assertTrue(stored.path("tabHeaders").path(1).isNull(), "a tab without headers stays so");
        assertEquals("{ movie(id: \"tt0111161\") { title } }", stored.path("query").asText(), "other keys untouched");
    }

    @Test
    void headersBeingTypedAreKeptOnlyWhenTheyNameNoCredential() {
        assertEquals("", stored.path("halfTyped").asText());
        assertEquals("{ \"Moviegraph-Trace\": \"o", stored.path("halfTypedHarmless").asText());
    }

    @Test
    void aTokenAnEarlierPageKeptIsRemovedWhenThePageLoads() {
        JsonNode afterStart = stored.path("afterStart");

        assertFalse(afterStart.path("graphiql:headers").asText().contains("old-token"), afterStart.toString());
        assertTrue(afterStart.path("graphiql:headers").asText().contains("Moviegraph-Trace"), afterStart.toString());
        assertEquals(List.of("graphiql:headers", "graphiql:theme"), List.copyOf(iterable(afterStart)));
    }

    private static List<String> iterable(JsonNode node) {
        List<String> names = new java.util.ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
