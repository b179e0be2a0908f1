package dev.moviegraph.http;

import dev.moviegraph.auth.AuthException;
import dev.moviegraph.auth.Credentials;
import dev.moviegraph.auth.Viewer;
import dev.moviegraph.graphql.GraphQLAnswer;
import dev.moviegraph.graphql.GraphQLRequest;
import dev.moviegraph.graphql.GraphQLService;
import dev.moviegraph.graphql.TraceMode;
import dev.moviegraph.graphql.budget.ClientBudgets;
import dev.moviegraph.graphql.caching.CachePolicy;
import dev.moviegraph.graphql.errors.ErrorType;
import dev.moviegraph.graphql.live.LiveQueries;
import dev.moviegraph.graphql.persisted.PersistedDocuments;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import graphql.language.OperationDefinition;
import io.javalin.http.Context;

/**
 * GraphQL over HTTP (graphql/graphql-over-http): POST with a JSON body, GET with query parameters
 * (queries only), Accept negotiation; a POST body that is a JSON array is a batch (Apollo's BatchHttpLink),
 * answered by an array in the same order. The request side lives here (credentials, the client's rate,
 * the body, the document); each response format has its writer: {@link JsonAnswers} (one piece, with the
 * caching headers), {@link MultipartAnswers} (an answer in parts, {@code @defer}, for clients that accept
 * multipart/mixed) and {@link EventStreamAnswers} (GraphQL over server-sent events, for
 * {@code Accept: text/event-stream}). Execution is {@link GraphQLService}'s, and which document a persisted
 * query names is {@link PersistedDocuments}'.
 */
public final class GraphQLHandler {
    /** Apollo's servers' header on a persisted-query refusal: the same GET may succeed once registered. */
    static final String NOT_YET = "private, no-cache, must-revalidate";

    private final GraphQLService service;
    private final PersistedDocuments documents;
    private final ObjectMapper json;
    private final Credentials credentials;
    private final int maxBodyBytes;
    private final int maxBatchOperations;
    private final ClientBudgets budgets;
    private final ClientKeys clients;
    private final JsonAnswers answers;
    private final MultipartAnswers parts;
    private final EventStreamAnswers events;

    /**
     * @param maxBatchOperations MAX_BATCH_OPERATIONS: the most operations one batch may have
     * @param cors               CORS is on, so answers depend on the Origin header too
     * @param budgets            each client's read units per second
     * @param addressHeader      CLIENT_ADDRESS_HEADER: where a trusted proxy puts the client's address; null for none
     * @param live               where operations over event streams run
     * @param subscriptions      whether subscriptions are on (SUBSCRIPTIONS)
     * @param maxSubscriptions   subscriptions open over event streams at once (MAX_WS_CONNECTIONS)
     */
    public GraphQLHandler(GraphQLService service, PersistedDocuments documents, ObjectMapper json, Credentials credentials,
                          int maxBodyBytes, int maxBatchOperations, boolean cors, ClientBudgets budgets,
                          String addressHeader, LiveQueries live, boolean subscriptions, int maxSubscriptions) {
        this.service = service;
        this.documents = documents;
        this.json = json;
        this.credentials = credentials;
        this.maxBodyBytes = maxBodyBytes;
        this.maxBatchOperations = maxBatchOperations;
        CacheHeaders caching = new CacheHeaders(cors);
        this.budgets = budgets;
        this.clients = new ClientKeys(addressHeader);
        this.answers = new JsonAnswers(json, caching);
        this.parts = new MultipartAnswers(answers, caching);
        this.events = new EventStreamAnswers(service, live, subscriptions, maxSubscriptions, answers, caching, budgets);
    }

    /** GraphQL over server-sent events: how many subscriptions it has open. */
    public EventStreamAnswers events() {
        return events;
    }

    /** The client of a request: the key its read units are counted under (see {@link ClientKeys}). */
    String client(Context ctx, Viewer viewer) {
        List<String> forwarded = clients.addressHeader() == null ? List.of()
                : java.util.Collections.list(ctx.req().getHeaders(clients.addressHeader()));
        return clients.key(viewer, ctx.req().getRemoteAddr(), forwarded);
    }

