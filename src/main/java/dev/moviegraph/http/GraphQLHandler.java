package dev.moviegraph.http;

import dev.moviegraph.graphql.ErrorType;
import dev.moviegraph.graphql.GraphQLRequest;
import dev.moviegraph.graphql.GraphQLService;
import dev.moviegraph.graphql.PersistedDocuments;
import dev.moviegraph.graphql.TraceMode;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import graphql.language.OperationDefinition;

import io.javalin.http.Context;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * GraphQL over HTTP (graphql/graphql-over-http): POST with a JSON body, GET with query parameters
 * (queries only), Accept negotiation and the status codes of each response type. Only HTTP lives here;
 * execution is {@link GraphQLService}'s, and which document a persisted query names is
 * {@link PersistedDocuments}'.
 */
public final class GraphQLHandler {
    private static final CompletableFuture<Void> DONE = CompletableFuture.completedFuture(null);

    private final GraphQLService service;
    private final PersistedDocuments documents;
    private final ObjectMapper json;
    private final WriteGuard writes;
    private final int maxBodyBytes;

    public GraphQLHandler(GraphQLService service, PersistedDocuments documents, ObjectMapper json, WriteGuard writes,
                          int maxBodyBytes) {
        this.service = service;
        this.documents = documents;
        this.json = json;
        this.writes = writes;
        this.maxBodyBytes = maxBodyBytes;
    }

    public void post(Context ctx) {
        String responseType = MediaTypes.negotiate(ctx.header("Accept"));
        if (responseType == null) {
            notAcceptable(ctx);
            return;
        }
        if (!MediaTypes.isJson(ctx.contentType())) {
            requestError(ctx, 415, responseType, "POST requests must have Content-Type: application/json");
            return;
        }
        if (ctx.contentLength() > maxBodyBytes) {
            requestError(ctx, 413, responseType, "The request body is larger than " + maxBodyBytes + " bytes");
            return;
        }
        JsonNode body;
        try {
            body = json.readTree(ctx.bodyAsBytes());
        } catch (java.io.IOException e) {
            requestError(ctx, 400, responseType, "The request body is not valid JSON");
            return;
        }
        if (body == null || !body.isObject()) {
            requestError(ctx, 400, responseType, "The request body must be a JSON object with a 'query'");
            return;
        }
        JsonNode extensions = body.get("extensions");
        if (extensions != null && !extensions.isNull() && !extensions.isObject()) {
            requestError(ctx, 400, responseType, "'extensions' must be a JSON object");
            return;
        }
        resolve(ctx, responseType, body.get("query"), extensions, body.get("documentId"),
                query -> post(ctx, responseType, query, body));
    }

    /** A POST once its document is known. */
    private CompletableFuture<Void> post(Context ctx, String responseType, String query, JsonNode body) {
        Optional<GraphQLRequest> request = parse(ctx, responseType, query, body.get("operationName"),
                body.get("variables"));
        if (request.isEmpty()) {
            return DONE;
        }
        if (service.operationKind(request.get()).orElse(null) == OperationDefinition.Operation.MUTATION) {
            Optional<WriteGuard.Refusal> refusal = writes.check(ctx.header("Authorization"));
            if (refusal.isPresent()) {
                if (refusal.get().status() == 401) {
                    ctx.header("WWW-Authenticate", "Bearer");
                }
                write(ctx, refusal.get().status(), responseType, Map.of("errors", List.of(Map.of(
                        "message", refusal.get().message(),
                        "extensions", Map.of("code", refusal.get().code().name())))));
                return DONE;
            }
        }
        return execute(ctx, responseType, request.get());
    }

    public void get(Context ctx) {
        String responseType = MediaTypes.negotiate(ctx.header("Accept"));
        if (responseType == null) {
            notAcceptable(ctx);
            return;
        }
        JsonNode variables = null;
        String rawVariables = ctx.queryParam("variables");
        if (rawVariables != null && !rawVariables.isEmpty()) {
            try {
                variables = json.readTree(rawVariables);
            } catch (JsonProcessingException e) {
                requestError(ctx, 400, responseType, "The 'variables' parameter is not valid JSON");
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
                requestError(ctx, 400, responseType, "The 'extensions' parameter must be a JSON object");
                return;
            }
        }
        JsonNode parameters = variables;
        resolve(ctx, responseType, text(ctx.queryParam("query")), extensions, text(ctx.queryParam("documentId")),
                query -> get(ctx, responseType, query, parameters));
    }

