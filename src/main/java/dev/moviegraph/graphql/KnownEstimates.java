package dev.moviegraph.graphql;

import dev.moviegraph.catalog.InvalidInputException;
import dev.moviegraph.catalog.MovieId;
import dev.moviegraph.catalog.PersonId;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

import graphql.language.ListType;
import graphql.language.NonNullType;
import graphql.language.OperationDefinition;
import graphql.language.Type;
import graphql.language.TypeName;
import graphql.language.VariableDefinition;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The read units a query was estimated to need, kept for the next request of the same shape so that a
 * query within the budget is planned once, not before every execution (the planning run is a whole
 * execution over stand-ins, as dear in graphql-java as the real one). The same shape: the same document,
 * operation and variables, except that the values of variables of type {@code ID} are replaced by their
 * kind (a well-formed movie id, a well-formed person id, anything else) and their place among the
 * request's distinct ids (and so are the ids in a router's entity representations, variables of type
 * {@code _Any}). A plan never depends on which movie or person a well-formed id names: stand-ins
 * assume every one exists, so an id of a movie that does not exist is planned as dear as a real one. It
 * does depend on the kind: a malformed id fails its field and plans nothing below it, and a movie id
 * plans other reads than a person id (in {@code node}), so those are other shapes. The caller keeps only
 * plans that ran without an error and within the budget, for at most {@value #KEEP_SECONDS} s (the
 * largest list sizes the estimate uses grow with writes); a refusal is planned again each time, to
 * describe its plan. Whatever an estimate says, the request guard still stops reads past the budget as
 * they happen.
 */
final class KnownEstimates {
    static final int KEEP_SECONDS = 60;
    private static final int MOST_SHAPES = 10_000;

    /** A request's shape: the engine (HTTP or live), document, operation and variables with ids numbered. */
    record Shape(boolean live, String query, String operationName, Map<String, Object> variables) {
    }

    private final Cache<Shape, Double> known = Caffeine.newBuilder().maximumSize(MOST_SHAPES)
            .expireAfterWrite(Duration.ofSeconds(KEEP_SECONDS)).recordStats().build();

    /** The cache, for its hit and miss counts in /metrics ({@code graphql.estimates}). */
    Cache<Shape, Double> cache() {
        return known;
    }

    /** The estimate made for this shape within the last minute, or null. */
    Double get(Shape shape) {
        return shape == null ? null : known.getIfPresent(shape);
    }

    void put(Shape shape, double readUnits) {
        if (shape != null) {
            known.put(shape, readUnits);
        }
    }

    /** The shape of a query whose operation is {@code operation}. */
    static Shape shape(boolean live, GraphQLRequest request, OperationDefinition operation) {
        Map<String, Object> given = request.variables() == null ? Map.of() : request.variables();
        Map<String, Object> variables = new LinkedHashMap<>(given);
        Map<Object, Integer> ids = new HashMap<>();
        for (VariableDefinition definition : operation.getVariableDefinitions()) {
            if (isId(definition.getType()) && variables.containsKey(definition.getName())) {
                variables.put(definition.getName(), numbered(variables.get(definition.getName()), ids));
            }
        }
        return new Shape(live, request.query(), request.operationName(), variables);
    }

    private static Object numbered(Object value, Map<Object, Integer> ids) {
        if (value instanceof List<?> list) {
            List<Object> numbered = new ArrayList<>(list.size());
            list.forEach(element -> numbered.add(numbered(element, ids)));
            return numbered;
        }
        if (value instanceof Map<?, ?> representation) {
            // A router's entity representation: its type and other keys as they are, its ids numbered.
            Map<Object, Object> numbered = new LinkedHashMap<>();
            representation.forEach((key, field) -> numbered.put(key, "id".equals(key) ? numbered(field, ids)
                    : field instanceof Map<?, ?> ? numbered(field, ids) : field));
            return numbered;
        }
        return value == null ? null : kind(value) + "#" + ids.computeIfAbsent(value, id -> ids.size());
    }

    /** What a plan can tell of an id without reading: its kind when well-formed, else that it is not. */
    private static String kind(Object id) {
        String text = String.valueOf(id);
        try {
            if (text.startsWith("tt") && MovieId.of(text) != null) {
                return "movie";
            }
            if (text.startsWith("nm") && PersonId.of(text) != null) {
                return "person";
            }
        } catch (InvalidInputException e) {
            // malformed: planned as such below
        }
        return "malformed";
    }

    private static boolean isId(Type<?> type) {
        if (type instanceof NonNullType nonNull) {
            return isId(nonNull.getType());
        }
        if (type instanceof ListType list) {
            return isId(list.getType());
        }
        // _Any: the representations of a router's _entities, whose ids plan as ids do.
        return type instanceof TypeName name && (name.getName().equals("ID") || name.getName().equals("_Any"));
    }
}
