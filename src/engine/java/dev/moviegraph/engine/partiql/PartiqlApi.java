package dev.moviegraph.engine.partiql;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.moviegraph.engine.api.BatchApi;
import dev.moviegraph.engine.api.ItemApi;
import dev.moviegraph.engine.api.ReadApi;
import dev.moviegraph.engine.api.TransactApi;
import dev.moviegraph.engine.error.ApiException;
import dev.moviegraph.engine.table.Tables;

/**
 * ExecuteStatement, BatchExecuteStatement and ExecuteTransaction: DynamoDB's PartiQL. A statement is parsed
 * ({@link Parser}), mapped onto one of the item, read or transaction operations' requests ({@link Planner})
 * and run through that operation, so capacity, conditions and streams are the item API's own.
 */
public final class PartiqlApi {
    static final int MAX_STATEMENT = 8192;

    private final Planner planner;
    private final Runner runner;
    private final MultiStatements multi;

    public PartiqlApi(Tables tables, ItemApi items, ReadApi reads, BatchApi batches, TransactApi transactions) {
        this.planner = new Planner(tables);
        this.runner = new Runner(items, reads);
        this.multi = new MultiStatements(planner, runner, transactions);
    }

    public ObjectNode executeStatement(JsonNode request) {
        String text = statement(request.get("Statement"), "statement");
        Integer limit = request.hasNonNull("Limit") ? request.get("Limit").asInt() : null;
        if (limit != null && limit < 1) {
            throw ApiException.validation("1 validation error detected: Value '" + limit + "' at 'limit' failed to"
                    + " satisfy constraint: Member must have value greater than or equal to 1");
        }
        Plan plan = planner.plan(Parser.parse(text), request.get("Parameters"));
        ObjectNode options = JsonNodeFactory.instance.objectNode();
        for (String field : new String[] {"ReturnConsumedCapacity", "ConsistentRead", "Limit",
            "ReturnValuesOnConditionCheckFailure"}) {
            if (request.hasNonNull(field)) {
                options.set(field, request.get(field));
            }
        }
        String nextToken = request.hasNonNull("NextToken") ? request.get("NextToken").asText() : null;
        if (nextToken != null && plan.operation().reads() && plan.operation() != Plan.Operation.GET) {
            options.set("ExclusiveStartKey", PageTokens.startKey(text, nextToken));
        }
        Runner.Result result = runner.run(plan, options);
        ObjectNode response = JsonNodeFactory.instance.objectNode();
        response.set("Items", result.items());
        if (result.lastKey() != null) {
            response.put("NextToken", PageTokens.token(text, result.lastKey()));
            response.set("LastEvaluatedKey", result.lastKey());
        }
        if (result.consumed() != null) {
            response.set("ConsumedCapacity", result.consumed());
        }
        return response;
    }

    public ObjectNode batchExecuteStatement(JsonNode request) {
        return multi.batch(request);
    }

    public ObjectNode executeTransaction(JsonNode request) {
        return multi.transaction(request);
    }

    /** A statement's text: present, 1 to 8192 characters. */
    static String statement(JsonNode node, String member) {
        if (node == null || node.isNull()) {
            throw ApiException.validation("1 validation error detected: Value null at '" + member + "' failed to"
                    + " satisfy constraint: Member must not be null");
        }
        String text = node.asText();
        if (text.isEmpty() || text.length() > MAX_STATEMENT) {
            throw ApiException.validation("1 validation error detected: Value '" + text + "' at '" + member
                    + "' failed to satisfy constraint: Member must have length "
                    + (text.isEmpty() ? "greater than or equal to 1" : "less than or equal to " + MAX_STATEMENT));
        }
        return text;
    }
}
