package dev.moviegraph.engine.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.moviegraph.engine.error.ApiException;
import dev.moviegraph.engine.expr.Condition;
import dev.moviegraph.engine.expr.Expressions;
import dev.moviegraph.engine.expr.Placeholders;
import dev.moviegraph.engine.expr.Projection;
import dev.moviegraph.engine.expr.Update;
import dev.moviegraph.engine.table.Capacity;
import dev.moviegraph.engine.table.RowKey;
import dev.moviegraph.engine.table.StoredItem;
import dev.moviegraph.engine.table.Table;
import dev.moviegraph.engine.table.TableSpec;
import dev.moviegraph.engine.table.Tables;
import dev.moviegraph.engine.table.WriteResult;
import dev.moviegraph.engine.value.Value;
import dev.moviegraph.engine.value.Wire;
import dev.moviegraph.engine.value.WireItem;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/** GetItem, PutItem, UpdateItem and DeleteItem. */
public final class ItemApi {
    private static final Set<String> PUT_RETURNS = Set.of("NONE", "ALL_OLD");
    private static final Set<String> UPDATE_RETURNS = Set.of("NONE", "ALL_OLD", "UPDATED_OLD", "ALL_NEW", "UPDATED_NEW");

    private final Tables tables;
    private final Throughput throughput;

    public ItemApi(Tables tables, Throughput throughput) {
        this.tables = tables;
        this.throughput = throughput;
    }

    public ObjectNode getItem(JsonNode request) {
        Members.of(request).consumedCapacity().check();
        Table table = tables.forItems(Fields.text(request, "TableName"));
        RowKey key = Validation.key(table.spec(), Wire.item(request.get("Key")));
        Placeholders placeholders = new Placeholders(Fields.names(request), Map.of());
        String projectionText = Fields.text(request, "ProjectionExpression");
        Projection projection = projectionText == null ? null : Expressions.projection(projectionText, placeholders);
        placeholders.requireAllUsed();
        boolean consistent = Fields.bool(request, "ConsistentRead");
        StoredItem item = table.get(key);
        double units = Capacity.read(item == null ? 0 : item.size(), consistent);
        throughput.read(table, null, key.partition(), units);
        ObjectNode response = JsonNodeFactory.instance.objectNode();
        if (item != null) {
            response.putPOJO("Item", WireItem.of(projection == null ? item.attributes() : projection.apply(item.attributes())));
        }
        Consumed consumed = new Consumed(table.name(), true);
        consumed.table(units);
        capacity(request, response, consumed);
        return response;
    }

    public ObjectNode putItem(JsonNode request) {
        writeMembers(request);
        Table table = tables.forItems(Fields.text(request, "TableName"));
        Map<String, Value> item = Wire.item(request.get("Item"));
        RowKey key = Validation.item(table.spec(), item);
        String returns = returnValues(request, PUT_RETURNS);
        Condition condition = condition(request);
        boolean oldOnFailure = oldOnFailure(request);
        StoredItem stored = StoredItem.of(item);
        WriteResult result = table.write(key, before -> {
            notInTransaction(table, key);
            check(condition, before, oldOnFailure, throughput, table, key);
            throughput.write(table, key.partition(), before, stored);
            return stored;
        });
        return written(request, table, result, returns.equals("ALL_OLD") ? old(result) : null);
    }

    public ObjectNode deleteItem(JsonNode request) {
        writeMembers(request);
        Table table = tables.forItems(Fields.text(request, "TableName"));
        RowKey key = Validation.key(table.spec(), Wire.item(request.get("Key")));
        String returns = returnValues(request, PUT_RETURNS);
        Condition condition = condition(request);
        boolean oldOnFailure = oldOnFailure(request);
        WriteResult result = table.write(key, before -> {
            notInTransaction(table, key);
            check(condition, before, oldOnFailure, throughput, table, key);
            throughput.write(table, key.partition(), before, null);
            return null;
        });
        return written(request, table, result, returns.equals("ALL_OLD") ? old(result) : null);
    }

    public ObjectNode updateItem(JsonNode request) {
        writeMembers(request);
        Table table = tables.forItems(Fields.text(request, "TableName"));
        TableSpec spec = table.spec();
        Map<String, Value> keyAttributes = Wire.item(request.get("Key"));
        RowKey key = Validation.key(spec, keyAttributes);
        String returns = returnValues(request, UPDATE_RETURNS);
        Placeholders placeholders = new Placeholders(Fields.names(request), Fields.values(request));
        String updateText = Fields.text(request, "UpdateExpression");
        Update update = updateText == null ? null : Expressions.update(updateText, placeholders);
        String conditionText = Fields.text(request, "ConditionExpression");
        Condition condition = conditionText == null ? null : Expressions.condition(conditionText, placeholders);
        placeholders.requireAllUsed();
        if (update != null) {
            for (String name : update.topLevelNames()) {
                if (spec.key().isKey(name)) {
                    throw ApiException.validation("One or more parameter values were invalid: Cannot update attribute "
                            + name + ". This attribute is part of the key");
                }
            }
        }
        boolean oldOnFailure = oldOnFailure(request);
        WriteResult result = table.write(key, before -> {
            notInTransaction(table, key);
            check(condition, before, oldOnFailure, throughput, table, key);
            Map<String, Value> base = before == null ? keyAttributes : before.attributes();
            Map<String, Value> after = update == null ? new LinkedHashMap<>(base) : update.apply(base);
            StoredItem stored = Validation.updated(table.spec(), after);
            throughput.write(table, key.partition(), before, stored);
            return stored;
        });
        Map<String, Value> attributes = switch (returns) {
            case "ALL_OLD" -> old(result);
            case "ALL_NEW" -> result.after().attributes();
            case "UPDATED_OLD" -> result.before() == null || update == null ? null : update.updatedPart(result.before().attributes());
            case "UPDATED_NEW" -> update == null ? null : update.updatedPart(result.after().attributes());
            default -> null;
        };
        return written(request, table, result, attributes == null || attributes.isEmpty() ? null : attributes);
    }

