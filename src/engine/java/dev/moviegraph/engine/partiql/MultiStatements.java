package dev.moviegraph.engine.partiql;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.moviegraph.engine.api.TransactApi;
import dev.moviegraph.engine.error.ApiException;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * BatchExecuteStatement (each statement on its own, an error in its place of the answer) and
 * ExecuteTransaction (the statements as one TransactWriteItems or TransactGetItems: all or nothing).
 */
final class MultiStatements {
    static final int MAX_BATCH = 25;
    static final int MAX_TRANSACTION = 100;
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final Planner planner;
    private final Runner runner;
    private final TransactApi transactions;

    MultiStatements(Planner planner, Runner runner, TransactApi transactions) {
        this.planner = planner;
        this.runner = runner;
        this.transactions = transactions;
    }

    // ---- BatchExecuteStatement ----

    ObjectNode batch(JsonNode request) {
        JsonNode statements = sized(request.get("Statements"), "statements", MAX_BATCH);
        List<Object> parsed = new ArrayList<>(); // an Ast.Statement, or the ApiException of its text
        boolean reads = false;
        boolean writes = false;
        for (int i = 0; i < statements.size(); i++) {
            String text = PartiqlApi.statement(statements.get(i).get("Statement"), "statements." + (i + 1)
                    + ".member.statement");
            try {
                Ast.Statement statement = Parser.parse(text);
                reads |= statement instanceof Ast.Select;
                writes |= !(statement instanceof Ast.Select);
                parsed.add(statement);
            } catch (ApiException e) {
                parsed.add(e);
            }
        }
        if (reads && writes) {
            throw ApiException.validation("Unsupported operation: Batch requests must contain either all read"
                    + " statements or all write statements");
        }
        ObjectNode response = NODES.objectNode();
        ArrayNode responses = response.putArray("Responses");
        Map<String, ObjectNode> consumed = new LinkedHashMap<>();
        for (int i = 0; i < statements.size(); i++) {
            JsonNode member = statements.get(i);
            ObjectNode entry = responses.addObject();
            try {
                if (parsed.get(i) instanceof ApiException refused) {
                    throw refused;
                }
                Plan plan = planner.plan((Ast.Statement) parsed.get(i), member.get("Parameters"));
                if (plan.operation().reads() && plan.operation() != Plan.Operation.GET) {
                    throw ApiException.validation("Select statements within BatchExecuteStatement must specify the"
                            + " primary key in the where clause.");
                }
                ObjectNode options = NODES.objectNode();
                copy(request, options, "ReturnConsumedCapacity");
                copy(member, options, "ConsistentRead");
                copy(member, options, "ReturnValuesOnConditionCheckFailure");
                Runner.Result result = runner.run(plan, options);
                entry.put("TableName", plan.table());
                if (!result.items().isEmpty()) {
                    entry.set("Item", result.items().get(0));
                }
                if (result.consumed() != null) {
                    add(consumed, result.consumed());
                }
            } catch (ApiException e) {
                ObjectNode error = entry.putObject("Error");
                error.put("Code", code(e));
                error.put("Message", e.getMessage());
                Object item = e.extra().get("Item");
                if (item != null) {
                    error.putPOJO("Item", item);
                }
            }
        }
        if (!consumed.isEmpty()) {
            response.putArray("ConsumedCapacity").addAll(consumed.values());
        }
        return response;
    }

    /** A batch member's error code: the exception's name without "Exception" (ValidationError for validation). */
    static String code(ApiException e) {
        String name = e.type().substring(e.type().indexOf('#') + 1);
        return switch (name) {
            case "ValidationException" -> "ValidationError";
            case "ThrottlingException" -> "ThrottlingError";
            case "InternalServerError" -> "InternalServerError";
            default -> name.endsWith("Exception") ? name.substring(0, name.length() - "Exception".length()) : name;
        };
    }

    /** Sums one answer's ConsumedCapacity into the batch's, per table. */
    private static void add(Map<String, ObjectNode> consumed, JsonNode capacity) {
        String table = capacity.path("TableName").asText();
        ObjectNode sum = consumed.get(table);
        if (sum == null) {
            consumed.put(table, capacity.deepCopy());
        } else {
            addNumbers(sum, capacity);
        }
    }

    private static void addNumbers(ObjectNode sum, JsonNode more) {
        more.fields().forEachRemaining(field -> {
            JsonNode mine = sum.get(field.getKey());
            if (field.getValue().isNumber()) {
                sum.put(field.getKey(), (mine == null ? 0 : mine.asDouble()) + field.getValue().asDouble());
            } else if (field.getValue().isObject()) {
                if (mine instanceof ObjectNode object) {
                    addNumbers(object, field.getValue());
                } else {
                    sum.set(field.getKey(), field.getValue().deepCopy());
                }
            }
        });
    }

    // ---- ExecuteTransaction ----

