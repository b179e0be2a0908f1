package dev.moviegraph.engine.partiql;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.moviegraph.engine.error.ApiException;
import dev.moviegraph.engine.partiql.Ast.Expr;
import dev.moviegraph.engine.partiql.Ast.Path;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.StringJoiner;

/**
 * Writes a statement's conditions, updates and projections as DynamoDB expression text, every name a
 * generated {@code #n} and every value a generated {@code :v}, so the engine's own expression parser and
 * evaluator run them with the semantics (and errors) of the item API. The placeholders go into the request
 * as ExpressionAttributeNames and ExpressionAttributeValues.
 */
final class ExpressionText {
    private static final Set<String> CONDITION_FUNCTIONS = Set.of("begins_with", "contains", "attribute_type",
            "attribute_exists", "attribute_not_exists");
    private static final Map<String, String> IS_TYPES = Map.of("NULL", "NULL", "BOOLEAN", "BOOL", "STRING", "S",
            "NUMERIC", "N", "BLOB", "B", "LIST", "L", "STRUCT", "M", "TUPLE", "M");

    private final Binder binder;
    private final ObjectNode names = JsonNodeFactory.instance.objectNode();
    private final ObjectNode values = JsonNodeFactory.instance.objectNode();
    private final Map<String, String> nameIds = new HashMap<>();

    ExpressionText(Binder binder) {
        this.binder = binder;
    }

    /** Puts the placeholders used so far into the request (nothing when none were used). */
    void into(ObjectNode request) {
        if (!names.isEmpty()) {
            request.set("ExpressionAttributeNames", names);
        }
        if (!values.isEmpty()) {
            request.set("ExpressionAttributeValues", values);
        }
    }

    String name(String name) {
        return nameIds.computeIfAbsent(name, n -> {
            String id = "#n" + nameIds.size();
            names.put(id, n);
            return id;
        });
    }

    String path(Path path) {
        StringBuilder text = new StringBuilder();
        for (Ast.Step step : path.steps()) {
            if (step instanceof Ast.Name name) {
                text.append(text.isEmpty() ? "" : ".").append(name(name.name()));
            } else {
                text.append('[').append(((Ast.Index) step).index()).append(']');
            }
        }
        return text.toString();
    }

    String value(Expr literal) {
        String id = ":v" + values.size();
        values.set(id, binder.wire(literal));
        return id;
    }

    /** A value already in wire form (a key's value). */
    String wireValue(ObjectNode wire) {
        String id = ":v" + values.size();
        values.set(id, wire);
        return id;
    }

    /** A projection: the paths, comma separated. */
    String projection(List<Path> paths) {
        StringJoiner text = new StringJoiner(", ");
        paths.forEach(path -> text.add(path(path)));
        return text.toString();
    }

    /** The conditions, joined by AND. */
    String conjunction(List<Expr> conditions) {
        StringJoiner text = new StringJoiner(" AND ");
        conditions.forEach(condition -> text.add(operandOf(condition)));
        return text.toString();
    }

    /** The conditions joined by AND, as one operand of a further AND or OR. */
    String grouped(List<Expr> conditions) {
        return conditions.size() == 1 ? operandOf(conditions.get(0)) : "(" + conjunction(conditions) + ")";
    }

    /**
     * A condition as the operand of AND, OR or NOT: in parentheses when it is one of those itself, never in
     * two pairs (DynamoDB refuses redundant parentheses).
     */
    private String operandOf(Expr expr) {
        boolean compound = expr instanceof Ast.And || expr instanceof Ast.Or || expr instanceof Ast.Not;
        return compound ? "(" + condition(expr) + ")" : condition(expr);
    }

    String condition(Expr expr) {
        if (expr instanceof Ast.And and) {
            return operandOf(and.left()) + " AND " + operandOf(and.right());
        }
        if (expr instanceof Ast.Or or) {
            return operandOf(or.left()) + " OR " + operandOf(or.right());
        }
        if (expr instanceof Ast.Not not) {
            return "NOT " + operandOf(not.operand());
        }
        if (expr instanceof Ast.Compare compare) {
            return operand(compare.left()) + " " + compare.op() + " " + operand(compare.right());
        }
        if (expr instanceof Ast.Between between) {
            return operand(between.value()) + " BETWEEN " + operand(between.low()) + " AND " + operand(between.high());
        }
        if (expr instanceof Ast.In in) {
            StringJoiner options = new StringJoiner(", ", "(", ")");
            in.options().forEach(option -> options.add(operand(option)));
            return operand(in.value()) + " IN " + options;
        }
        if (expr instanceof Ast.Is is) {
            return is(is);
        }
        if (expr instanceof Ast.Call call && CONDITION_FUNCTIONS.contains(call.name())) {
            return call(call);
        }
        if (expr instanceof Ast.Call call) {
            throw ApiException.validation("Unrecognized function: " + call.name());
        }
        throw ApiException.validation("WHERE clause must contain an expression that resolves to a boolean");
    }

    private String is(Ast.Is is) {
        if (!(is.value() instanceof Ast.PathRef ref)) {
            throw ApiException.validation("The left hand side argument to IS must be a Variable Reference, Literal, or"
                    + " Path");
        }
        String path = path(ref.path());
        if (is.type().equals("MISSING")) {
            return (is.negated() ? "attribute_exists(" : "attribute_not_exists(") + path + ")";
        }
        String type = value(new Ast.Str(IS_TYPES.get(is.type())));
        String test = "attribute_type(" + path + ", " + type + ")";
        return is.negated() ? "NOT " + test : test;
    }

    private String call(Ast.Call call) {
        StringJoiner args = new StringJoiner(", ", call.name() + "(", ")");
        call.args().forEach(arg -> args.add(operand(arg)));
        return args.toString();
    }

    /** A comparison's operand: a path, a value, or size(path). */
    private String operand(Expr expr) {
        if (expr instanceof Ast.PathRef ref) {
            return path(ref.path());
        }
        if (Binder.isValue(expr)) {
            return value(expr);
        }
        if (expr instanceof Ast.Call call && call.name().equals("size")) {
            return call(call);
        }
        if (expr instanceof Ast.Missing) {
            throw ApiException.validation("MISSING must be compared using IS operator");
        }
        if (expr instanceof Ast.Call call) {
            throw ApiException.validation("Unrecognized function: " + call.name());
        }
        throw ApiException.validation("Unsupported operator in Condition Expression. Operator: "
                + expr.getClass().getSimpleName());
    }

    /** The value of a SET: a value, a path, {@code a + b}, {@code a - b}, list_append or if_not_exists. */
    String updateValue(Expr expr) {
        if (expr instanceof Ast.Arith arith) {
            return updateOperand(arith.left()) + " " + arith.op() + " " + updateOperand(arith.right());
        }
        return updateOperand(expr);
    }

    private String updateOperand(Expr expr) {
        if (expr instanceof Ast.PathRef ref) {
            return path(ref.path());
        }
        if (Binder.isValue(expr)) {
            return value(expr);
        }
        if (expr instanceof Ast.Call call && (call.name().equals("list_append") || call.name().equals("if_not_exists"))) {
            StringJoiner args = new StringJoiner(", ", call.name() + "(", ")");
            call.args().forEach(arg -> args.add(updateOperand(arg)));
            return args.toString();
        }
        if (expr instanceof Ast.Call call) {
            throw ApiException.validation("Unrecognized function: " + call.name());
        }
        throw ApiException.validation("Unsupported operator in Update Expression. Operator: "
                + expr.getClass().getSimpleName());
    }
}
