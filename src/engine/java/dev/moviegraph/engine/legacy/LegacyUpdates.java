package dev.moviegraph.engine.legacy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;

import dev.moviegraph.engine.error.ApiException;
import dev.moviegraph.engine.value.Wire;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * AttributeUpdates as an UpdateExpression. PUT (the default Action) is SET; DELETE without a Value is REMOVE and
 * with a set Value is DELETE (the set's elements leave; an emptied set goes); ADD of a number or a set is ADD (a
 * missing number starts from 0, a missing set from empty, a missing item is created). ADD of a list, which only
 * the legacy form allows, appends: SET with list_append onto the list, or onto an empty list when there is none.
 */
final class LegacyUpdates {
    private static final String INVALID = "One or more parameter values were invalid: ";
    private static final Set<String> SETS = Set.of("SS", "NS", "BS");
    private static final Set<String> ADDABLE = Set.of("N", "SS", "NS", "BS", "L");

    private LegacyUpdates() {
    }

    /** The member constraints: each Action, when given, one of ADD, PUT, DELETE. */
    static void constrain(MemberConstraints constraints, JsonNode updates) {
        Json.object(updates).forEach((attribute, update) -> {
            if (update.isObject()) {
                constraints.oneOf("attributeUpdates." + attribute + ".member.action", update.get("Action"),
                        MemberConstraints.ACTIONS);
            }
        });
    }

    /** One validated update. */
    private record Change(String attribute, String action, JsonNode value) {
    }

    /** Validates the updates in DynamoDB's order; their UpdateExpression, or null when there are none. */
    static String expression(JsonNode updates, GeneratedPlaceholders placeholders) {
        List<Change> changes = new ArrayList<>();
        for (Map.Entry<String, JsonNode> entry : Json.object(updates).entrySet()) {
            changes.add(change(entry.getKey(), entry.getValue()));
        }
        List<String> sets = new ArrayList<>();
        List<String> removes = new ArrayList<>();
        List<String> adds = new ArrayList<>();
        List<String> deletes = new ArrayList<>();
        for (Change change : changes) {
            String name = placeholders.name(change.attribute());
            switch (change.action()) {
                case "PUT" -> sets.add(name + " = " + placeholders.value(change.value()));
                case "DELETE" -> {
                    if (change.value() == null) {
                        removes.add(name);
                    } else {
                        deletes.add(name + " " + placeholders.value(change.value()));
                    }
                }
                default -> {
                    if (change.value().has("L")) {
                        JsonNode empty = JsonNodeFactory.instance.objectNode().set("L", JsonNodeFactory.instance.arrayNode());
                        sets.add(name + " = list_append(if_not_exists(" + name + ", " + placeholders.value(empty) + "), "
                                + placeholders.value(change.value()) + ")");
                    } else {
                        adds.add(name + " " + placeholders.value(change.value()));
                    }
                }
            }
        }
        List<String> clauses = new ArrayList<>();
        clause(clauses, "SET", sets);
        clause(clauses, "REMOVE", removes);
        clause(clauses, "ADD", adds);
        clause(clauses, "DELETE", deletes);
        return clauses.isEmpty() ? null : String.join(" ", clauses);
    }

    private static void clause(List<String> clauses, String keyword, List<String> parts) {
        if (!parts.isEmpty()) {
            clauses.add(keyword + " " + String.join(", ", parts));
        }
    }

    private static Change change(String attribute, JsonNode update) {
        if (!update.isObject()) {
            throw Json.unexpected();
        }
        String action = Json.present(update, "Action") ? Json.text(update.get("Action")) : "PUT";
        JsonNode value = Json.present(update, "Value") ? update.get("Value") : null;
        if (value != null) {
            Wire.value(value);
        }
        if (value == null && !action.equals("DELETE")) {
            throw ApiException.validation(INVALID + "Only DELETE action is allowed when no attribute value is specified");
        }
        if (value != null) {
            String type = value.fieldNames().next();
            if (action.equals("DELETE") && !SETS.contains(type)) {
                throw ApiException.validation(INVALID + "DELETE action with value is not supported for the type " + type);
            }
            if (action.equals("ADD") && !ADDABLE.contains(type)) {
                throw ApiException.validation(INVALID + "ADD action is not supported for the type " + type);
            }
        }
        return new Change(attribute, action, value);
    }
}