    ObjectNode transaction(JsonNode request) {
        JsonNode statements = sized(request.get("TransactStatements"), "transactStatements", MAX_TRANSACTION);
        List<Plan> plans = new ArrayList<>();
        for (int i = 0; i < statements.size(); i++) {
            JsonNode member = statements.get(i);
            String text = PartiqlApi.statement(member.get("Statement"), "transactStatements." + (i + 1)
                    + ".member.statement");
            try {
                Ast.Statement statement = Parser.parse(text);
                if (returns(statement)) {
                    throw ApiException.validation("RETURNING clause is not supported in ExecuteTransaction.");
                }
                Plan plan = planner.plan(statement, member.get("Parameters"));
                if (plan.operation().reads() && statement.source().index() != null) {
                    throw ApiException.validation("Reads on indices are not supported within transactions.");
                }
                if (plan.operation().reads() && plan.operation() != Plan.Operation.GET) {
                    throw ApiException.validation("Select statements within ExecuteTransaction must specify the primary"
                            + " key in the where clause.");
                }
                plans.add(plan);
            } catch (ApiException e) {
                if (!e.type().endsWith("#ValidationException")) {
                    throw e;
                }
                throw ApiException.validation("Validation failed in TransactStatements[" + i + "]: " + e.getMessage());
            }
        }
        boolean reads = plans.stream().anyMatch(plan -> plan.operation().reads());
        boolean writes = plans.stream().anyMatch(plan -> !plan.operation().reads());
        if (reads && writes) {
            throw ApiException.validation("ExecuteTransaction API does not support both read and write operations in"
                    + " the same request.");
        }
        return reads ? transactGet(request, plans) : transactWrite(request, plans);
    }

    private static boolean returns(Ast.Statement statement) {
        return statement instanceof Ast.Update update && update.returning() != Ast.Returning.NONE
                || statement instanceof Ast.Delete delete && delete.returning() != Ast.Returning.NONE;
    }

    private ObjectNode transactGet(JsonNode request, List<Plan> plans) {
        ObjectNode get = NODES.objectNode();
        ArrayNode items = get.putArray("TransactItems");
        plans.forEach(plan -> items.addObject().set("Get", plan.request()));
        copy(request, get, "ReturnConsumedCapacity");
        ObjectNode answer = transactions.transactGetItems(get);
        ObjectNode response = NODES.objectNode();
        ArrayNode responses = response.putArray("Responses");
        JsonNode found = answer.get("Responses");
        for (int i = 0; i < plans.size(); i++) {
            ObjectNode entry = responses.addObject();
            JsonNode item = found.get(i).get("Item");
            if (item != null) {
                entry.set("Item", Runner.shown(item, plans.get(i).projection()));
            }
        }
        if (answer.has("ConsumedCapacity")) {
            response.set("ConsumedCapacity", answer.get("ConsumedCapacity"));
        }
        return response;
    }

    private ObjectNode transactWrite(JsonNode request, List<Plan> plans) {
        ObjectNode write = NODES.objectNode();
        ArrayNode items = write.putArray("TransactItems");
        for (Plan plan : plans) {
            ObjectNode body = plan.request().deepCopy();
            body.remove("ReturnValues");
            String kind = switch (plan.operation()) {
                case PUT -> "Put";
                case UPDATE -> "Update";
                default -> "Delete";
            };
            items.addObject().set(kind, body);
        }
        copy(request, write, "ClientRequestToken");
        copy(request, write, "ReturnConsumedCapacity");
        ObjectNode answer;
        try {
            answer = transactions.transactWriteItems(write);
        } catch (ApiException e) {
            throw e.type().endsWith("#TransactionCanceledException") ? duplicates(e, plans) : e;
        }
        ObjectNode response = NODES.objectNode();
        if (answer.has("ConsumedCapacity")) {
            response.set("ConsumedCapacity", answer.get("ConsumedCapacity"));
        }
        return response;
    }

    /** An INSERT's failed condition is, in PartiQL's words, a duplicate item. */
    @SuppressWarnings("unchecked")
    private static ApiException duplicates(ApiException cancelled, List<Plan> plans) {
        Object given = cancelled.extra().get("CancellationReasons");
        if (!(given instanceof List<?> list)) {
            return cancelled;
        }
        List<Map<String, Object>> reasons = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            Map<String, Object> reason = new LinkedHashMap<>((Map<String, Object>) list.get(i));
            if (plans.get(i).operation() == Plan.Operation.PUT && "ConditionalCheckFailed".equals(reason.get("Code"))) {
                reason.put("Code", "DuplicateItem");
                reason.put("Message", "Duplicate primary key exists in table");
            }
            reasons.add(reason);
        }
        return ApiException.transactionCanceled(reasons);
    }

    // ---- shared ----

    /** The list of statements: present, 1 to {@code max} of them. */
    private static JsonNode sized(JsonNode statements, String member, int max) {
        if (statements == null || statements.isNull()) {
            throw ApiException.validation("1 validation error detected: Value null at '" + member + "' failed to"
                    + " satisfy constraint: Member must not be null");
        }
        if (!statements.isArray()) {
            throw ApiException.serialization("Unexpected value type in payload");
        }
        if (statements.isEmpty() || statements.size() > max) {
            throw ApiException.validation("1 validation error detected: Value '" + statements + "' at '" + member
                    + "' failed to satisfy constraint: Member must have length " + (statements.isEmpty()
                    ? "greater than or equal to 1" : "less than or equal to " + max));
        }
        return statements;
    }

    private static void copy(JsonNode from, ObjectNode to, String field) {
        if (from.hasNonNull(field)) {
            to.set(field, from.get(field));
        }
    }
}
