package dev.moviegraph.engine.api;

import com.fasterxml.jackson.databind.JsonNode;

import dev.moviegraph.engine.error.ApiException;

import java.util.LinkedHashMap;
import java.util.Map;

/** Reading a request's members, with DynamoDB's validation messages for missing or ill-typed ones. */
final class Fields {
    private Fields() {
    }

    static String text(JsonNode request, String name) {
        JsonNode node = request.get(name);
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isTextual()) {
            throw ApiException.serialization("Unexpected value type in payload for " + name);
        }
        return node.textValue();
    }

    static String required(JsonNode request, String name, String constraintName) {
        String value = text(request, name);
        if (value == null) {
            throw ApiException.validation("1 validation error detected: Value null at '" + constraintName
                    + "' failed to satisfy constraint: Member must not be null");
        }
        return value;
    }

    static boolean bool(JsonNode request, String name) {
        JsonNode node = request.get(name);
        return node != null && node.asBoolean(false);
    }

    static Integer integer(JsonNode request, String name) {
        JsonNode node = request.get(name);
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isIntegralNumber()) {
            throw ApiException.serialization("NUMBER_VALUE cannot be converted to Integer: " + name);
        }
        return node.asInt();
    }

    /** ExpressionAttributeValues, checked as DynamoDB checks them: not empty, every key a :placeholder. */
    static Map<String, dev.moviegraph.engine.value.Value> values(JsonNode request) {
        JsonNode node = request.get("ExpressionAttributeValues");
        if (node == null || node.isNull()) {
            return Map.of();
        }
        if (node.isEmpty()) {
            throw ApiException.validation("ExpressionAttributeValues must not be empty");
        }
        node.fieldNames().forEachRemaining(key -> {
            if (!key.startsWith(":") || key.length() == 1) {
                throw ApiException.validation("ExpressionAttributeValues contains invalid key: Syntax error; key: \""
                        + key + "\"");
            }
        });
        return dev.moviegraph.engine.value.Wire.values(node);
    }

    static Map<String, String> names(JsonNode request) {
        JsonNode node = request.get("ExpressionAttributeNames");
        if (node == null || node.isNull()) {
            return Map.of();
        }
        if (node.isEmpty()) {
            throw ApiException.validation("ExpressionAttributeNames must not be empty");
        }
        Map<String, String> names = new LinkedHashMap<>();
        node.fields().forEachRemaining(field -> {
            if (!field.getKey().startsWith("#") || field.getKey().length() == 1) {
                throw ApiException.validation("ExpressionAttributeNames contains invalid key: Syntax error; key: \""
                        + field.getKey() + "\"");
            }
            names.put(field.getKey(), field.getValue().asText());
        });
        return names;
    }
}
