package dev.moviegraph.bench.capacity;

import com.fasterxml.jackson.databind.JsonNode;

import java.math.BigDecimal;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;

/**
 * Whether items and attribute values in DynamoDB's wire format ({@code {"N": "1.50"}}...) are the same
 * to DynamoDB: a number by its value ({@code 1.50} is {@code 1.5}), a set whatever its members' order, a
 * list in order, a map by its names. An item a caller sent and the same item read back can differ in
 * how they are written, never in these.
 */
final class AttributeValues {
    private AttributeValues() {
    }

    /** Two items, either missing (null, JSON null, or a missing node): the same attributes, the same values. */
    static boolean sameItem(JsonNode a, JsonNode b) {
        boolean hasA = present(a);
        boolean hasB = present(b);
        if (!hasA || !hasB) {
            return hasA == hasB;
        }
        if (a.size() != b.size()) {
            return false;
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = a.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> attribute = it.next();
            if (!same(attribute.getValue(), b.get(attribute.getKey()))) {
                return false;
            }
        }
        return true;
    }

    /** Whether two present items agree on each of {@code names} (an attribute missing from both agrees). */
    static boolean sameAttributes(JsonNode a, JsonNode b, Set<String> names) {
        for (String name : names) {
            if (!same(a.get(name), b.get(name))) {
                return false;
            }
        }
        return true;
    }

    /** Two typed values ({@code {"S": "x"}}), either missing. */
    static boolean same(JsonNode a, JsonNode b) {
        if (a == null || b == null || a.isMissingNode() || b.isMissingNode()) {
            return (a == null || a.isMissingNode()) == (b == null || b.isMissingNode());
        }
        if (a.size() != 1 || b.size() != 1) {
            return a.equals(b);
        }
        Map.Entry<String, JsonNode> typedA = a.fields().next();
        Map.Entry<String, JsonNode> typedB = b.fields().next();
        if (!typedA.getKey().equals(typedB.getKey())) {
            return false;
        }
        JsonNode x = typedA.getValue();
        JsonNode y = typedB.getValue();
        return switch (typedA.getKey()) {
            case "N" -> number(x.asText()).compareTo(number(y.asText())) == 0;
            case "SS", "BS" -> members(x, false).equals(members(y, false));
            case "NS" -> members(x, true).equals(members(y, true));
            case "L" -> {
                if (x.size() != y.size()) {
                    yield false;
                }
                for (int i = 0; i < x.size(); i++) {
                    if (!same(x.get(i), y.get(i))) {
                        yield false;
                    }
                }
                yield true;
            }
            case "M" -> sameItem(x, y);
            default -> x.equals(y);
        };
    }

    private static Set<Object> members(JsonNode set, boolean numbers) {
        Set<Object> members = new HashSet<>();
        for (JsonNode member : set) {
            members.add(numbers ? number(member.asText()).stripTrailingZeros() : member.asText());
        }
        return members;
    }

    private static BigDecimal number(String text) {
        return new BigDecimal(text.trim());
    }

    private static boolean present(JsonNode item) {
        return item != null && !item.isNull() && !item.isMissingNode();
    }
}
