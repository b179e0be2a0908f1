package dev.moviegraph.graphql.wiring;

import dev.moviegraph.catalog.MonthRange;
import dev.moviegraph.catalog.PageRequest;
import dev.moviegraph.catalog.Part;
import dev.moviegraph.catalog.Slice;

import java.time.YearMonth;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;

import graphql.language.IntValue;
import graphql.language.Value;
import graphql.schema.GraphQLArgument;
import graphql.schema.GraphQLFieldDefinition;
import graphql.schema.InputValueWithState;

/**
 * A list field of a node that is a {@link Part} of its owner's collection (Movie.cast, Person.directed),
 * with how its arguments become a {@link Slice}. Declared once in the wiring; the field's fetcher and
 * the owner's read plan ({@link ReadPlans}) both use it, so they always ask for the same slice.
 */
record ListField(String field, Part part, Function<Map<String, Object>, Slice> slice,
                 Function<Map<String, Object>, Predicate<Object>> shown) {
    private static final Function<Map<String, Object>, Predicate<Object>> EVERY_ITEM = arguments -> item -> true;

    static ListField page(String field, Part part) {
        return new ListField(field, part,
                arguments -> Slice.page(PageRequest.of((Integer) arguments.get("first"), (String) arguments.get("after"))),
                EVERY_ITEM);
    }

    static ListField all(String field, Part part) {
        return new ListField(field, part, arguments -> Slice.all(), EVERY_ITEM);
    }

    static ListField months(String field, Part part) {
        return new ListField(field, part, arguments -> Slice.months(
                new MonthRange((YearMonth) arguments.get("from"), (YearMonth) arguments.get("to"))), EVERY_ITEM);
    }

    /**
     * The same list read whole, showing only the items whose {@code value} is the string argument
     * {@code argument}, ignoring case, when it is given (a movie's titles in one region): the read is the
     * same whatever the argument, so the owner's one Query still brings it.
     */
    <T> ListField where(String argument, Class<T> type, Function<T, String> value) {
        return new ListField(field, part, slice, arguments -> {
            Object wanted = arguments.get(argument);
            return wanted == null ? item -> true : item -> ((String) wanted).equalsIgnoreCase(value.apply(type.cast(item)));
        });
    }

    /**
     * The arguments as given, with the schema's defaults for those left out: the defaults are read from
     * schema.graphqls, never repeated in code.
     */
    static Map<String, Object> withDefaults(GraphQLFieldDefinition definition, Map<String, Object> given) {
        Map<String, Object> arguments = new HashMap<>(given);
        for (GraphQLArgument argument : definition.getArguments()) {
            if (!arguments.containsKey(argument.getName()) && argument.hasSetDefaultValue()) {
                arguments.put(argument.getName(), value(argument.getArgumentDefaultValue()));
            }
        }
        return arguments;
    }

    private static Object value(InputValueWithState state) {
        if (state.isLiteral() && state.getValue() instanceof Value<?> literal) {
            return literal instanceof IntValue number ? number.getValue().intValue() : null;
        }
        return state.getValue();
    }
}
