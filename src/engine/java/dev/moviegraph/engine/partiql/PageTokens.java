package dev.moviegraph.engine.partiql;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.moviegraph.engine.error.ApiException;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * ExecuteStatement's NextToken: the LastEvaluatedKey of the page, with a hash of the statement it belongs to
 * so that a token is refused with another statement, as DynamoDB refuses it.
 */
final class PageTokens {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private PageTokens() {
    }

    static String token(String statement, JsonNode lastKey) {
        ObjectNode token = MAPPER.createObjectNode();
        token.put("s", statement.hashCode());
        token.set("k", lastKey);
        return Base64.getEncoder().encodeToString(token.toString().getBytes(StandardCharsets.UTF_8));
    }

    /** The key to start after. */
    static JsonNode startKey(String statement, String token) {
        JsonNode decoded;
        try {
            decoded = MAPPER.readTree(new String(Base64.getDecoder().decode(token), StandardCharsets.UTF_8));
        } catch (IllegalArgumentException | java.io.IOException e) {
            throw ApiException.validation("Invalid NextToken");
        }
        if (decoded == null || !decoded.has("s") || !decoded.path("k").isObject()) {
            throw ApiException.validation("Invalid NextToken");
        }
        if (decoded.get("s").asInt() != statement.hashCode()) {
            throw ApiException.validation("NextToken does not match request");
        }
        return decoded.get("k");
    }
}