    /** A GET once its document is known. */
    private CompletableFuture<Void> get(Context ctx, String responseType, String query, JsonNode variables) {
        String operationName = ctx.queryParam("operationName");
        Optional<GraphQLRequest> request = parse(ctx, responseType, query,
                operationName == null || operationName.isEmpty() ? null : json.getNodeFactory().textNode(operationName),
                variables);
        if (request.isEmpty()) {
            return DONE;
        }
        Optional<OperationDefinition.Operation> kind = service.operationKind(request.get());
        if (kind.isPresent() && kind.get() != OperationDefinition.Operation.QUERY) {
            ctx.header("Allow", "POST");
            requestError(ctx, 405, responseType, "Only queries can be sent with GET; send "
                    + kind.get().name().toLowerCase() + " operations with POST");
            return DONE;
        }
        return execute(ctx, responseType, request.get());
    }

    private JsonNode text(String parameter) {
        return parameter == null ? null : json.getNodeFactory().textNode(parameter);
    }

    /**
     * Finds the document the request runs, its 'query' or the persisted document it names, and goes on
     * with its text; a refusal is answered here, never cached (the same GET may succeed once registered).
     */
    private void resolve(Context ctx, String responseType, JsonNode query, JsonNode extensions, JsonNode documentId,
                         Function<String, CompletableFuture<Void>> then) {
        if (query != null && !query.isNull() && !query.isTextual()) {
            requestError(ctx, 400, responseType, "'query' must be a string");
            return;
        }
        if (documentId != null && !documentId.isNull() && !documentId.isTextual()) {
            requestError(ctx, 400, responseType, "'documentId' must be a string");
            return;
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> extensionMap = extensions == null || extensions.isNull() ? null
                : json.convertValue(extensions, Map.class);
        ctx.future(() -> documents.resolve(query == null || query.isNull() ? null : query.asText(), extensionMap,
                documentId == null || documentId.isNull() ? null : documentId.asText()).thenCompose(resolution -> {
            if (resolution instanceof PersistedDocuments.Refusal refusal) {
                ctx.header("Cache-Control", "private, no-cache, must-revalidate");
                write(ctx, refusal.status(), responseType, refusal.body());
                return DONE;
            }
            return then.apply(((PersistedDocuments.Run) resolution).query());
        }));
    }

    private Optional<GraphQLRequest> parse(Context ctx, String responseType, String query, JsonNode operationName,
                                           JsonNode variables) {
        if (operationName != null && !operationName.isNull() && !operationName.isTextual()) {
            requestError(ctx, 400, responseType, "'operationName' must be a string");
            return Optional.empty();
        }
        if (variables != null && !variables.isNull() && !variables.isObject()) {
            requestError(ctx, 400, responseType, "'variables' must be a JSON object");
            return Optional.empty();
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> vars = variables == null || variables.isNull() ? Map.of()
                : json.convertValue(variables, Map.class);
        String name = operationName == null || operationName.isNull() ? null : operationName.asText();
        return Optional.of(new GraphQLRequest(query, name, vars));
    }

    private CompletableFuture<Void> execute(Context ctx, String responseType, GraphQLRequest request) {
        Optional<TraceMode> mode = TraceMode.fromHeader(ctx.header(TraceMode.HEADER));
        if (mode.isEmpty()) {
            requestError(ctx, 400, responseType, TraceMode.HEADER + " must be on, plan or off");
            return DONE;
        }
        return service.execute(request, mode.get()).thenAccept(result -> {
            // application/json: 200 for every well-formed request; graphql-response+json: 4xx when the
            // request failed before execution (errors and no "data" entry), as the spec asks. A plan has
            // no data either, but no error.
            int status = responseType.equals(MediaTypes.GRAPHQL_RESPONSE) && !result.containsKey("data")
                    && result.containsKey("errors") ? 400 : 200;
            write(ctx, status, responseType, result);
        });
    }

    private void notAcceptable(Context ctx) {
        write(ctx, 406, MediaTypes.JSON, errors("Accept must allow application/graphql-response+json or application/json"));
    }

    private void requestError(Context ctx, int status, String responseType, String message) {
        write(ctx, status, responseType, errors(message));
    }

    private static Map<String, Object> errors(String message) {
        return Map.of("errors", List.of(Map.of("message", message,
                "extensions", Map.of("code", ErrorType.BAD_REQUEST.name()))));
    }

    private void write(Context ctx, int status, String responseType, Map<String, Object> body) {
        try {
            ctx.status(status).contentType(responseType + "; charset=utf-8").result(json.writeValueAsBytes(body));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("A GraphQL result could not be written as JSON", e);
        }
    }
}
