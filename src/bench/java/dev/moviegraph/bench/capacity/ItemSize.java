package dev.moviegraph.bench.capacity;

import com.fasterxml.jackson.databind.JsonNode;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Iterator;
import java.util.Map;

/**
 * The size DynamoDB bills an item at, from its attributes in the wire format ({@code {"S": "..."}}...),
 * by the rules of DynamoDB's developer guide ("Item sizes and formats"): each attribute's name in UTF-8
 * bytes plus its value: a string its UTF-8 bytes, a number 1 byte per two significant digits plus 1,
 * binary its bytes, a boolean or null 1 byte, a list or map 3 bytes plus 1 per element plus its
 * elements (a map's names counted), a set the sum of its members.
 */
final class ItemSize {
    private ItemSize() {
    }

    /** The item's size in bytes; 0 for no item. */
    static int bytes(JsonNode item) {
        if (item == null || item.isNull() || item.isMissingNode()) {
            return 0;
        }
        int size = 0;
        for (Iterator<Map.Entry<String, JsonNode>> it = item.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> attribute = it.next();
            size += utf8(attribute.getKey()) + value(attribute.getValue());
        }
        return size;
    }

    private static int value(JsonNode typed) {
        Map.Entry<String, JsonNode> only = typed.fields().next();
        JsonNode value = only.getValue();
        return switch (only.getKey()) {
            case "S" -> utf8(value.asText());
            case "N" -> number(value.asText());
            case "B" -> Base64.getDecoder().decode(value.asText()).length;
            case "BOOL", "NULL" -> 1;
            case "SS" -> sum(value, "S");
            case "NS" -> sum(value, "N");
            case "BS" -> sum(value, "B");
            case "L" -> {
                int size = 3;
                for (JsonNode element : value) {
                    size += 1 + value(element);
                }
                yield size;
            }
            case "M" -> {
                int size = 3;
                for (Iterator<Map.Entry<String, JsonNode>> it = value.fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> element = it.next();
                    size += 1 + utf8(element.getKey()) + value(element.getValue());
                }
                yield size;
            }
            default -> throw new IllegalArgumentException("Unknown attribute type " + only.getKey());
        };
    }

    private static int sum(JsonNode members, String type) {
        int size = 0;
        for (JsonNode member : members) {
            size += switch (type) {
                case "S" -> utf8(member.asText());
                case "N" -> number(member.asText());
                default -> Base64.getDecoder().decode(member.asText()).length;
            };
        }
        return size;
    }

    /** 1 byte per two significant digits, plus 1; leading and trailing zeros are trimmed, as DynamoDB stores them. */
    static int number(String number) {
        String significant = number.replaceAll("[^0-9]", "").replaceFirst("^0+", "").replaceFirst("0+$", "");
        return (significant.length() + 1) / 2 + 1;
    }

    private static int utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8).length;
    }
}