    /** The members every single-item write checks before it looks at the table. */
    private static void writeMembers(JsonNode request) {
        Members.of(request).consumedCapacity()
                .oneOf("ReturnItemCollectionMetrics", "returnItemCollectionMetrics", Members.COLLECTION_METRICS)
                .oneOf("ReturnValues", "returnValues", Members.RETURN_VALUES)
                .oneOf("ReturnValuesOnConditionCheckFailure", "returnValuesOnConditionCheckFailure",
                        Members.ON_CONDITION_FAILURE)
                .check();
    }

    private ObjectNode written(JsonNode request, Table table, WriteResult result, Map<String, Value> attributes) {
        ObjectNode response = JsonNodeFactory.instance.objectNode();
        if (attributes != null) {
            response.putPOJO("Attributes", WireItem.of(attributes));
        }
        Consumed consumed = new Consumed(table.name(), false);
        consumed.table(result.tableUnits() == 0 ? 1 : result.tableUnits());
        consumed.indexes(table, result.indexUnits());
        capacity(request, response, consumed);
        collectionMetrics(request, response, table, result);
        return response;
    }

    /** ReturnItemCollectionMetrics=SIZE on a table with a local index: the item collection's size, in GB. */
    static void collectionMetrics(JsonNode request, ObjectNode response, Table table, WriteResult result) {
        if (!"SIZE".equals(Fields.text(request, "ReturnItemCollectionMetrics"))
                || table.spec().indexes().stream().allMatch(index -> index.global())) {
            return;
        }
        StoredItem any = result.after() != null ? result.after() : result.before();
        if (any == null) {
            return;
        }
        String partition = table.spec().key().partition();
        Value pk = any.attributes().get(partition);
        double gigabytes = table.collectionBytes(pk) / (1024.0 * 1024 * 1024);
        ObjectNode metrics = response.putObject("ItemCollectionMetrics");
        metrics.putObject("ItemCollectionKey").set(partition, Wire.json(pk));
        double low = Math.floor(gigabytes);
        metrics.putArray("SizeEstimateRangeGB").add(low).add(low + 1);
    }

    static void capacity(JsonNode request, ObjectNode response, Consumed consumed) {
        String mode = Consumed.mode(request);
        if (!mode.equals("NONE")) {
            response.set("ConsumedCapacity", consumed.json(mode));
        }
    }

    private static Map<String, Value> old(WriteResult result) {
        return result.before() == null ? null : result.before().attributes();
    }

    /** The condition of a write, its placeholders all used. */
    static Condition condition(JsonNode request) {
        Placeholders placeholders = new Placeholders(Fields.names(request), Fields.values(request));
        String text = Fields.text(request, "ConditionExpression");
        Condition condition = text == null ? null : Expressions.condition(text, placeholders);
        placeholders.requireAllUsed();
        return condition;
    }

    static boolean oldOnFailure(JsonNode request) {
        String value = Fields.text(request, "ReturnValuesOnConditionCheckFailure");
        if (value != null && !value.equals("ALL_OLD") && !value.equals("NONE")) {
            throw ApiException.validation("1 validation error detected: Value '" + value + "' at"
                    + " 'returnValuesOnConditionCheckFailure' failed to satisfy constraint: Member must satisfy enum"
                    + " value set: [ALL_OLD, NONE]");
        }
        return "ALL_OLD".equals(value);
    }

    /** Refuses a single write to an item that a transaction in flight is writing, as DynamoDB does. */
    private void notInTransaction(Table table, RowKey key) {
        if (tables.claims().isClaimed(table.name(), key)) {
            throw ApiException.transactionConflict(TransactApi.TRANSACTION_ONGOING);
        }
    }

    /** Refuses the write when its condition fails on the current item, charging the refusal as DynamoDB does. */
    static void check(Condition condition, StoredItem before, boolean oldOnFailure, Throughput throughput, Table table,
                      RowKey key) {
        if (condition != null && !condition.test(before == null ? Map.of() : before.attributes())) {
            throughput.conditionFailed(table, key.partition(), before);
        }
        check(condition, before, oldOnFailure);
    }

    /** Refuses the write when its condition fails on the current item. */
    static void check(Condition condition, StoredItem before, boolean oldOnFailure) {
        if (condition != null && !condition.test(before == null ? Map.of() : before.attributes())) {
            throw ApiException.conditionalCheckFailed(oldOnFailure && before != null ? Wire.json(before.attributes()) : null);
        }
    }

    private static String returnValues(JsonNode request, Set<String> allowed) {
        String value = Fields.text(request, "ReturnValues");
        if (value == null) {
            return "NONE";
        }
        if (!allowed.contains(value)) {
            throw ApiException.validation("Return values set to invalid value");
        }
        return value;
    }
}
