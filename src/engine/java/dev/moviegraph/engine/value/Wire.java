package dev.moviegraph.engine.value;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.moviegraph.engine.error.ApiException;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Attribute values and items in DynamoDB's JSON: {@code {"S": "x"}}, {@code {"N": "1"}}, {@code {"L": [...]}}... */
public final class Wire {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private Wire() {
    }

    /** An item (or key) from its JSON object; null stays null. */
    public static Map<String, Value> item(JsonNode node) {
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isObject()) {
            throw ApiException.serialization("Unexpected value type in payload");
        }
        Map<String, Value> item = new LinkedHashMap<>(Math.max(4, node.size() * 2));
        Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> field = fields.next();
            item.put(field.getKey(), value(field.getValue()));
        }
        return item;
    }

    public static Value value(JsonNode node) {
        if (node == null || !node.isObject()) {
            throw ApiException.serialization("Unexpected value type in payload");
        }
        if (node.size() == 0) {
            throw ApiException.validation("Supplied AttributeValue is empty, must contain exactly one of the supported datatypes");
        }
        if (node.size() > 1) {
            throw ApiException.validation("Supplied AttributeValue has more than one datatypes set, must contain exactly one of the supported datatypes");
        }
        Map.Entry<String, JsonNode> only = node.fields().next();
        JsonNode v = only.getValue();
        try {
            return switch (only.getKey()) {
                case "S" -> new Value.S(text(v));
                case "N" -> Numbers.parse(text(v));
                case "B" -> new Value.B(bytes(v));
                case "BOOL" -> new Value.Bool(bool(v));
                case "NULL" -> {
                    if (!bool(v)) {
                        throw ApiException.validation("One or more parameter values were invalid: Null attribute value types must have the value of true");
                    }
                    yield new Value.Null();
                }
                case "L" -> {
                    List<Value> values = new ArrayList<>(array(v).size());
                    for (JsonNode element : v) {
                        values.add(value(element));
                    }
                    yield new Value.L(values);
                }
                case "M" -> {
                    if (!v.isObject()) {
                        throw ApiException.serialization("Unexpected value type in payload");
                    }
                    yield new Value.M(item(v));
                }
                case "SS" -> {
                    Set<String> members = new LinkedHashSet<>();
                    for (JsonNode element : nonEmpty(v, "string")) {
                        if (!members.add(text(element))) {
                            throw duplicates(v);
                        }
                    }
                    yield new Value.SS(members);
                }
                case "NS" -> {
                    Set<Value.N> members = new LinkedHashSet<>();
                    for (JsonNode element : nonEmpty(v, "number")) {
                        if (!members.add(Numbers.parse(text(element)))) {
                            throw duplicates(v);
                        }
                    }
                    yield new Value.NS(members);
                }
                case "BS" -> {
                    Set<Bytes> members = new LinkedHashSet<>();
                    for (JsonNode element : nonEmpty(v, "binary")) {
                        if (!members.add(bytes(element))) {
                            throw duplicates(v);
                        }
                    }
                    yield new Value.BS(members);
                }
                default -> throw ApiException.serialization("Unknown attribute type " + only.getKey());
            };
        } catch (NumberFormatException e) {
            throw ApiException.validation(e.getMessage());
        }
    }

    private static ApiException duplicates(JsonNode v) {
        List<String> shown = new ArrayList<>();
        v.forEach(element -> shown.add(element.asText()));
        return ApiException.validation("One or more parameter values were invalid: Input collection " + shown
                + " contains duplicates.");
    }

    private static JsonNode nonEmpty(JsonNode v, String kind) {
        if (array(v).isEmpty()) {
            // DynamoDB words the binary set's refusal apart from the other two (its double space included)
            throw ApiException.validation("One or more parameter values were invalid: " + (kind.equals("binary")
                    ? "Binary sets should not be empty" : "An " + kind + " set  may not be empty"));
        }
        return v;
    }

    private static JsonNode array(JsonNode v) {
        if (!v.isArray()) {
            throw ApiException.serialization("Unexpected value type in payload");
        }
        return v;
    }

    private static String text(JsonNode v) {
        if (!v.isTextual()) {
            throw ApiException.serialization("Unexpected value type in payload");
        }
        return v.textValue();
    }

    private static boolean bool(JsonNode v) {
        if (v.isBoolean()) {
            return v.booleanValue();
        }
        if (v.isTextual()) {
            return Boolean.parseBoolean(v.textValue());
        }
        throw ApiException.serialization("Unexpected value type in payload");
    }

    private static Bytes bytes(JsonNode v) {
        try {
            return Bytes.fromBase64(text(v));
        } catch (IllegalArgumentException e) {
            throw ApiException.serialization("Base64 encoded length is expected a multiple of 4 bytes but found: "
                    + v.asText().length());
        }
    }

    /** The item as a JSON object. */
    public static ObjectNode json(Map<String, Value> item) {
        ObjectNode node = NODES.objectNode();
        for (Map.Entry<String, Value> attribute : item.entrySet()) {
            node.set(attribute.getKey(), json(attribute.getValue()));
        }
        return node;
    }

    public static ObjectNode json(Value value) {
        ObjectNode node = NODES.objectNode();
        if (value instanceof Value.S s) {
            node.put("S", s.value());
        } else if (value instanceof Value.N n) {
            node.put("N", n.text());
        } else if (value instanceof Value.B b) {
            node.put("B", b.value().base64());
        } else if (value instanceof Value.Bool b) {
            node.put("BOOL", b.value());
        } else if (value instanceof Value.Null) {
            node.put("NULL", true);
        } else if (value instanceof Value.L l) {
            ArrayNode array = node.putArray("L");
            l.values().forEach(element -> array.add(json(element)));
        } else if (value instanceof Value.M m) {
            node.set("M", json(m.values()));
        } else if (value instanceof Value.SS ss) {
            ArrayNode array = node.putArray("SS");
            ss.values().forEach(array::add);
        } else if (value instanceof Value.NS ns) {
            ArrayNode array = node.putArray("NS");
            ns.values().forEach(member -> array.add(member.text()));
        } else if (value instanceof Value.BS bs) {
            ArrayNode array = node.putArray("BS");
            bs.values().forEach(member -> array.add(member.base64()));
        }
        return node;
    }

    /** Values by placeholder name (ExpressionAttributeValues), or an empty map. */
    public static Map<String, Value> values(JsonNode node) {
        Map<String, Value> values = item(node);
        return values == null ? Map.of() : values;
    }
}