    /**
     * Who sent the request, its credential verified; empty when it was refused, answered here: 401 with
     * {@code WWW-Authenticate} (RFC 6750's {@code invalid_token}) for a bad token, 503 when the sign-in
     * provider is needed and cannot be reached. The body is a GraphQL error either way.
     */
    private Optional<Viewer> viewer(Context ctx, String responseType) {
        try {
            return Optional.of(credentials.viewerOf(ctx.header("Authorization")));
        } catch (AuthException e) {
            if (e.reason() == AuthException.Reason.PROVIDER_UNAVAILABLE) {
                ctx.header("Retry-After", "5");
                answers.write(ctx, 503, responseType, JsonAnswers.errors(e.getMessage(), ErrorType.UNAVAILABLE), CacheHeaders.NO_STORE);
            } else {
                ctx.header("WWW-Authenticate", "Bearer error=\"invalid_token\", error_description=\""
                        + e.getMessage().replace('"', '\'') + "\"");
                answers.write(ctx, 401, responseType, JsonAnswers.errors(e.getMessage(), ErrorType.UNAUTHENTICATED), CacheHeaders.NO_STORE);
            }
            return Optional.empty();
        }
    }

    /**
     * Whether the client may send this request now; if not, answers 429 with Retry-After and a
     * RATE_LIMITED error, before anything of the request is read.
     */
    private boolean admitted(Context ctx, String client, String responseType) {
        OptionalLong wait = budgets.admit(client, "http");
        if (wait.isEmpty()) {
            return true;
        }
        ctx.header("Retry-After", String.valueOf(wait.getAsLong()));
        answers.write(ctx, 429, responseType, Map.of("errors", List.of(ClientBudgets.refusal(wait.getAsLong()))),
                CacheHeaders.NO_STORE);
        return false;
    }

    /** One operation of a POST body: the request to run, or the answer that refuses it. */
    private sealed interface Operation permits Accepted, Refused {
    }

    private record Accepted(GraphQLRequest request) implements Operation {
    }

    /**
     * @param status       the HTTP status when the operation was sent alone (a batch is always 200)
     * @param cacheControl never stored; a persisted query not found yet is only not to be reused unchecked
     */
    private record Refused(int status, Map<String, Object> body, String cacheControl) implements Operation {
        Refused(int status, Map<String, Object> body) {
            this(status, body, CacheHeaders.NO_STORE);
        }

        static Refused badRequest(String message) {
            return new Refused(400, JsonAnswers.errors(message, ErrorType.BAD_REQUEST));
        }
    }

    private static final CompletableFuture<Void> DONE = CompletableFuture.completedFuture(null);

    public void post(Context ctx) {
        ResponseFormat format = ResponseFormat.of(ctx.header("Accept"));
        if (format == null) {
            answers.notAcceptable(ctx);
            return;
        }
        String responseType = format.responseType();
        Optional<Viewer> viewer = viewer(ctx, responseType);
        if (viewer.isEmpty()) {
            return;
        }
        String client = client(ctx, viewer.get());
        if (!admitted(ctx, client, responseType)) {
            return;
        }
        if (!MediaTypes.isJson(ctx.contentType())) {
            answers.requestError(ctx, 415, responseType, "POST requests must have Content-Type: application/json");
            return;
        }
        if (ctx.contentLength() > maxBodyBytes) {
            answers.requestError(ctx, 413, responseType, "The request body is larger than " + maxBodyBytes + " bytes");
            return;
        }
        JsonNode body;
        try {
            body = json.readTree(body(ctx));
        } catch (java.io.IOException e) {
            answers.requestError(ctx, 400, responseType, "The request body is not valid JSON");
            return;
        }
        Optional<TraceMode> mode = traceMode(ctx, responseType);
        if (mode.isEmpty()) {
            return;
        }
        if (body != null && body.isArray() && !format.eventStream()) {
            batch(ctx, responseType, body, mode.get(), client, viewer.get());
            return;
        }
        if (body == null || !body.isObject()) {
            answers.requestError(ctx, 400, responseType,
                    "The request body must be a JSON object with a 'query' (or a JSON array of them: a batch)");
            return;
        }
        TraceMode traceMode = mode.get();
        ctx.future(() -> operation(ctx, body).thenCompose(operation -> {
            if (operation instanceof Refused refused) {
                if (refused.status() == 401) {
                    ctx.header("WWW-Authenticate", "Bearer");
                }
                answers.write(ctx, refused.status(), responseType, refused.body(), refused.cacheControl());
                return DONE;
            }
            return execute(ctx, format, ((Accepted) operation).request().by(viewer.get()), traceMode, false, client);
        }));
    }

