package dev.moviegraph.engine.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.moviegraph.engine.error.ApiException;

import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;

/**
 * ClientRequestToken of TransactWriteItems: a retry with the same token and the same request within the
 * window gets the first answer and writes nothing again; the same token with other parameters is refused.
 */
final class IdempotencyTokens {
    private record Answered(JsonNode request, ObjectNode response, long at) {
    }

    private final ConcurrentHashMap<String, Answered> byToken = new ConcurrentHashMap<>();
    private final long windowNanos;

    IdempotencyTokens(Duration window) {
        this.windowNanos = window.toNanos();
    }

    ObjectNode answered(String token, JsonNode request) {
        Answered earlier = byToken.get(token);
        if (earlier == null || System.nanoTime() - earlier.at > windowNanos) {
            return null;
        }
        if (!withoutCapacity(earlier.request).equals(withoutCapacity(request))) {
            throw ApiException.idempotentParameterMismatch();
        }
        return earlier.response.deepCopy();
    }

    void remember(String token, JsonNode request, ObjectNode response) {
        long now = System.nanoTime();
        byToken.values().removeIf(answered -> now - answered.at > windowNanos);
        byToken.put(token, new Answered(request, response.deepCopy(), now));
    }

    private static JsonNode withoutCapacity(JsonNode request) {
        ObjectNode copy = (ObjectNode) request.deepCopy();
        copy.remove("ReturnConsumedCapacity");
        return copy;
    }
}
