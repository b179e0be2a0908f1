package dev.moviegraph.telemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.Moviegraph;
import dev.moviegraph.config.AppConfig;
import dev.moviegraph.config.ConfigException;
import dev.moviegraph.support.GraphQLClient;
import dev.moviegraph.support.ZipkinServer;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Traces through the real server to a real Zipkin, read back from Zipkin's API: a request's
 * {@code traceparent} is the parent of its operation's span, and every DynamoDB call the request made
 * (as its own extensions.trace lists them) is a client span under that one, with its table, index and
 * consumed capacity.
 */
class TracesToZipkinTest {
    private static final String SERVICE = "moviegraph-traces-test";
    private static Moviegraph server;
    private static GraphQLClient client;

    @BeforeAll
    static void start() {
        ZipkinServer zipkin = ZipkinServer.get();
        server = Moviegraph.start(AppConfig.fromEnvironment(Map.of("PORT", "0",
                "OTEL_TRACES_EXPORTER", "zipkin", "OTEL_EXPORTER_ZIPKIN_ENDPOINT", zipkin.spansEndpoint(),
                "OTEL_SERVICE_NAME", SERVICE, "OTEL_BSP_SCHEDULE_DELAY", "100")), List.of());
        client = new GraphQLClient(server.port());
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    private static String hex(int bytes) {
        byte[] random = new byte[bytes];
        ThreadLocalRandom.current().nextBytes(random);
        random[0] |= 1; // never all zeros, which W3C trace context forbids
        return HexFormat.of().formatHex(random);
    }

    /** Zipkin keeps names in lower case. */
    private static JsonNode named(List<JsonNode> spans, String name) {
        return spans.stream().filter(span -> span.path("name").asText().equals(name.toLowerCase())).findFirst()
                .orElseThrow(() -> new AssertionError("no span " + name + " in " + spans));
    }

    @Test
    void aQuerysOperationSpanIsTheChildOfItsTraceparentAndEachDynamoDbCallAChildOfIt() {
        String traceId = hex(16);
        String callerSpan = hex(8);
        String query = "query CastOfShawshank { movie(id: \"tt0111161\") { title"
                + " cast(first: 3) { edges { node { person { name birthYear movies(first: 2) { edges { node { movie { title } } } } } } } } } }";
        GraphQLClient.Response response = client.post(GraphQLClient.body(query, Map.of()), "application/json",
                "application/json", Map.of("traceparent", "00-" + traceId + "-" + callerSpan + "-01",
                        "Moviegraph-Trace", "on"));
        assertEquals(200, response.status(), response.raw().body());
        JsonNode calls = response.body().path("extensions").path("trace").path("calls");
        assertTrue(calls.size() >= 2, "the query made several DynamoDB calls: " + calls);

        List<JsonNode> spans = ZipkinServer.get().trace(traceId, found -> found.size() >= calls.size() + 1);
        JsonNode operation = named(spans, "query CastOfShawshank");
        assertEquals(callerSpan, operation.path("parentId").asText(), "the operation's parent is the caller's span");
        assertEquals("SERVER", operation.path("kind").asText());
        assertEquals(SERVICE.toLowerCase(), operation.path("localEndpoint").path("serviceName").asText());
        assertEquals("CastOfShawshank", operation.path("tags").path("graphql.operation.name").asText());

        List<JsonNode> dynamo = spans.stream().filter(span -> span.path("name").asText().startsWith("dynamodb.")).toList();
        assertEquals(calls.size(), dynamo.size(), "a span per DynamoDB call: " + spans);
        List<String> made = new ArrayList<>();
        calls.forEach(call -> made.add(("DynamoDB." + call.path("operation").asText()).toLowerCase() + " on "
                + call.path("index").asText() + " (" + call.path("pattern").asText() + ")"));
        assertEquals(made.stream().sorted().toList(), dynamo.stream().map(span -> span.path("name").asText() + " on "
                + span.path("tags").path("aws.dynamodb.index_name").asText("table") + " ("
                + span.path("tags").path("moviegraph.access_pattern").asText() + ")").sorted().toList());
        for (JsonNode span : dynamo) {
            assertEquals(operation.path("id").asText(), span.path("parentId").asText(), "under the operation: " + span);
            assertEquals("CLIENT", span.path("kind").asText());
            JsonNode tags = span.path("tags");
            assertEquals("moviegraph", tags.path("aws.dynamodb.table_names").asText());
            assertTrue(tags.path("aws.dynamodb.consumed_capacity").asText().contains("\"ReadCapacityUnits\""), tags.toString());
            assertTrue(tags.path("moviegraph.read_units").asDouble() > 0, tags.toString());
            long start = span.path("timestamp").asLong();
            assertTrue(start >= operation.path("timestamp").asLong()
                    && start + span.path("duration").asLong() <= operation.path("timestamp").asLong()
                    + operation.path("duration").asLong() + 1_000, "within the operation's time: " + span);
        }
    }

    @Test
    void aRequestWithoutTraceparentStartsATraceOfItsOwn() {
        String query = "query JustTheTitle { movie(id: \"tt0068646\") { title } }";
        assertEquals(200, client.query(query).status());
        List<JsonNode> spans = ZipkinServer.get().spansOf(SERVICE, found -> found.stream()
                .anyMatch(span -> span.path("name").asText().equals("query justthetitle")));
        JsonNode operation = named(spans, "query JustTheTitle");
        assertFalse(operation.has("parentId"), "a root span: " + operation);
        assertTrue(spans.stream().anyMatch(span -> span.path("parentId").asText().equals(operation.path("id").asText())
                && span.path("name").asText().equals("dynamodb.getitem")), "its GetItem under it");
    }

    @Test
    void tracesAreOffUnlessAnExporterIsNamedAndABadSettingStopsTheStartWithOneLine() {
        assertFalse(Telemetry.fromEnvironment(Map.of(), "s", "t").isOn());
        assertFalse(Telemetry.fromEnvironment(Map.of("OTEL_TRACES_EXPORTER", "none"), "s", "t").isOn());
        assertFalse(Telemetry.fromEnvironment(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318"), "s", "t").isOn());
        assertTrue(Telemetry.OFF.operation(null, "query", "Q").observing(dev.moviegraph.catalog.CallObserver.NONE)
                == dev.moviegraph.catalog.CallObserver.NONE, "off, a request's observer is its own");
        ConfigException refused = assertThrows(ConfigException.class,
                () -> Telemetry.fromEnvironment(Map.of("OTEL_TRACES_EXPORTER", "jaeger-thrift"), "s", "t"));
        assertTrue(refused.getMessage().startsWith("OpenTelemetry (OTEL_* variables): "), refused.getMessage());
        assertTrue(refused.getMessage().contains("jaeger-thrift"), refused.getMessage());
    }
}