    public void get(Context ctx) {
        ResponseFormat format = ResponseFormat.of(ctx.header("Accept"));
        if (format == null) {
            answers.notAcceptable(ctx);
            return;
        }
        String responseType = format.responseType();
        Optional<Viewer> viewer = viewer(ctx, responseType);
        if (viewer.isEmpty()) {
            return;
        }
        String client = client(ctx, viewer.get());
        if (!admitted(ctx, client, responseType)) {
            return;
        }
        JsonNode variables = null;
        String rawVariables = ctx.queryParam("variables");
        if (rawVariables != null && !rawVariables.isEmpty()) {
            try {
                variables = json.readTree(rawVariables);
            } catch (JsonProcessingException e) {
                answers.requestError(ctx, 400, responseType, "The 'variables' parameter is not valid JSON");
                return;
            }
        }
        String rawExtensions = ctx.queryParam("extensions");
        JsonNode extensions = null;
        if (rawExtensions != null && !rawExtensions.isEmpty()) {
            try {
                extensions = json.readTree(rawExtensions);
            } catch (JsonProcessingException e) {
                extensions = null;
            }
            if (extensions == null || !extensions.isObject()) {
                answers.requestError(ctx, 400, responseType, "The 'extensions' parameter must be a JSON object");
                return;
            }
        }
        String operationName = ctx.queryParam("operationName");
        Optional<TraceMode> mode = traceMode(ctx, responseType);
        if (mode.isEmpty()) {
            return;
        }
        JsonNode parameters = variables;
        JsonNode extensionsParameter = extensions;
        ctx.future(() -> resolve(text(ctx.queryParam("query")), extensionsParameter, text(ctx.queryParam("documentId")),
                query -> parse(query, text(operationName == null || operationName.isEmpty() ? null : operationName),
                        parameters)).thenCompose(operation -> {
            if (operation instanceof Refused refused) {
                answers.write(ctx, refused.status(), responseType, refused.body(), refused.cacheControl());
                return DONE;
            }
            GraphQLRequest request = ((Accepted) operation).request().by(viewer.get());
            Optional<OperationDefinition.Operation> kind = service.operationKind(request);
            // An EventSource can only GET: a subscription may come that way as an event stream.
            boolean readOnly = kind.isEmpty() || kind.get() == OperationDefinition.Operation.QUERY
                    || (format.eventStream() && kind.get() == OperationDefinition.Operation.SUBSCRIPTION);
            if (!readOnly) {
                ctx.header("Allow", "POST");
                answers.requestError(ctx, 405, responseType, "Only queries can be sent with GET; send "
                        + kind.get().name().toLowerCase() + " operations with POST");
                return DONE;
            }
            return execute(ctx, format, request, mode.get(), true, client);
        }));
    }

    private JsonNode text(String parameter) {
        return parameter == null ? null : json.getNodeFactory().textNode(parameter);
    }

