package dev.moviegraph.engine.conformance;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.moviegraph.engine.Engine;
import dev.moviegraph.engine.EngineOptions;

import java.io.IOException;
import java.net.ConnectException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collections;
import java.util.zip.CRC32;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** DynamoDB's JSON 1.0 protocol on the wire, seen from a plain HTTP client. */
class ProtocolConformanceTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static Engine engine;
    private static HttpClient http;

    @BeforeAll
    static void start() {
        engine = Engine.start(EngineOptions.inMemory());
        http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    }

    @AfterAll
    static void stop() {
        if (engine != null) {
            engine.close();
        }
    }

    private static HttpResponse<byte[]> post(String target, String body) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(engine.endpoint().resolve("/"))
                .timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/x-amz-json-1.0")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (target != null) {
            request.header("X-Amz-Target", target);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    private static void assertFramed(HttpResponse<byte[]> response) {
        assertTrue(response.headers().firstValue("Content-Type").orElse("")
                .startsWith("application/x-amz-json-1.0"), "Content-Type: " + response.headers());
        CRC32 crc = new CRC32();
        crc.update(response.body());
        assertEquals(Long.toString(crc.getValue()), response.headers().firstValue("x-amz-crc32").orElse(null),
                "x-amz-crc32 is the CRC32 of the body as sent");
        assertTrue(response.headers().firstValue("x-amzn-RequestId").isPresent(), "a request id");
    }

    private static JsonNode json(HttpResponse<byte[]> response) throws IOException {
        return JSON.readTree(response.body());
    }

    @Test
    void answersAreJsonWithTheirCrc32() throws Exception {
        HttpResponse<byte[]> response = post("DynamoDB_20120810.ListTables", "{}");
        assertEquals(200, response.statusCode());
        assertFramed(response);
        assertTrue(json(response).has("TableNames"));

        String create = """
                {"TableName":"protocol-table","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],
                 "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"BillingMode":"PAY_PER_REQUEST"}""";
        HttpResponse<byte[]> created = post("DynamoDB_20120810.CreateTable", create);
        assertEquals(200, created.statusCode(), new String(created.body(), StandardCharsets.UTF_8));
        assertFramed(created);
        HttpResponse<byte[]> put = post("DynamoDB_20120810.PutItem",
                "{\"TableName\":\"protocol-table\",\"Item\":{\"pk\":{\"S\":\"é😀\"},\"b\":{\"B\":\"AAEC/w==\"}}}");
        assertEquals(200, put.statusCode(), new String(put.body(), StandardCharsets.UTF_8));
        HttpResponse<byte[]> got = post("DynamoDB_20120810.GetItem",
                "{\"TableName\":\"protocol-table\",\"Key\":{\"pk\":{\"S\":\"é😀\"}}}");
        assertFramed(got);
        assertEquals("AAEC/w==", json(got).path("Item").path("b").path("B").asText(), "binary is base64 on the wire");
        assertEquals("é😀", json(got).path("Item").path("pk").path("S").asText());
    }

    @Test
    void errorsNameTheirTypeAndMessageAndCarryTheCrc32Too() throws Exception {
        HttpResponse<byte[]> missing = post("DynamoDB_20120810.DescribeTable", "{\"TableName\":\"protocol-absent\"}");
        assertEquals(400, missing.statusCode());
        assertFramed(missing);
        JsonNode body = json(missing);
        assertTrue(body.path("__type").asText().endsWith("#ResourceNotFoundException"), body.toString());
        assertFalse(body.path("message").asText().isEmpty(), "an error has a message: " + body);

        HttpResponse<byte[]> invalid = post("DynamoDB_20120810.CreateTable", "{\"TableName\":\"protocol-bad\"}");
        assertEquals(400, invalid.statusCode());
        assertEquals("com.amazon.coral.validate#ValidationException", json(invalid).path("__type").asText());
    }

    @Test
    void anUnknownOperationIsUnknownOperationException() throws Exception {
        HttpResponse<byte[]> response = post("DynamoDB_20120810.Frobnicate", "{}");
        assertEquals(400, response.statusCode());
        assertFramed(response);
        assertTrue(json(response).path("__type").asText().endsWith("#UnknownOperationException"),
                new String(response.body(), StandardCharsets.UTF_8));
        HttpResponse<byte[]> wrongService = post("DynamoDBStreams_20120810.PutItem", "{}");
        assertEquals(400, wrongService.statusCode());
        assertTrue(json(wrongService).path("__type").asText().endsWith("#UnknownOperationException"));
        HttpResponse<byte[]> noTarget = post(null, "{}");
        assertEquals(400, noTarget.statusCode());
        assertTrue(json(noTarget).path("__type").asText().endsWith("#UnknownOperationException"));
    }

    @Test
    void malformedJsonIsSerializationException() {
        assertAll("malformed bodies",
                () -> assertSerializationException("not JSON", post("DynamoDB_20120810.ListTables", "{not json")),
                () -> assertSerializationException("a member of the wrong JSON type (Limit as a string)",
                        post("DynamoDB_20120810.ListTables", "{\"Limit\":\"many\"}")),
                () -> assertSerializationException("a body that is not an object",
                        post("DynamoDB_20120810.ListTables", "[]")));
    }

    private static void assertSerializationException(String what, HttpResponse<byte[]> response) throws IOException {
        String body = new String(response.body(), StandardCharsets.UTF_8);
        assertEquals(400, response.statusCode(), what + " answers 400: " + body);
        assertFramed(response);
        assertTrue(json(response).path("__type").asText().endsWith("#SerializationException"),
                what + " is a SerializationException: " + body);
    }

    @Test
    void theListenerIsOnLoopbackOnly() throws Exception {
        URI endpoint = engine.endpoint();
        assertTrue(InetAddress.getByName(endpoint.getHost()).isLoopbackAddress(), "endpoint " + endpoint);
        InetAddress external = null;
        for (NetworkInterface network : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            if (!network.isUp() || network.isLoopback()) {
                continue;
            }
            for (InetAddress address : Collections.list(network.getInetAddresses())) {
                if (address instanceof Inet4Address && !address.isLoopbackAddress()) {
                    external = address;
                }
            }
        }
        Assumptions.assumeTrue(external != null, "this machine has no non-loopback IPv4 address to try");
        InetAddress target = external;
        assertThrows(ConnectException.class, () -> {
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress(target, endpoint.getPort()), 2000);
            }
        }, "nothing listens on " + target + ":" + endpoint.getPort());
    }
}
