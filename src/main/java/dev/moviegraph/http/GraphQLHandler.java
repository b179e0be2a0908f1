package dev.moviegraph.http;

import dev.moviegraph.graphql.CachePolicy;
import dev.moviegraph.graphql.ErrorType;
import dev.moviegraph.graphql.GraphQLAnswer;
import dev.moviegraph.graphql.GraphQLRequest;
import dev.moviegraph.graphql.GraphQLService;
import dev.moviegraph.graphql.TraceMode;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import graphql.language.OperationDefinition;

import io.javalin.http.Context;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * GraphQL over HTTP (graphql/graphql-over-http): POST with a JSON body, GET with query parameters
 * (queries only), Accept negotiation and the status codes of each response type; a POST body that is a
 * JSON array is a batch (Apollo's BatchHttpLink), answered by an array in the same order; the caching
 * headers ({@link CacheHeaders}). Only HTTP lives here; execution is {@link GraphQLService}'s.
 */
public final class GraphQLHandler {
    private final GraphQLService service;
    private final ObjectMapper json;
    private final WriteGuard writes;
    private final int maxBodyBytes;
    private final int maxBatchOperations;
    private final CacheHeaders caching;

    /**
     * @param maxBatchOperations MAX_BATCH_OPERATIONS: the most operations one batch may have
     * @param cors               CORS is on, so answers depend on the Origin header too
     */
    public GraphQLHandler(GraphQLService service, ObjectMapper json, WriteGuard writes, int maxBodyBytes,
                          int maxBatchOperations, boolean cors) {
        this.service = service;
        this.json = json;
        this.writes = writes;
        this.maxBodyBytes = maxBodyBytes;
        this.maxBatchOperations = maxBatchOperations;
        this.caching = new CacheHeaders(cors);
    }

    /** One operation of a POST body: the request to run, or the answer that refuses it. */
    private sealed interface Operation permits Accepted, Refused {
    }

    private record Accepted(GraphQLRequest request) implements Operation {
    }

    /** @param status the HTTP status when the operation was sent alone (a batch is always 200) */
    private record Refused(int status, Map<String, Object> body) implements Operation {
        static Refused badRequest(String message) {
            return new Refused(400, errors(message, ErrorType.BAD_REQUEST));
        }
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
        Optional<TraceMode> mode = traceMode(ctx, responseType);
        if (mode.isEmpty()) {
            return;
        }
        if (body != null && body.isArray()) {
            batch(ctx, responseType, body, mode.get());
            return;
        }
        if (body == null || !body.isObject()) {
            requestError(ctx, 400, responseType,
                    "The request body must be a JSON object with a 'query' (or a JSON array of them: a batch)");
            return;
        }
        Operation operation = operation(ctx, body);
        if (operation instanceof Refused refused) {
            if (refused.status() == 401) {
                ctx.header("WWW-Authenticate", "Bearer");
            }
            write(ctx, refused.status(), responseType, refused.body(), CacheHeaders.NO_STORE);
            return;
        }
        execute(ctx, responseType, ((Accepted) operation).request(), mode.get(), false);
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
        if (rawExtensions != null && !rawExtensions.isEmpty()) {
            JsonNode extensions;
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
        String query = ctx.queryParam("query");
        String operationName = ctx.queryParam("operationName");
        Operation operation = parse(query == null ? null : json.getNodeFactory().textNode(query),
                operationName == null || operationName.isEmpty() ? null : json.getNodeFactory().textNode(operationName),
                variables);
        if (operation instanceof Refused refused) {
            write(ctx, refused.status(), responseType, refused.body(), CacheHeaders.NO_STORE);
            return;
        }
        GraphQLRequest request = ((Accepted) operation).request();
        Optional<OperationDefinition.Operation> kind = service.operationKind(request);
        if (kind.isPresent() && kind.get() != OperationDefinition.Operation.QUERY) {
            ctx.header("Allow", "POST");
            requestError(ctx, 405, responseType, "Only queries can be sent with GET; send "
                    + kind.get().name().toLowerCase() + " operations with POST");
            return;
        }
        Optional<TraceMode> mode = traceMode(ctx, responseType);
        if (mode.isPresent()) {
            execute(ctx, responseType, request, mode.get(), true);
        }
    }

    /** One POST operation as an object: its shape, then, for a mutation, the write authorization. */
    private Operation operation(Context ctx, JsonNode body) {
        if (!body.isObject()) {
            return Refused.badRequest("Each operation of a batch must be a JSON object with a 'query'");
        }
        JsonNode extensions = body.get("extensions");
        if (extensions != null && !extensions.isNull() && !extensions.isObject()) {
            return Refused.badRequest("'extensions' must be a JSON object");
        }
        Operation operation = parse(body.get("query"), body.get("operationName"), body.get("variables"));
        if (operation instanceof Accepted accepted
                && service.operationKind(accepted.request()).orElse(null) == OperationDefinition.Operation.MUTATION) {
            Optional<WriteGuard.Refusal> refusal = writes.check(ctx.header("Authorization"));
            if (refusal.isPresent()) {
                return new Refused(refusal.get().status(), errors(refusal.get().message(), refusal.get().code()));
            }
        }
        return operation;
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

    private Optional<TraceMode> traceMode(Context ctx, String responseType) {
        Optional<TraceMode> mode = TraceMode.fromHeader(ctx.header(TraceMode.HEADER));
        if (mode.isEmpty()) {
            requestError(ctx, 400, responseType, TraceMode.HEADER + " must be on, plan or off");
        }
        return mode;
    }

    private void execute(Context ctx, String responseType, GraphQLRequest request, TraceMode mode, boolean get) {
        ctx.future(() -> service.answer(request, mode).thenAccept(answer -> {
            Map<String, Object> result = answer.body();
            // application/json: 200 for every well-formed request; graphql-response+json: 4xx when the
            // request failed before execution (errors and no "data" entry), as the spec asks. A plan has
            // no data either, but no error.
            int status = responseType.equals(MediaTypes.GRAPHQL_RESPONSE) && !result.containsKey("data")
                    && result.containsKey("errors") ? 400 : 200;
            String cacheControl = status == 200 ? CacheHeaders.cacheControl(answer.cache(), ctx.header("Authorization"))
                    : CacheHeaders.NO_STORE;
            byte[] bytes = bytes(result);
            if (get && status == 200) {
                String etag = CacheHeaders.etag(responseType, bytes);
                ctx.header("ETag", etag);
                if (CacheHeaders.matches(ctx.header("If-None-Match"), etag)) {
                    // 304: no body, the same validator and caching headers as the 200 (RFC 9110, 15.4.5)
                    ctx.status(304).header("Cache-Control", cacheControl).header("Vary", caching.vary());
                    // No Content-Type (Javalin's default is text/plain): a cache would copy it onto the stored answer.
                    ctx.res().setContentType(null);
                    return;
                }
            }
            write(ctx, status, responseType, bytes, cacheControl);
        }));
    }

    /**
     * A batch: every operation checked on its own (a bad one gets its own error entry, a mutation needs
     * the write authorization as alone), the accepted ones run together under the request's limits, and
     * the answers come back in the order sent. Kept only as long as its shortest-lived answer allows.
     */
    private void batch(Context ctx, String responseType, JsonNode array, TraceMode mode) {
        if (array.isEmpty()) {
            requestError(ctx, 400, responseType, "A batch (a JSON array body) must have at least one operation");
            return;
        }
        if (array.size() > maxBatchOperations) {
            requestError(ctx, 400, responseType, "A batch may have at most " + maxBatchOperations
                    + " operations (MAX_BATCH_OPERATIONS); this one has " + array.size());
            return;
        }
        List<Operation> operations = new ArrayList<>();
        List<GraphQLRequest> accepted = new ArrayList<>();
        for (JsonNode element : array) {
            Operation operation = operation(ctx, element);
            operations.add(operation);
            if (operation instanceof Accepted ok) {
                accepted.add(ok.request());
            }
        }
        ctx.future(() -> service.answerAll(accepted, mode).thenAccept(answers -> {
            List<Map<String, Object>> bodies = new ArrayList<>();
            CachePolicy policy = null;
            int next = 0;
            for (Operation operation : operations) {
                if (operation instanceof Refused refused) {
                    bodies.add(refused.body());
                    policy = CachePolicy.NO_STORE;
                } else {
                    GraphQLAnswer answer = answers.get(next++);
                    bodies.add(answer.body());
                    policy = policy == null ? answer.cache() : policy.restrict(answer.cache());
                }
            }
            write(ctx, 200, responseType, bytes(bodies), CacheHeaders.cacheControl(policy, ctx.header("Authorization")));
        }));
    }

    private void notAcceptable(Context ctx) {
        write(ctx, 406, MediaTypes.JSON, errors("Accept must allow application/graphql-response+json or application/json",
                ErrorType.BAD_REQUEST), CacheHeaders.NO_STORE);
    }

    private void requestError(Context ctx, int status, String responseType, String message) {
        write(ctx, status, responseType, errors(message, ErrorType.BAD_REQUEST), CacheHeaders.NO_STORE);
    }

    private static Map<String, Object> errors(String message, ErrorType code) {
        return Map.of("errors", List.of(Map.of("message", message, "extensions", Map.of("code", code.name()))));
    }

    private void write(Context ctx, int status, String responseType, Object body, String cacheControl) {
        write(ctx, status, responseType, bytes(body), cacheControl);
    }

    private void write(Context ctx, int status, String responseType, byte[] body, String cacheControl) {
        ctx.status(status).contentType(responseType + "; charset=utf-8")
                .header("Cache-Control", cacheControl)
                .header("Vary", caching.vary())
                .result(body);
    }

    private byte[] bytes(Object body) {
        try {
            return json.writeValueAsBytes(body);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("A GraphQL result could not be written as JSON", e);
        }
    }
}
