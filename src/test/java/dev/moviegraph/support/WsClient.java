package dev.moviegraph.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** A raw WebSocket client of /graphql (the JDK's), recording every message and the close code. */
public final class WsClient implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final BlockingQueue<JsonNode> messages = new LinkedBlockingQueue<>();
    private final CompletableFuture<int[]> closeCode = new CompletableFuture<>();
    private final CompletableFuture<String> closeReason = new CompletableFuture<>();
    private final WebSocket socket;

    private WsClient(int port, String... protocols) {
        WebSocket.Builder builder = HttpClient.newHttpClient().newWebSocketBuilder().connectTimeout(Duration.ofSeconds(10));
        if (protocols.length > 0) {
            builder.subprotocols(protocols[0], java.util.Arrays.copyOfRange(protocols, 1, protocols.length));
        }
        socket = builder.buildAsync(URI.create("ws://localhost:" + port + "/graphql"), new WebSocket.Listener() {
            private final StringBuilder text = new StringBuilder();

            @Override
            public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
                text.append(data);
                if (last) {
                    try {
                        messages.add(JSON.readTree(text.toString()));
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                    text.setLength(0);
                }
                webSocket.request(1);
                return null;
            }

            @Override
            public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
                closeReason.complete(reason);
                closeCode.complete(new int[] {statusCode});
                return null;
            }

            @Override
            public void onError(WebSocket webSocket, Throwable error) {
                closeReason.complete(String.valueOf(error));
                closeCode.complete(new int[] {-1});
            }
        }).join();
    }

    /** A socket speaking graphql-transport-ws. */
    public static WsClient open(int port) {
        return new WsClient(port, "graphql-transport-ws");
    }

    public static WsClient openWith(int port, String... protocols) {
        return new WsClient(port, protocols);
    }

    /** A socket that sent connection_init and got its connection_ack. */
    public static WsClient connected(int port) {
        WsClient client = open(port);
        client.send(Map.of("type", "connection_init"));
        JsonNode ack = client.next(5);
        if (ack == null || !"connection_ack".equals(ack.path("type").asText())) {
            throw new IllegalStateException("no connection_ack: " + ack);
        }
        return client;
    }

    public void send(Object message) {
        try {
            sendText(JSON.writeValueAsString(message));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    public void sendText(String text) {
        socket.sendText(text, true).join();
    }

    public void subscribe(String id, String query, Map<String, Object> variables) {
        send(Map.of("id", id, "type", "subscribe", "payload", Map.of("query", query, "variables", variables)));
    }

    /** The next message within {@code seconds}, or null. */
    public JsonNode next(double seconds) {
        try {
            return messages.poll((long) (seconds * 1000), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /** The close code the server sent within {@code seconds}, or 0 when still open. */
    public int closeCode(double seconds) {
        try {
            return closeCode.get((long) (seconds * 1000), TimeUnit.MILLISECONDS)[0];
        } catch (Exception e) {
            return 0;
        }
    }

    public String closeReason() {
        return closeReason.getNow(null);
    }

    @Override
    public void close() {
        if (!socket.isOutputClosed()) {
            socket.sendClose(WebSocket.NORMAL_CLOSURE, "").exceptionally(e -> null);
        }
        socket.abort();
    }
}
