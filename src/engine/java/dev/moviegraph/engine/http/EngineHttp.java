package dev.moviegraph.engine.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.moviegraph.engine.error.ApiException;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import java.util.zip.CRC32;

import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * DynamoDB's JSON 1.0 protocol over HTTP: a POST whose {@code X-Amz-Target} names the operation
 * ({@code DynamoDB_20120810.GetItem}, {@code DynamoDBStreams_20120810.GetRecords}), a JSON body, a JSON
 * answer with its CRC32 in {@code x-amz-crc32}. Any credentials and signature are accepted: this is a
 * local engine, bound to loopback unless told otherwise.
 */
public final class EngineHttp implements AutoCloseable {
    private static final String CONTENT_TYPE = "application/x-amz-json-1.0";

    private final Server server;
    private final ServerConnector connector;

    public EngineHttp(String host, int port, Function<String, Function<JsonNode, ObjectNode>> operations,
                      ObjectMapper json) {
        QueuedThreadPool threads = new QueuedThreadPool(256, 8);
        threads.setName("engine-http");
        threads.setDaemon(true);
        server = new Server(threads);
        connector = new ServerConnector(server, 1, 1);
        connector.setHost(host);
        connector.setPort(port);
        connector.setIdleTimeout(120_000);
        server.addConnector(connector);
        server.setHandler(new Dispatch(operations, json));
        try {
            server.start();
        } catch (Exception e) {
            throw new IllegalStateException("The engine's HTTP endpoint did not start on " + host + ":" + port + ": "
                    + e.getMessage(), e);
        }
    }

    public int port() {
        return connector.getLocalPort();
    }

    public InetSocketAddress address() {
        return new InetSocketAddress(connector.getHost(), port());
    }

    @Override
    public void close() {
        try {
            server.stop();
        } catch (Exception e) {
            throw new IllegalStateException("The engine's HTTP endpoint did not stop cleanly", e);
        }
    }

    private static final class Dispatch extends Handler.Abstract {
        private final Function<String, Function<JsonNode, ObjectNode>> operations;
        private final ObjectMapper json;

        Dispatch(Function<String, Function<JsonNode, ObjectNode>> operations, ObjectMapper json) {
            this.operations = operations;
            this.json = json;
        }

        @Override
        public boolean handle(Request request, Response response, Callback callback) {
            byte[] body;
            int status = 200;
            try {
                body = answer(request);
            } catch (ApiException e) {
                status = e.status();
                body = error(e);
            } catch (RuntimeException | StackOverflowError e) {
                // DynamoDB's own 500 (JSON the SDKs read and retry), not the server's HTML error page.
                status = 500;
                body = error(ApiException.internal("Internal server error"));
            }
            CRC32 crc = new CRC32();
            crc.update(body);
            response.setStatus(status);
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, CONTENT_TYPE);
            response.getHeaders().put("x-amz-crc32", Long.toString(crc.getValue()));
            response.getHeaders().put("x-amzn-RequestId", UUID.randomUUID().toString());
            response.write(true, ByteBuffer.wrap(body), callback);
            return true;
        }

        private byte[] answer(Request request) {
            // the body read first, whatever the answer: a request answered with its body unread makes Jetty close
            // the connection, which a client that already sent its next request on it sees fail
            byte[] bytes;
            try {
                ByteBuffer buffer = Content.Source.asByteBuffer(request);
                bytes = new byte[buffer.remaining()];
                buffer.get(bytes);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            String target = request.getHeaders().get("X-Amz-Target");
            if (!"POST".equals(request.getMethod()) || target == null) {
                if ("GET".equals(request.getMethod())) {
                    // DynamoDB answers a bare GET with its health text; tools probe it.
                    throw new ApiException("com.amazon.coral.service#UnknownOperationException", 400,
                            "healthy: this is a DynamoDB-compatible endpoint; POST with X-Amz-Target", Map.of());
                }
                throw ApiException.unknownOperation(target);
            }
            Function<JsonNode, ObjectNode> operation = operations.apply(target);
            if (operation == null) {
                throw ApiException.unknownOperation(target);
            }
            JsonNode parsed;
            try {
                parsed = bytes.length == 0 ? json.createObjectNode() : json.readTree(bytes);
            } catch (IOException e) {
                // Bad JSON, and bytes no encoding reads (Jackson takes " \0\0\0" for UTF-32 and then fails with a
                // CharConversionException, an IOException that is not a JsonProcessingException): the client's.
                throw ApiException.serialization("Start of structure or map found where not expected");
            }
            if (parsed == null || !parsed.isObject()) {
                throw ApiException.serialization("Start of structure or map found where not expected");
            }
            try {
                return json.writeValueAsBytes(operation.apply(parsed));
            } catch (JsonProcessingException e) {
                throw new UncheckedIOException(e);
            }
        }

        private byte[] error(ApiException e) {
            ObjectNode node = json.createObjectNode();
            node.put("__type", e.type());
            if (e.getMessage() != null) {
                // DynamoDB spells it "message", and "Message" for TransactionCanceledException.
                node.put(e.type().endsWith("TransactionCanceledException") ? "Message" : "message", e.getMessage());
            }
            e.extra().forEach((name, value) -> node.set(name, json.valueToTree(value)));
            try {
                return json.writeValueAsBytes(node);
            } catch (JsonProcessingException failed) {
                throw new UncheckedIOException(failed);
            }
        }
    }
}
