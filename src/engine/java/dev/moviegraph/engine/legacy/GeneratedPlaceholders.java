package dev.moviegraph.engine.legacy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The placeholders a translation writes into ExpressionAttributeNames and ExpressionAttributeValues. Every legacy
 * attribute name goes through a name placeholder, so names that are reserved words or contain dots stay one
 * top-level attribute, as the legacy parameters mean them. The prefix is chosen so that no generated key equals a
 * key the request already has (a Query may carry KeyConditions together with a user's FilterExpression).
 */
final class GeneratedPlaceholders {
    private final ObjectNode request;
    private final String prefix;
    private int next;

    GeneratedPlaceholders(ObjectNode request) {
        this.request = request;
        this.prefix = freePrefix(request);
    }

    private static String freePrefix(ObjectNode request) {
        String prefix = "legacy";
        while (startsAny(request.get("ExpressionAttributeNames"), "#" + prefix)
                || startsAny(request.get("ExpressionAttributeValues"), ":" + prefix)) {
            prefix = prefix + "_";
        }
        return prefix;
    }

    private static boolean startsAny(JsonNode map, String start) {
        if (map == null || !map.isObject()) {
            return false;
        }
        var names = map.fieldNames();
        while (names.hasNext()) {
            if (names.next().startsWith(start)) {
                return true;
            }
        }
        return false;
    }

    /** A new {@code #name} placeholder standing for the attribute. */
    String name(String attribute) {
        String key = "#" + prefix + next++;
        map("ExpressionAttributeNames").put(key, attribute);
        return key;
    }

    /** A new {@code :value} placeholder standing for the (already validated) attribute value. */
    String value(JsonNode attributeValue) {
        String key = ":" + prefix + next++;
        map("ExpressionAttributeValues").set(key, attributeValue.deepCopy());
        return key;
    }

    private ObjectNode map(String member) {
        JsonNode existing = request.get(member);
        if (existing instanceof ObjectNode object) {
            return object;
        }
        return request.putObject(member);
    }
}
