package dev.moviegraph.engine.partiql;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.moviegraph.engine.error.ApiException;
import dev.moviegraph.engine.partiql.Ast.Expr;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Turns the literals of a statement, and its {@code ?} with the request's Parameters, into attribute values
 * in DynamoDB's wire form ({@code {"S": "x"}}), which the item and read operations then validate as they
 * validate any request's values.
 */
final class Binder {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final List<JsonNode> parameters;

    Binder(List<JsonNode> parameters) {
        this.parameters = parameters;
    }

    /** Fewer Parameters than {@code ?} is refused; more are ignored, as DynamoDB does. */
    static Binder of(JsonNode parameters, int wanted) {
        List<JsonNode> given = new java.util.ArrayList<>();
        if (parameters != null && parameters.isArray()) {
            parameters.forEach(given::add);
        }
        if (given.size() < wanted) {
            throw ApiException.validation("Number of parameters in request and statement don't match.");
        }
        return new Binder(given);
    }

    /** Whether the expression is a value (a literal or a parameter), not a path or an operation. */
    static boolean isValue(Expr expr) {
        return expr instanceof Ast.Str || expr instanceof Ast.Num || expr instanceof Ast.Bool || expr instanceof Ast.Null
                || expr instanceof Ast.Param || expr instanceof Ast.MapLit || expr instanceof Ast.ListLit
                || expr instanceof Ast.BagLit;
    }

    /** The value in wire form. */
    ObjectNode wire(Expr expr) {
        ObjectNode node = NODES.objectNode();
        if (expr instanceof Ast.Str s) {
            node.put("S", s.value());
        } else if (expr instanceof Ast.Num n) {
            node.put("N", n.text());
        } else if (expr instanceof Ast.Bool b) {
            node.put("BOOL", b.value());
        } else if (expr instanceof Ast.Null) {
            node.put("NULL", true);
        } else if (expr instanceof Ast.Param p) {
            JsonNode given = parameters.get(p.index());
            if (!given.isObject()) {
                throw ApiException.serialization("Unexpected value type in payload");
            }
            return (ObjectNode) given.deepCopy();
        } else if (expr instanceof Ast.MapLit map) {
            ObjectNode members = node.putObject("M");
            Set<String> seen = new HashSet<>();
            for (Ast.Entry entry : map.entries()) {
                if (!seen.add(entry.key())) {
                    throw ApiException.validation("Duplicate keys in tuple. Key: " + entry.key() + " under root");
                }
                members.set(entry.key(), wire(entry.value()));
            }
        } else if (expr instanceof Ast.ListLit list) {
            ArrayNode members = node.putArray("L");
            list.values().forEach(value -> members.add(wire(value)));
        } else if (expr instanceof Ast.BagLit bag) {
            return set(bag);
        } else if (expr instanceof Ast.Missing) {
            throw ApiException.validation("MISSING must be compared using IS operator");
        } else {
            throw ApiException.validation("Unsupported operation: " + expr.getClass().getSimpleName());
        }
        return node;
    }

    /** A bag of strings, numbers or binaries is a set of that type; DynamoDB refuses other members. */
    private ObjectNode set(Ast.BagLit bag) {
        if (bag.values().isEmpty()) {
            throw ApiException.validation("Empty bags are not supported");
        }
        String type = null;
        ArrayNode members = NODES.arrayNode();
        for (Expr value : bag.values()) {
            ObjectNode member = wire(value);
            String memberType = member.fieldNames().next();
            if (!Set.of("S", "N", "B").contains(memberType) || type != null && !type.equals(memberType)) {
                throw ApiException.validation("Unsupported data type in Bag. DynamoDB only supports either numbers or"
                        + " strings in bags");
            }
            type = memberType;
            members.add(member.get(memberType));
        }
        ObjectNode node = NODES.objectNode();
        node.set(type + "S", members);
        return node;
    }
}
