package dev.moviegraph.engine.legacy;

import com.fasterxml.jackson.databind.JsonNode;

import dev.moviegraph.engine.error.ApiException;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * AttributesToGet as a ProjectionExpression: the named top-level attributes, and only those (unlike the key
 * attributes an index projection brings, a projection never adds the item's key).
 */
final class LegacyProjection {
    private LegacyProjection() {
    }

    /** The names, validated (no duplicates); null when AttributesToGet is absent. */
    static List<String> names(JsonNode attributesToGet) {
        if (attributesToGet == null || attributesToGet.isNull()) {
            return null;
        }
        List<String> names = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (JsonNode element : Json.array(attributesToGet)) {
            String name = Json.text(element);
            if (!seen.add(name)) {
                throw ApiException.validation("One or more parameter values were invalid: Duplicate value in attribute"
                        + " name: " + name);
            }
            names.add(name);
        }
        return names;
    }

    /**
     * Refuses a Select other than SPECIFIC_ATTRIBUTES together with AttributesToGet, as DynamoDB does (its Query
     * message carries the "1 validation error detected: " prefix, its Scan message does not).
     */
    static void checkSelect(JsonNode select, boolean query) {
        if (select == null || !select.isTextual()) {
            return;
        }
        String what = switch (select.textValue()) {
            case "ALL_ATTRIBUTES" -> "ALL_ATTRIBUTES";
            case "ALL_PROJECTED_ATTRIBUTES" -> "ALL_PROJECTED_ATTRIBUTES";
            case "COUNT" -> "only the Count";
            default -> null;
        };
        if (what != null) {
            throw ApiException.validation((query ? "1 validation error detected: " : "")
                    + "Cannot specify the AttributesToGet when choosing to get " + what);
        }
    }

    static String expression(List<String> names, GeneratedPlaceholders placeholders) {
        List<String> refs = new ArrayList<>();
        for (String name : names) {
            refs.add(placeholders.name(name));
        }
        return String.join(", ", refs);
    }
}
