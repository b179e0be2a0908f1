package dev.moviegraph.engine.legacy;

import com.fasterxml.jackson.databind.JsonNode;

import dev.moviegraph.engine.error.ApiException;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Reading the legacy members' JSON shapes; a member of the wrong JSON type is DynamoDB's SerializationException. */
final class Json {
    private Json() {
    }

    static boolean present(JsonNode request, String member) {
        JsonNode node = request.get(member);
        return node != null && !node.isNull();
    }

    static String text(JsonNode node) {
        if (!node.isTextual()) {
            throw unexpected();
        }
        return node.textValue();
    }

    /** The members of a JSON object in request order; null or absent is an empty map. */
    static Map<String, JsonNode> object(JsonNode node) {
        Map<String, JsonNode> members = new LinkedHashMap<>();
        if (node == null || node.isNull()) {
            return members;
        }
        if (!node.isObject()) {
            throw unexpected();
        }
        node.fields().forEachRemaining(field -> members.put(field.getKey(), field.getValue()));
        return members;
    }

    /** The elements of a JSON array; null or absent is an empty list. */
    static List<JsonNode> array(JsonNode node) {
        List<JsonNode> elements = new ArrayList<>();
        if (node == null || node.isNull()) {
            return elements;
        }
        if (!node.isArray()) {
            throw unexpected();
        }
        node.forEach(elements::add);
        return elements;
    }

    static ApiException unexpected() {
        return ApiException.serialization("Unexpected value type in payload");
    }
}
