package dev.moviegraph.http;

import dev.moviegraph.graphql.GraphQLAnswer;
import dev.moviegraph.graphql.errors.ErrorType;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.javalin.http.Context;

/**
 * The writer of answers in one piece: a JSON body of the negotiated GraphQL response type, its status
 * (graphql-over-http's rules for each type), the caching headers ({@link CacheHeaders}) and, for GET, the
 * ETag and 304. Javalin compresses these bodies for clients that accept it.
 */
final class JsonAnswers {
    private final ObjectMapper json;
    private final CacheHeaders caching;

    JsonAnswers(ObjectMapper json, CacheHeaders caching) {
        this.json = json;
        this.caching = caching;
    }

    /**
     * An executed operation's answer. application/json: 200 for every well-formed request;
     * graphql-response+json: 4xx when the request failed before execution (errors and no "data" entry), as
     * the spec asks. A plan has no data either, but no error.
     */
    void answer(Context ctx, String responseType, GraphQLAnswer answer, boolean get) {
        Map<String, Object> result = answer.body();
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
    }

    void notAcceptable(Context ctx) {
        write(ctx, 406, MediaTypes.JSON, errors("Accept must allow application/graphql-response+json, application/json"
                + " or text/event-stream", ErrorType.BAD_REQUEST), CacheHeaders.NO_STORE);
    }

    void requestError(Context ctx, int status, String responseType, String message) {
        write(ctx, status, responseType, errors(message, ErrorType.BAD_REQUEST), CacheHeaders.NO_STORE);
    }

    static Map<String, Object> errors(String message, ErrorType code) {
        return Map.of("errors", List.of(Map.of("message", message, "extensions", Map.of("code", code.name()))));
    }

    void write(Context ctx, int status, String responseType, Object body, String cacheControl) {
        write(ctx, status, responseType, bytes(body), cacheControl);
    }

    void write(Context ctx, int status, String responseType, byte[] body, String cacheControl) {
        ctx.status(status).contentType(responseType + "; charset=utf-8")
                .header("Cache-Control", cacheControl)
                .header("Vary", caching.vary());
        // Written here in one piece, through Javalin's stream (which still compresses for clients that accept
        // it): ctx.result(body) would have Javalin copy the bytes again through a new 32 KB buffer per answer.
        try {
            ctx.outputStream().write(body);
        } catch (java.io.IOException gone) {
            // The client went away: there is nobody to answer.
        }
    }

    byte[] bytes(Object body) {
        try {
            return json.writeValueAsBytes(body);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("A GraphQL result could not be written as JSON", e);
        }
    }

    String text(Object body) {
        try {
            return json.writeValueAsString(body);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("A GraphQL result could not be written as JSON", e);
        }
    }
}
