package dev.moviegraph.telemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.dynamo.TestItems;
import dev.moviegraph.support.FakeDynamoEndpoint;
import dev.moviegraph.support.GatewayProcess;
import dev.moviegraph.support.GraphQLClient;
import dev.moviegraph.support.ZipkinServer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/**
 * LOG_FORMAT=json on a real server process: every line it writes is one JSON object, and the error a
 * traced request logged (DynamoDB throttling a read past every retry) carries the request's trace id, so
 * an operator goes from the log line to the trace.
 */
class JsonLogsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void everyLineIsJsonAndATracedRequestsErrorCarriesItsTraceId() throws Exception {
        String traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
        Path log = Files.createTempFile("json-logs", ".log");
        try (FakeDynamoEndpoint dynamo = new FakeDynamoEndpoint()
                .on("DescribeTable", attempt -> FakeDynamoEndpoint.activeTable("moviegraph"))
                .onKey("GetItem", TestItems.layoutKey(), FakeDynamoEndpoint.item(TestItems.currentLayout()))
                .onKey("GetItem", TestItems.itemSizesKey(), FakeDynamoEndpoint.Answer.ok("{}"))
                .on("GetItem", attempt -> FakeDynamoEndpoint.THROTTLED);
             GatewayProcess gateway = GatewayProcess.launch(log, Map.of("DYNAMODB_ENDPOINT", dynamo.endpoint().toString(),
                     "AWS_ACCESS_KEY_ID", "local", "AWS_SECRET_ACCESS_KEY", "local", "AWS_REGION", "us-east-1",
                     "SUBSCRIPTIONS", "off", "LOG_FORMAT", "json", "OTEL_TRACES_EXPORTER", "zipkin",
                     "OTEL_EXPORTER_ZIPKIN_ENDPOINT", ZipkinServer.get().spansEndpoint()))) {
            gateway.awaitReady();
            GraphQLClient.Response response = new GraphQLClient(gateway.port()).post(
                    GraphQLClient.body("{ movie(id: \"tt0133093\") { title } }", Map.of()), "application/json",
                    "application/json", Map.of("traceparent", "00-" + traceId + "-00f067aa0ba902b7-01"));
            assertEquals("UNAVAILABLE", response.errors().path(0).path("extensions").path("code").asText(),
                    response.raw().body());

            List<JsonNode> lines = new ArrayList<>();
            for (String line : gateway.log().lines().filter(line -> !line.isBlank()).toList()) {
                if (line.startsWith("WARNING: ")) {
                    continue; // the JVM's own warnings (a library's native or unsafe access), not the log
                }
                JsonNode event = JSON.readTree(line);
                assertTrue(event.isObject() && event.has("level") && event.has("loggerName"), line);
                lines.add(event);
            }
            assertTrue(lines.stream().anyMatch(event -> event.path("formattedMessage").asText().contains("ready in")),
                    "the start is logged as JSON too: " + lines);
            JsonNode throttled = lines.stream().filter(event -> event.path("formattedMessage").asText()
                    .startsWith("DynamoDB still throttling")).findFirst()
                    .orElseThrow(() -> new AssertionError("no throttling line in " + gateway.log()));
            assertEquals("WARN", throttled.path("level").asText());
            assertEquals(traceId, throttled.path("mdc").path("trace_id").asText(), throttled.toString());
            assertTrue(throttled.path("throwable").isObject(), "the exception is in the line: " + throttled);
        }
    }
}
