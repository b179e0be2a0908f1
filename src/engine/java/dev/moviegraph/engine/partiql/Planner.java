package dev.moviegraph.engine.partiql;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.moviegraph.engine.error.ApiException;
import dev.moviegraph.engine.partiql.Ast.Expr;
import dev.moviegraph.engine.partiql.Ast.Statement;
import dev.moviegraph.engine.partiql.Plan.Operation;
import dev.moviegraph.engine.table.IndexSpec;
import dev.moviegraph.engine.table.KeySchema;
import dev.moviegraph.engine.table.Table;
import dev.moviegraph.engine.table.Tables;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Maps a parsed statement onto the engine's operations: a SELECT naming the whole key of the table is a
 * GetItem, one naming the partition key a Query (a condition on the sort key as its key condition, the rest
 * its filter), any other a Scan with the WHERE as its filter; INSERT is a PutItem that must not replace an
 * item, UPDATE an UpdateItem that must find one, DELETE a DeleteItem. UPDATE and DELETE must name the whole
 * key, and what else their WHERE says becomes the write's condition.
 */
final class Planner {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final Tables tables;

    Planner(Tables tables) {
        this.tables = tables;
    }

    Plan plan(Statement statement, JsonNode parameters) {
        Binder binder = Binder.of(parameters, statement.parameters());
        Table table = tables.find(statement.source().table());
        if (table == null) {
            throw ApiException.resourceNotFound("Requested resource not found");
        }
        if (!(statement instanceof Ast.Select) && statement.source().index() != null) {
            throw ApiException.validation("This operation is not supported on an index");
        }
        if (statement instanceof Ast.Select select) {
            return select(select, table, binder);
        }
        if (statement instanceof Ast.Insert insert) {
            return insert(insert, table, binder);
        }
        if (statement instanceof Ast.Update update) {
            return update(update, table, binder);
        }
        return delete((Ast.Delete) statement, table, binder);
    }

    // ---- SELECT ----

    private Plan select(Ast.Select select, Table table, Binder binder) {
        String indexName = select.source().index();
        KeySchema key = table.spec().key();
        if (indexName != null) {
            IndexSpec index = table.spec().index(indexName).orElseThrow(() -> ApiException.validation(
                    "The table does not have the specified index: " + indexName));
            key = index.key();
        }
        ExpressionText text = new ExpressionText(binder);
        ObjectNode request = NODES.objectNode();
        request.put("TableName", table.name());
        if (indexName != null) {
            request.put("IndexName", indexName);
        }
        if (!select.projection().isEmpty()) {
            request.put("ProjectionExpression", text.projection(select.projection()));
        }
        List<Expr> conjuncts = conjuncts(select.where());
        KeyTerms keys = KeyTerms.of(conjuncts, key, binder, false);
        ObjectNode partition = keys.equalities().get(key.partition());
        Operation operation = Operation.SCAN;
        if (partition != null) {
            ObjectNode sort = key.hasSort() ? keys.equalities().get(key.sort()) : null;
            if (indexName == null && keys.rest().isEmpty() && (!key.hasSort() || sort != null)) {
                operation = Operation.GET;
                request.set("Key", keyNode(keys.equalities(), key));
            } else {
                List<Expr> rest = new ArrayList<>(keys.rest());
                Expr range = sort != null ? null : sortRange(rest, key);
                if (!mentions(rest, key)) {
                    operation = Operation.QUERY;
                    String condition = text.name(key.partition()) + " = " + keyValue(text, partition);
                    if (sort != null) {
                        condition += " AND " + text.name(key.sort()) + " = " + keyValue(text, sort);
                    } else if (range != null) {
                        rest.remove(range);
                        condition += " AND " + text.condition(range);
                    }
                    request.put("KeyConditionExpression", condition);
                    if (!rest.isEmpty()) {
                        request.put("FilterExpression", text.conjunction(rest));
                    }
                }
            }
        }
        if (operation == Operation.SCAN && select.where() != null) {
            request.put("FilterExpression", text.condition(select.where()));
        }
        text.into(request);
        return new Plan(operation, table.name(), request, select.projection());
    }

    private static String keyValue(ExpressionText text, ObjectNode wire) {
        return text.wireValue(wire);
    }