    /**
     * The operation a request's document resolves to: its 'query', or the persisted document it names
     * (a hash, a documentId); a refusal of the persisted-query protocol is never stored by a cache.
     */
    private CompletableFuture<Operation> resolve(JsonNode query, JsonNode extensions, JsonNode documentId,
                                                 java.util.function.Function<JsonNode, Operation> then) {
        if (query != null && !query.isNull() && !query.isTextual()) {
            return CompletableFuture.completedFuture(Refused.badRequest("'query' must be a string"));
        }
        if (documentId != null && !documentId.isNull() && !documentId.isTextual()) {
            return CompletableFuture.completedFuture(Refused.badRequest("'documentId' must be a string"));
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> extensionMap = extensions == null || extensions.isNull() ? null
                : json.convertValue(extensions, Map.class);
        return documents.resolve(query == null || query.isNull() ? null : query.asText(), extensionMap,
                documentId == null || documentId.isNull() ? null : documentId.asText()).thenApply(resolution -> {
            if (resolution instanceof PersistedDocuments.Refusal refusal) {
                // A malformed request stays malformed; a document not found may be found once registered.
                return new Refused(refusal.status(), refusal.body(),
                        refusal.code() == ErrorType.BAD_REQUEST ? CacheHeaders.NO_STORE : NOT_YET);
            }
            return then.apply(json.getNodeFactory().textNode(((PersistedDocuments.Run) resolution).query()));
        });
    }

    /**
     * One POST operation as an object: its shape and its document (sent, or persisted and named). Who may
     * run it is the schema's {@code @auth} rules' to say, when it runs.
     */
    private CompletableFuture<Operation> operation(Context ctx, JsonNode body) {
        if (!body.isObject()) {
            return CompletableFuture.completedFuture(
                    Refused.badRequest("Each operation of a batch must be a JSON object with a 'query'"));
        }
        JsonNode extensions = body.get("extensions");
        if (extensions != null && !extensions.isNull() && !extensions.isObject()) {
            return CompletableFuture.completedFuture(Refused.badRequest("'extensions' must be a JSON object"));
        }
        return resolve(body.get("query"), extensions, body.get("documentId"), query -> {
            return parse(query, body.get("operationName"), body.get("variables"));
        });
    }

    private Operation parse(JsonNode query, JsonNode operationName, JsonNode variables) {
        if (query == null || !query.isTextual()) {
            return Refused.badRequest("The request must have a 'query' string");
        }
        if (operationName != null && !operationName.isNull() && !operationName.isTextual()) {
            return Refused.badRequest("'operationName' must be a string");
        }
        if (variables != null && !variables.isNull() && !variables.isObject()) {
            return Refused.badRequest("'variables' must be a JSON object");
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> vars = variables == null || variables.isNull() ? Map.of()
                : json.convertValue(variables, Map.class);
        String name = operationName == null || operationName.isNull() ? null : operationName.asText();
        return new Accepted(new GraphQLRequest(query.asText(), name, vars));
    }

    /**
     * The request body, its size checked against the limit already: read in one piece when its length is
     * known (Javalin's reader copies it through an 8 KB buffer and a growing array), by Javalin otherwise.
     */
    private static byte[] body(Context ctx) throws java.io.IOException {
        long length = ctx.contentLength();
        return length >= 0 ? ctx.req().getInputStream().readNBytes((int) length) : ctx.bodyAsBytes();
    }

    private Optional<TraceMode> traceMode(Context ctx, String responseType) {
        Optional<TraceMode> mode = TraceMode.fromHeader(ctx.header(TraceMode.HEADER));
        if (mode.isEmpty()) {
            answers.requestError(ctx, 400, responseType, TraceMode.HEADER + " must be on, plan or off");
        }
        return mode;
    }

    private CompletableFuture<Void> execute(Context ctx, ResponseFormat format, GraphQLRequest request, TraceMode mode,
                                            boolean get, String client) {
        GraphQLRequest traced = request.inTrace(service.traceParent(ctx::header));
        if (format.eventStream()) {
            return events.run(ctx, traced, client);
        }
        return service.answer(format.inParts() ? traced.inParts() : traced, mode).thenCompose(answer -> {
            if (answer.refusalStatus() != 0) {
                if (answer.refusalStatus() == 401) {
                    ctx.header("WWW-Authenticate", "Bearer");
                }
                answers.write(ctx, answer.refusalStatus(), format.responseType(), answer.body(), CacheHeaders.NO_STORE);
                return DONE;
            }
            budgets.charge(client, ClientBudgets.consumed(answer.body()));
            if (answer.inParts()) {
                return parts.write(ctx, answer, units -> budgets.charge(client, units));
            }
            answers.answer(ctx, format.responseType(), answer, get);
            return DONE;
        });
    }

    /**
     * A batch: every operation checked on its own (a bad one gets its own error entry, a mutation needs
     * the write authorization as alone), the accepted ones run together under the request's limits, and
     * the answers come back in the order sent. Kept only as long as its shortest-lived answer allows.
     */
    private void batch(Context ctx, String responseType, JsonNode array, TraceMode mode, String client, Viewer viewer) {
        if (array.isEmpty()) {
            answers.requestError(ctx, 400, responseType, "A batch (a JSON array body) must have at least one operation");
            return;
        }
        if (array.size() > maxBatchOperations) {
            answers.requestError(ctx, 400, responseType, "A batch may have at most " + maxBatchOperations
                    + " operations (MAX_BATCH_OPERATIONS); this one has " + array.size());
            return;
        }
        List<CompletableFuture<Operation>> resolving = new ArrayList<>();
        for (JsonNode element : array) {
            resolving.add(operation(ctx, element));
        }
        ctx.future(() -> CompletableFuture.allOf(resolving.toArray(CompletableFuture[]::new)).thenCompose(ignored -> {
            List<Operation> operations = resolving.stream().map(CompletableFuture::join).toList();
            List<GraphQLRequest> accepted = operations.stream().filter(Accepted.class::isInstance)
                    .map(operation -> ((Accepted) operation).request()).toList();
            io.opentelemetry.context.Context trace = service.traceParent(ctx::header);
            return service.answerAll(accepted.stream().map(request -> request.inTrace(trace).by(viewer)).toList(), mode)
                    .thenApply(answers -> Map.entry(operations, answers));
        }).thenAccept(resolved -> {
            List<Operation> operations = resolved.getKey();
            List<GraphQLAnswer> answered = resolved.getValue();
            budgets.charge(client, answered.stream().mapToDouble(answer -> ClientBudgets.consumed(answer.body())).sum());
            List<Map<String, Object>> bodies = new ArrayList<>();
            CachePolicy policy = null;
            int next = 0;
            for (Operation operation : operations) {
                if (operation instanceof Refused refused) {
                    bodies.add(refused.body());
                    policy = CachePolicy.NO_STORE;
                } else {
                    GraphQLAnswer answer = answered.get(next++);
                    bodies.add(answer.body());
                    policy = policy == null ? answer.cache() : policy.restrict(answer.cache());
                }
            }
            answers.write(ctx, 200, responseType, bodies, CacheHeaders.cacheControl(policy, ctx.header("Authorization")));
        }));
    }
}
