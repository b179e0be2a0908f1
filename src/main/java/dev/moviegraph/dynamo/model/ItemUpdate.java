package dev.moviegraph.dynamo.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * An update expression, built from parts ({@code SET}, {@code SET ... if_not_exists}, {@code ADD},
 * {@code REMOVE}); placeholders come from {@link Expression}. Immutable: each part makes a new update.
 */
public final class ItemUpdate {
    private record Part(String clause, Function<Placeholders, String> render) {
    }

    private final List<Part> parts;

    private ItemUpdate(List<Part> parts) {
        this.parts = List.copyOf(parts);
    }

    public static ItemUpdate create() {
        return new ItemUpdate(List.of());
    }

    public ItemUpdate set(String attribute, AttributeValue value) {
        return with(new Part("SET", p -> p.name(attribute) + " = " + p.value(value)));
    }

    /** Every attribute of {@code values} set, in their order. */
    public ItemUpdate set(Map<String, AttributeValue> values) {
        ItemUpdate update = this;
        for (Map.Entry<String, AttributeValue> value : values.entrySet()) {
            update = update.set(value.getKey(), value.getValue());
        }
        return update;
    }

    /** Sets the attribute only when the item has none yet: what is written once, at creation. */
    public ItemUpdate setIfAbsent(String attribute, AttributeValue value) {
        return with(new Part("SET", p -> {
            String name = p.name(attribute);
            return name + " = if_not_exists(" + name + ", " + p.value(value) + ")";
        }));
    }

    /** Sets the attribute to another one's number (or {@code absent} when it has none) plus {@code plus}. */
    public ItemUpdate setSum(String attribute, String source, AttributeValue absent, AttributeValue plus) {
        return with(new Part("SET", p -> p.name(attribute) + " = if_not_exists(" + p.name(source) + ", "
                + p.value(absent) + ") + " + p.value(plus)));
    }

    /** Adds a number to the attribute (starting from 0 when absent). */
    public ItemUpdate add(String attribute, AttributeValue number) {
        return with(new Part("ADD", p -> p.name(attribute) + " " + p.value(number)));
    }

    public ItemUpdate remove(String attribute) {
        return with(new Part("REMOVE", p -> p.name(attribute)));
    }

    public boolean isEmpty() {
        return parts.isEmpty();
    }

    private ItemUpdate with(Part part) {
        List<Part> all = new ArrayList<>(parts);
        all.add(part);
        return new ItemUpdate(all);
    }

    /** Each clause once, its actions joined by commas, in the order their first action was added. */
    String render(Placeholders placeholders) {
        Map<String, List<String>> clauses = new java.util.LinkedHashMap<>();
        for (Part part : parts) {
            clauses.computeIfAbsent(part.clause(), clause -> new ArrayList<>()).add(part.render().apply(placeholders));
        }
        StringBuilder text = new StringBuilder();
        clauses.forEach((clause, actions) -> text.append(text.length() == 0 ? "" : " ").append(clause).append(' ')
                .append(String.join(", ", actions)));
        return text.toString();
    }
}