    /** The first condition on the sort key a Query's key condition can hold, or null. */
    private static Expr sortRange(List<Expr> conditions, KeySchema key) {
        if (!key.hasSort()) {
            return null;
        }
        for (Expr condition : conditions) {
            if (condition instanceof Ast.Compare compare && !compare.op().equals("<>")
                    && isName(compare.left(), key.sort()) && Binder.isValue(compare.right())
                    || condition instanceof Ast.Between between && isName(between.value(), key.sort())
                    && Binder.isValue(between.low()) && Binder.isValue(between.high())
                    || condition instanceof Ast.Call call && call.name().equals("begins_with") && call.args().size() == 2
                    && isName(call.args().get(0), key.sort()) && Binder.isValue(call.args().get(1))) {
                return condition;
            }
        }
        return null;
    }

    /** Whether any of the conditions reads a key attribute (a Query's filter may not). */
    private static boolean mentions(List<Expr> conditions, KeySchema key) {
        Set<String> names = new HashSet<>();
        conditions.forEach(condition -> names(condition, names));
        return names.stream().anyMatch(key::isKey);
    }

    private static void names(Expr expr, Set<String> into) {
        if (expr instanceof Ast.PathRef ref) {
            into.add(ref.path().first());
        } else if (expr instanceof Ast.And and) {
            names(and.left(), into);
            names(and.right(), into);
        } else if (expr instanceof Ast.Or or) {
            names(or.left(), into);
            names(or.right(), into);
        } else if (expr instanceof Ast.Not not) {
            names(not.operand(), into);
        } else if (expr instanceof Ast.Compare compare) {
            names(compare.left(), into);
            names(compare.right(), into);
        } else if (expr instanceof Ast.Between between) {
            names(between.value(), into);
            names(between.low(), into);
            names(between.high(), into);
        } else if (expr instanceof Ast.In in) {
            names(in.value(), into);
            in.options().forEach(option -> names(option, into));
        } else if (expr instanceof Ast.Call call) {
            call.args().forEach(arg -> names(arg, into));
        } else if (expr instanceof Ast.Is is) {
            names(is.value(), into);
        } else if (expr instanceof Ast.Arith arith) {
            names(arith.left(), into);
            names(arith.right(), into);
        }
    }

    // ---- writes ----

    private Plan insert(Ast.Insert insert, Table table, Binder binder) {
        if (!(insert.value() instanceof Ast.MapLit) && !(insert.value() instanceof Ast.Param)) {
            throw ApiException.validation("Unsupported format in item expression. Please use struct format {...} to"
                    + " express item values for insert statement.");
        }
        ObjectNode value = binder.wire(insert.value());
        JsonNode item = value.get("M");
        if (item == null || !item.isObject()) {
            throw ApiException.validation("Unsupported format in item expression. Please use struct format {...} to"
                    + " express item values for insert statement.");
        }
        KeySchema key = table.spec().key();
        for (String name : key.hasSort() ? List.of(key.partition(), key.sort()) : List.of(key.partition())) {
            JsonNode attribute = item.get(name);
            if (attribute == null) {
                throw ApiException.validation("Key attribute should be present in the item: Key " + name);
            }
            String type = name.equals(key.partition()) ? key.partitionType() : key.sortType();
            if (!attribute.has(type) || attribute.size() != 1) {
                throw ApiException.validation("Key attribute's data type should match its data type in table's schema:"
                        + " Key " + name);
            }
        }
        ExpressionText text = new ExpressionText(binder);
        ObjectNode request = NODES.objectNode();
        request.put("TableName", table.name());
        request.set("Item", item);
        request.put("ConditionExpression", "attribute_not_exists(" + text.name(key.partition()) + ")");
        text.into(request);
        return new Plan(Operation.PUT, table.name(), request, List.of());
    }

    private Plan update(Ast.Update update, Table table, Binder binder) {
        KeySchema key = table.spec().key();
        KeyTerms keys = KeyTerms.of(conjuncts(update.where()), key, binder, true);
        ExpressionText text = new ExpressionText(binder);
        ObjectNode request = NODES.objectNode();
        request.put("TableName", table.name());
        request.set("Key", keyNode(keys.equalities(), key));
        request.put("UpdateExpression", updateExpression(update.actions(), text));
        String exists = "attribute_exists(" + text.name(key.partition()) + ")";
        request.put("ConditionExpression", keys.rest().isEmpty() ? exists
                : exists + " AND " + text.grouped(keys.rest()));
        switch (update.returning()) {
            case ALL_OLD -> request.put("ReturnValues", "ALL_OLD");
            case ALL_NEW -> request.put("ReturnValues", "ALL_NEW");
            case MODIFIED_OLD -> request.put("ReturnValues", "UPDATED_OLD");
            case MODIFIED_NEW -> request.put("ReturnValues", "UPDATED_NEW");
            default -> {
            }
        }
        text.into(request);
        return new Plan(Operation.UPDATE, table.name(), request, List.of());
    }

