package dev.moviegraph.graphql;

import dev.moviegraph.graphql.errors.ErrorType;
import dev.moviegraph.graphql.caching.CachePolicy;

import java.util.Map;

/**
 * One operation's answer: the GraphQL response (data, errors, extensions) and how long HTTP caches may
 * keep it ({@link CachePolicy#NO_STORE} for anything with errors, a trace or plan, or a mutation), and, for an
 * operation the {@code @auth} rules refused before it ran, how (UNAUTHENTICATED or FORBIDDEN; null otherwise).
 * An answer that defers fragments has {@code later}: its body is the first payload ({@code hasNext: true}),
 * never kept by a cache; null for an answer in one piece.
 */
public record GraphQLAnswer(Map<String, Object> body, CachePolicy cache, ErrorType refused, LaterParts later) {
    public GraphQLAnswer(Map<String, Object> body, CachePolicy cache) {
        this(body, cache, null, null);
    }

    public GraphQLAnswer(Map<String, Object> body, CachePolicy cache, ErrorType refused) {
        this(body, cache, refused, null);
    }

    /** The HTTP status a refusal by the {@code @auth} rules has when sent alone (401 or 403); 0 for any other answer. */
    public int refusalStatus() {
        return refused == null ? 0 : refused == ErrorType.UNAUTHENTICATED ? 401 : 403;
    }

    /** Whether parts follow the body. */
    public boolean inParts() {
        return later != null;
    }
}
