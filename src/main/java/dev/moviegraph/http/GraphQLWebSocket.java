package dev.moviegraph.http;

import dev.moviegraph.auth.AuthException;
import dev.moviegraph.auth.Credentials;
import dev.moviegraph.auth.Viewer;
import dev.moviegraph.graphql.GraphQLRequest;
import dev.moviegraph.graphql.GraphQLService;
import dev.moviegraph.graphql.budget.ClientBudgets;
import dev.moviegraph.graphql.errors.ErrorType;
import dev.moviegraph.graphql.live.LiveQueries;
import dev.moviegraph.graphql.persisted.PersistedDocuments;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import graphql.language.OperationDefinition;
import io.javalin.websocket.WsCloseContext;
import io.javalin.websocket.WsConfig;
import io.javalin.websocket.WsConnectContext;
import io.javalin.websocket.WsContext;
import io.javalin.websocket.WsErrorContext;
import io.javalin.websocket.WsMessageContext;
import org.eclipse.jetty.websocket.api.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * GraphQL over WebSocket with graphql-ws's {@code graphql-transport-ws} protocol, as its client and Apollo
 * Client's GraphQLWsLink speak it: connection_init within the init timeout (else 4408), one init only
 * (its payload's {@code Authorization}, Apollo's connectionParams, is the socket's credential, verified
 * there: a refused one closes the socket with 4403, as does the token's expiry later),
 * two inits close with 4429, operations only once acknowledged (4401), unique operation ids (4409), ping answered with pong,
 * anything malformed closes with 4400, a socket without the sub-protocol with 4406. Operations run in
 * {@link LiveQueries}; only the protocol lives here.
 * Bounded: connections per server (over it the socket closes with 1013, try again later), operations per
 * connection (over it the operation gets an error), and what waits to be sent: one message per
 * subscription at most, the newest, so a slow reader gets the latest state and never a growing queue.
 */
public final class GraphQLWebSocket {
    private static final Logger LOG = LoggerFactory.getLogger(GraphQLWebSocket.class);
    static final String PROTOCOL = "graphql-transport-ws";
    private static final Duration KEEP_ALIVE = Duration.ofSeconds(15);

    /** The limits of the WebSocket transport. */
    public record Limits(int maxConnections, int maxOperationsPerConnection, Duration initTimeout) {
    }

    private final LiveQueries live;
    private final GraphQLService service;
    private final PersistedDocuments documents;
    private final ObjectMapper json;
    private final Credentials credentials;
    private final Limits limits;
    private final ScheduledExecutorService timers;
    private final ClientBudgets budgets;
    private final ClientKeys clients;
    private final Map<String, Connection> connections = new ConcurrentHashMap<>();
    private volatile boolean closing;

    public GraphQLWebSocket(LiveQueries live, GraphQLService service, PersistedDocuments documents, ObjectMapper json,
                            Credentials credentials, Limits limits, ScheduledExecutorService timers, ClientBudgets budgets,
                            String addressHeader) {
        this.live = live;
        this.service = service;
        this.documents = documents;
        this.json = json;
        this.credentials = credentials;
        this.limits = limits;
        this.timers = timers;
        this.budgets = budgets;
        this.clients = new ClientKeys(addressHeader);
    }

    void configure(WsConfig ws) {
        ws.onConnect(this::connected);
        ws.onMessage(this::message);
        ws.onBinaryMessage(ctx -> close(ctx, 4400, "Binary messages are not part of " + PROTOCOL));
        ws.onClose(this::closed);
        ws.onError(this::failed);
    }

    /** How many sockets are open. */
    public int connections() {
        return connections.size();
    }

    /**
     * Closes every socket with 1001 (going away), as graphql-ws's server does when it is disposed: clients
     * reconnect, to another replica or to this one once it is back. New sockets are refused from now on.
     */
    public void closeAll() {
        closing = true;
        for (Connection connection : connections.values()) {
            connection.end();
            close(connection.ctx, 1001, "The server is shutting down");
        }
    }

    private void connected(WsConnectContext ctx) {
        String offered = ctx.header("Sec-WebSocket-Protocol");
        boolean speaks = offered != null && Arrays.stream(offered.split(",")).map(String::trim).anyMatch(PROTOCOL::equals);
        if (!speaks) {
            close(ctx, 4406, "Subprotocol not acceptable: use " + PROTOCOL);
            return;
        }
        if (closing) {
            close(ctx, 1001, "The server is shutting down");
            return;
        }
        Connection connection = new Connection(ctx);
        if (connections.size() >= limits.maxConnections()) {
            close(ctx, 1013, "Too many connections on this server (MAX_WS_CONNECTIONS); try again later");
            return;
        }
        connections.put(ctx.sessionId(), connection);
        // WebSocket pings keep an idle socket (a subscription with nothing new) open through proxies and Jetty's idle timeout.
        ctx.enableAutomaticPings(KEEP_ALIVE.toMillis(), TimeUnit.MILLISECONDS);
        connection.initTimer = timers.schedule(() -> {
            if (!connection.initialised) {
                close(ctx, 4408, "Connection initialisation timeout");
            }
        }, limits.initTimeout().toMillis(), TimeUnit.MILLISECONDS);
    }

    private void closed(WsCloseContext ctx) {
        Connection connection = connections.remove(ctx.sessionId());
        if (connection != null) {
            connection.end();
        }
    }

    private void failed(WsErrorContext ctx) {
        Connection connection = connections.remove(ctx.sessionId());
        if (connection != null) {
            connection.end();
        }
        LOG.debug("WebSocket error", ctx.error());
    }

    private void message(WsMessageContext ctx) {
        Connection connection = connections.get(ctx.sessionId());
        if (connection == null) {
            return;
        }
        JsonNode message;
        try {
            message = json.readTree(ctx.message());
        } catch (JsonProcessingException e) {
            close(ctx, 4400, "Invalid message received: not JSON");
            return;
        }
        JsonNode type = message == null ? null : message.get("type");
        if (type == null || !type.isTextual()) {
            close(ctx, 4400, "Invalid message received: no type");
            return;
        }
        switch (type.asText()) {
            case "connection_init" -> connection.init(message.get("payload"));
            case "ping" -> connection.outbox.control(Map.of("type", "pong"));
            case "pong" -> { }
            case "subscribe" -> connection.subscribe(message);
            case "complete" -> {
                JsonNode id = message.get("id");
                if (id == null || !id.isTextual()) {
                    close(ctx, 4400, "Invalid message received: complete needs an id");
                } else {
                    connection.complete(id.asText());
                }
            }
            default -> close(ctx, 4400, "Invalid message received: unknown type '" + type.asText() + "'");
        }
    }

    private static void close(WsContext ctx, int code, String reason) {
        try {
            // A close frame's reason is at most 123 bytes (RFC 6455, 5.5): longer ones are cut, not refused.
            byte[] bytes = reason.getBytes(java.nio.charset.StandardCharsets.UTF_8);
            ctx.closeSession(code, bytes.length <= 123 ? reason
                    : new String(java.util.Arrays.copyOf(bytes, 120), java.nio.charset.StandardCharsets.UTF_8)
                    .replace("\uFFFD", "") + "...");
        } catch (RuntimeException e) {
            LOG.debug("Closing a WebSocket failed", e);
        }
    }

    /** One socket: its protocol state, operations and outbox. */
    private final class Connection {
        private final WsContext ctx;
        private final Outbox outbox;
        private final Map<String, LiveQueries.Handle> operations = new HashMap<>();
        private volatile boolean initialised;
        private volatile String authorization;
        /** Who the socket's credential names, once connection_init verified it. */
        private volatile Viewer viewer = Viewer.ANONYMOUS;
        private ScheduledFuture<?> expiry;
        /** The socket's peer and what a trusted proxy said it forwarded: with the credential, its client. */
        private final String remoteAddress;
        private final List<String> forwarded;
        private ScheduledFuture<?> initTimer;
        private boolean ended;

        Connection(WsContext ctx) {
            this.ctx = ctx;
            this.outbox = new Outbox(json, (text, done, failed) -> ctx.session.sendText(text, Callback.from(done, failed)),
                    reason -> close(ctx, 4400, reason));
            this.authorization = ctx.header("Authorization");
            this.remoteAddress = ctx.session.getRemoteSocketAddress() instanceof InetSocketAddress peer
                    ? peer.getAddress().getHostAddress() : String.valueOf(ctx.session.getRemoteSocketAddress());
            String proxied = clients.addressHeader() == null ? null : ctx.header(clients.addressHeader());
            this.forwarded = proxied == null ? List.of() : List.of(proxied);
        }

        /** The key this socket's operations are counted under: its viewer once verified, else its address. */
        private String client() {
            return clients.key(viewer, remoteAddress, forwarded);
        }

        synchronized void init(JsonNode payload) {
            if (initialised) {
                close(ctx, 4429, "Too many initialisation requests");
                return;
            }
            if (payload != null && !payload.isNull() && !payload.isObject()) {
                close(ctx, 4400, "Invalid message received: connection_init payload must be an object");
                return;
            }
            initialised = true;
            if (initTimer != null) {
                initTimer.cancel(false);
            }
            // Apollo's GraphQLWsLink and graphql-ws send credentials as connectionParams, the init payload.
            if (payload != null && payload.isObject()) {
                JsonNode given = payload.has("Authorization") ? payload.get("Authorization") : payload.get("authorization");
                if (given != null && given.isTextual()) {
                    authorization = given.asText();
                }
            }
            try {
                viewer = credentials.viewerOf(authorization);
            } catch (AuthException e) {
                // graphql-ws's own code for a refused connection_init; 1013 (try again later) when the provider is down.
                close(ctx, e.reason() == AuthException.Reason.PROVIDER_UNAVAILABLE ? 1013 : 4403,
                        e.reason() == AuthException.Reason.PROVIDER_UNAVAILABLE ? e.getMessage() : "Forbidden: " + e.getMessage());
                return;
            }
            if (viewer.expiresAt() != null) {
                long left = Math.max(0, viewer.expiresAt().toEpochMilli() - System.currentTimeMillis());
                expiry = timers.schedule(() -> close(ctx, 4403, "Forbidden: the token has expired; connect again with a"
                        + " new one"), left, TimeUnit.MILLISECONDS);
            }
            outbox.control(Map.of("type", "connection_ack"));
        }

        void subscribe(JsonNode message) {
            JsonNode id = message.get("id");
            JsonNode payload = message.get("payload");
            if (id == null || !id.isTextual() || id.asText().isEmpty()) {
                close(ctx, 4400, "Invalid message received: subscribe needs an id");
                return;
            }
            if (payload == null || !payload.isObject()) {
                close(ctx, 4400, "Invalid message received: subscribe needs a payload object");
                return;
            }
            JsonNode query = payload.get("query");
            JsonNode variables = payload.get("variables");
            JsonNode operationName = payload.get("operationName");
            JsonNode extensions = payload.get("extensions");
            JsonNode documentId = payload.get("documentId");
            if ((query != null && !query.isNull() && !query.isTextual())
                    || (variables != null && !variables.isNull() && !variables.isObject())
                    || (operationName != null && !operationName.isNull() && !operationName.isTextual())
                    || (extensions != null && !extensions.isNull() && !extensions.isObject())
                    || (documentId != null && !documentId.isNull() && !documentId.isTextual())) {
                close(ctx, 4400, "Invalid message received: query, operationName and documentId must be strings,"
                        + " variables and extensions objects");
                return;
            }
            String operationId = id.asText();
            synchronized (this) {
                if (!initialised) {
                    close(ctx, 4401, "Unauthorized");
                    return;
                }
                if (ended) {
                    return;
                }
                if (operations.containsKey(operationId)) {
                    close(ctx, 4409, "Subscriber for " + operationId + " already exists");
                    return;
                }
                OptionalLong wait = budgets.admit(client(), "websocket");
                if (wait.isPresent()) {
                    outbox.control(errorMessage(operationId, ClientBudgets.refusal(wait.getAsLong())));
                    return;
                }
                if (operations.size() >= limits.maxOperationsPerConnection()) {
                    outbox.control(errorMessage(operationId, LiveQueries.error(ErrorType.LIMIT_EXCEEDED,
                            "This connection has " + operations.size() + " operations open, the most allowed"
                                    + " (MAX_SUBSCRIPTIONS_PER_CONNECTION); complete one first")));
                    return;
                }
                // Reserved before anything runs: results may come back on other threads at once.
                operations.put(operationId, () -> { });
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> vars = variables == null || variables.isNull() ? Map.of() : json.convertValue(variables, Map.class);
            @SuppressWarnings("unchecked")
            Map<String, Object> ext = extensions == null || extensions.isNull() ? null : json.convertValue(extensions, Map.class);
            String name = operationName == null || operationName.isNull() ? null : operationName.asText();
            // The same document rules as over HTTP: persisted queries by hash, and only listed documents in trusted mode.
            documents.resolve(query == null || query.isNull() ? null : query.asText(), ext,
                    documentId == null || documentId.isNull() ? null : documentId.asText()).whenComplete((resolved, failure) -> {
                if (failure != null) {
                    refuse(operationId, LiveQueries.error(ErrorType.INTERNAL, "The document could not be resolved"));
                } else if (resolved instanceof PersistedDocuments.Refusal refusal) {
                    refuse(operationId, LiveQueries.error(refusal.code(), refusal.message()));
                } else {
                    run(operationId, new GraphQLRequest(((PersistedDocuments.Run) resolved).query(), name, vars));
                }
            });
        }

        private void refuse(String operationId, Map<String, Object> error) {
            if (finished(operationId)) {
                outbox.control(errorMessage(operationId, error));
            }
        }

        private void run(String operationId, GraphQLRequest request) {
            OperationDefinition.Operation kind = service.operationKind(request).orElse(null);
            request = request.by(viewer);
            boolean single = kind != OperationDefinition.Operation.SUBSCRIPTION;
            String client = client();
            LiveQueries.Handle handle = live.start(request, new LiveQueries.Sink() {
                @Override
                public void consumed(double readUnits) {
                    budgets.charge(client, readUnits);
                }

                @Override
                public void next(Map<String, Object> result) {
                    Map<String, Object> next = message(operationId, "next", result);
                    if (single) {
                        outbox.control(next);
                    } else {
                        outbox.latest(operationId, next);
                    }
                }

                @Override
                public void error(List<Map<String, Object>> errors) {
                    if (finished(operationId)) {
                        outbox.control(message(operationId, "error", errors));
                    }
                }

                @Override
                public void complete() {
                    if (finished(operationId)) {
                        outbox.control(Map.of("id", operationId, "type", "complete"));
                    }
                }
            });
            synchronized (this) {
                if (operations.containsKey(operationId) && !ended) {
                    operations.put(operationId, handle);
                    return;
                }
            }
            // Finished, completed by the client or the socket went away while starting.
            handle.cancel();
        }

        /** Forgets an operation the server ends; false when it was ended already (the client completed it). */
        private synchronized boolean finished(String operationId) {
            return operations.remove(operationId) != null;
        }

        void complete(String operationId) {
            LiveQueries.Handle handle;
            synchronized (this) {
                handle = operations.remove(operationId);
            }
            if (handle != null) {
                handle.cancel();
                // No further events for it, not even one already waiting.
                outbox.forget(operationId);
            }
        }

        void end() {
            List<LiveQueries.Handle> open;
            synchronized (this) {
                ended = true;
                open = List.copyOf(operations.values());
                operations.clear();
                if (initTimer != null) {
                    initTimer.cancel(false);
                }
                if (expiry != null) {
                    expiry.cancel(false);
                }
            }
            open.forEach(LiveQueries.Handle::cancel);
            outbox.stop();
        }

        private Map<String, Object> errorMessage(String operationId, Map<String, Object> error) {
            return message(operationId, "error", List.of(error));
        }

        private Map<String, Object> message(String operationId, String type, Object payload) {
            Map<String, Object> message = new LinkedHashMap<>();
            message.put("id", operationId);
            message.put("type", type);
            message.put("payload", payload);
            return message;
        }
    }
}