    /** SET, REMOVE, and set_add / set_delete as ADD / DELETE, each kind in one clause. */
    private static String updateExpression(List<Ast.Action> actions, ExpressionText text) {
        Map<String, List<String>> clauses = new LinkedHashMap<>();
        for (Ast.Action action : actions) {
            if (action instanceof Ast.RemoveAction remove) {
                clauses.computeIfAbsent("REMOVE", k -> new ArrayList<>()).add(text.path(remove.path()));
                continue;
            }
            Ast.SetAction set = (Ast.SetAction) action;
            if (set.value() instanceof Ast.Call call && (call.name().equals("set_add") || call.name().equals("set_delete"))) {
                String function = call.name().substring(4).toUpperCase(java.util.Locale.ROOT);
                if (call.args().size() != 2) {
                    throw ApiException.validation("SET_" + function + " must have exactly two arguments");
                }
                if (!(call.args().get(0) instanceof Ast.PathRef ref) || !ref.path().equals(set.path())) {
                    throw ApiException.validation("The first argument to SET_" + function
                            + " must equal the assignment value");
                }
                if (!(call.args().get(1) instanceof Ast.BagLit) && !(call.args().get(1) instanceof Ast.Param)) {
                    throw ApiException.validation("The second argument to SET_" + function
                            + " must be a value with type SET");
                }
                clauses.computeIfAbsent(function, k -> new ArrayList<>())
                        .add(text.path(set.path()) + " " + text.value(call.args().get(1)));
                continue;
            }
            clauses.computeIfAbsent("SET", k -> new ArrayList<>())
                    .add(text.path(set.path()) + " = " + text.updateValue(set.value()));
        }
        StringBuilder expression = new StringBuilder();
        clauses.forEach((clause, parts) -> expression.append(expression.isEmpty() ? "" : " ").append(clause).append(' ')
                .append(String.join(", ", parts)));
        return expression.toString();
    }

    private Plan delete(Ast.Delete delete, Table table, Binder binder) {
        if (delete.returning() != Ast.Returning.NONE && delete.returning() != Ast.Returning.ALL_OLD) {
            throw ApiException.validation("Invalid returning clause: RETURNING " + delete.returning().written()
                    + ". Only RETURNING ALL OLD * is allowed in DELETE statements.");
        }
        KeySchema key = table.spec().key();
        KeyTerms keys = KeyTerms.of(conjuncts(delete.where()), key, binder, true);
        ExpressionText text = new ExpressionText(binder);
        ObjectNode request = NODES.objectNode();
        request.put("TableName", table.name());
        request.set("Key", keyNode(keys.equalities(), key));
        if (!keys.rest().isEmpty()) {
            // a missing item is deleted as a success; an item the rest of the WHERE refuses is a failed condition
            request.put("ConditionExpression", "attribute_not_exists(" + text.name(key.partition()) + ") OR "
                    + text.grouped(keys.rest()));
        }
        if (delete.returning() == Ast.Returning.ALL_OLD) {
            request.put("ReturnValues", "ALL_OLD");
        }
        text.into(request);
        return new Plan(Operation.DELETE, table.name(), request, List.of());
    }

    // ---- keys ----

    private static ObjectNode keyNode(Map<String, ObjectNode> equalities, KeySchema key) {
        ObjectNode node = NODES.objectNode();
        node.set(key.partition(), equalities.get(key.partition()));
        if (key.hasSort()) {
            node.set(key.sort(), equalities.get(key.sort()));
        }
        return node;
    }

    /** The WHERE's top-level AND terms. */
    static List<Expr> conjuncts(Expr where) {
        List<Expr> terms = new ArrayList<>();
        if (where instanceof Ast.And and) {
            terms.addAll(conjuncts(and.left()));
            terms.addAll(conjuncts(and.right()));
        } else if (where != null) {
            terms.add(where);
        }
        return terms;
    }

    static boolean isName(Expr expr, String name) {
        return expr instanceof Ast.PathRef ref && ref.path().isTopLevel() && ref.path().first().equals(name);
    }
}
