package dev.moviegraph.engine.partiql;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.moviegraph.engine.error.ApiException;
import dev.moviegraph.engine.partiql.Ast.Expr;
import dev.moviegraph.engine.table.KeySchema;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A WHERE's top-level AND terms split into the equalities on key attributes ({@code pk = 'a'}, values in wire
 * form) and the rest.
 */
record KeyTerms(Map<String, ObjectNode> equalities, List<Expr> rest) {

    /**
     * For a write ({@code whole}), every key attribute must have its equality, of the schema's type; for a
     * SELECT an equality of another type is no key term (it matches nothing, as a filter).
     */
    static KeyTerms of(List<Expr> conjuncts, KeySchema key, Binder binder, boolean whole) {
        Map<String, ObjectNode> equalities = new LinkedHashMap<>();
        List<Expr> rest = new ArrayList<>();
        for (Expr term : conjuncts) {
            String name = null;
            Expr value = null;
            if (term instanceof Ast.Compare compare && compare.op().equals("=")) {
                for (String attribute : key.hasSort() ? List.of(key.partition(), key.sort()) : List.of(key.partition())) {
                    if (Planner.isName(compare.left(), attribute) && Binder.isValue(compare.right())) {
                        name = attribute;
                        value = compare.right();
                    } else if (Planner.isName(compare.right(), attribute) && Binder.isValue(compare.left())) {
                        name = attribute;
                        value = compare.left();
                    }
                }
            }
            if (name == null) {
                rest.add(term);
                continue;
            }
            if (equalities.containsKey(name)) {
                if (whole) {
                    throw ApiException.validation("Multiple conditions on same key " + name
                            + ". Only single item Update/Insert/Delete are supported");
                }
                rest.add(term);
                continue;
            }
            ObjectNode wire = binder.wire(value);
            String type = name.equals(key.partition()) ? key.partitionType() : key.sortType();
            if (!wire.has(type) || wire.size() != 1) {
                if (whole) {
                    throw ApiException.validation("Key attribute's data type should match its data type in table's"
                            + " schema: Key " + name);
                }
                rest.add(term);
                continue;
            }
            equalities.put(name, wire);
        }
        if (whole && (!equalities.containsKey(key.partition()) || key.hasSort() && !equalities.containsKey(key.sort()))) {
            throw ApiException.validation("Where clause does not contain a mandatory equality on all key attributes");
        }
        return new KeyTerms(equalities, rest);
    }
}
