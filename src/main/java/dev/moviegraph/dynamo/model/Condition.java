package dev.moviegraph.dynamo.model;

import java.util.List;
import java.util.function.Function;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A condition expression, built from parts: every attribute name and value goes through a placeholder
 * that {@link Expression} assigns, so a model name is never parsed as a reserved word and two parts never
 * claim one placeholder. Immutable; {@code and} and {@code or} make new conditions.
 */
public final class Condition {
    private enum Kind { TERM, AND, OR }

    private final Kind kind;
    private final Function<Placeholders, String> render;

    private Condition(Kind kind, Function<Placeholders, String> render) {
        this.kind = kind;
        this.render = render;
    }

    /** The item has the attribute (on a key attribute: the item exists). */
    public static Condition exists(String attribute) {
        return new Condition(Kind.TERM, p -> "attribute_exists(" + p.name(attribute) + ")");
    }

    /** The item lacks the attribute (on a key attribute: there is no such item). */
    public static Condition notExists(String attribute) {
        return new Condition(Kind.TERM, p -> "attribute_not_exists(" + p.name(attribute) + ")");
    }

    public static Condition equal(String attribute, AttributeValue value) {
        return compare(attribute, "=", value);
    }

    /** {@code attribute operator value}, the operator one of {@code = <> < <= > >=}. */
    public static Condition compare(String attribute, String operator, AttributeValue value) {
        if (!List.of("=", "<>", "<", "<=", ">", ">=").contains(operator)) {
            throw new IllegalArgumentException("not a comparison: " + operator);
        }
        return new Condition(Kind.TERM, p -> p.name(attribute) + " " + operator + " " + p.value(value));
    }

    /** The attribute, a string, holds {@code value} (a filter: a search entry's word list holds a word). */
    public static Condition contains(String attribute, AttributeValue value) {
        return new Condition(Kind.TERM, p -> "contains(" + p.name(attribute) + ", " + p.value(value) + ")");
    }

    public Condition and(Condition other) {
        return new Condition(Kind.AND, p -> operand(this, Kind.AND, p) + " AND " + operand(other, Kind.AND, p));
    }

    public Condition or(Condition other) {
        return new Condition(Kind.OR, p -> operand(this, Kind.OR, p) + " OR " + operand(other, Kind.OR, p));
    }

    /** AND binds tighter than OR: an OR inside an AND keeps its parentheses. */
    private static String operand(Condition condition, Kind within, Placeholders placeholders) {
        String text = condition.render.apply(placeholders);
        return within == Kind.AND && condition.kind == Kind.OR ? "(" + text + ")" : text;
    }

    String render(Placeholders placeholders) {
        return render.apply(placeholders);
    }
}
