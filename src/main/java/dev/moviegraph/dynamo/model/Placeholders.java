package dev.moviegraph.dynamo.model;

import java.util.LinkedHashMap;
import java.util.Map;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** The placeholders of one request's expressions: one name placeholder per attribute, one value placeholder per value. */
final class Placeholders {
    final Map<String, String> names = new LinkedHashMap<>();
    final Map<String, AttributeValue> values = new LinkedHashMap<>();
    private final Map<String, String> byAttribute = new LinkedHashMap<>();

    String name(String attribute) {
        return byAttribute.computeIfAbsent(attribute, a -> {
            String placeholder = "#n" + names.size();
            names.put(placeholder, a);
            return placeholder;
        });
    }

    String value(AttributeValue value) {
        String placeholder = ":v" + values.size();
        values.put(placeholder, value);
        return placeholder;
    }
}
