package dev.moviegraph.engine.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.moviegraph.engine.error.ApiException;
import dev.moviegraph.engine.expr.Expressions;
import dev.moviegraph.engine.expr.Placeholders;
import dev.moviegraph.engine.expr.Projection;
import dev.moviegraph.engine.table.Capacity;
import dev.moviegraph.engine.table.RowKey;
import dev.moviegraph.engine.table.StoredItem;
import dev.moviegraph.engine.table.Table;
import dev.moviegraph.engine.table.Tables;
import dev.moviegraph.engine.table.WriteResult;
import dev.moviegraph.engine.value.Value;
import dev.moviegraph.engine.value.Wire;
import dev.moviegraph.engine.value.WireItem;

import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/** BatchGetItem (at most 100 keys, a response of at most 16 MB) and BatchWriteItem (at most 25 writes). */
public final class BatchApi {
    static final int MAX_GET_KEYS = 100;
    static final int MAX_WRITES = 25;
    static final long MAX_GET_BYTES = 16L * 1024 * 1024;

    private final Tables tables;
    private final Throughput throughput;

    public BatchApi(Tables tables, Throughput throughput) {
        this.tables = tables;
        this.throughput = throughput;
    }

    public ObjectNode batchGetItem(JsonNode request) {
        JsonNode requestItems = requestItems(request, "BatchGetItem");
        Members.unnamed(request).consumedCapacity().check();
        int keys = 0;
        Iterator<Map.Entry<String, JsonNode>> sizes = requestItems.fields();
        while (sizes.hasNext()) {
            Map.Entry<String, JsonNode> perTable = sizes.next();
            int asked = perTable.getValue().path("Keys").size();
            keys += asked;
            if (asked == 0) {
                throw ApiException.validation("1 validation error detected: Value at 'requestItems.keys' failed to"
                        + " satisfy constraint: Member must have length greater than or equal to 1");
            }
            if (asked > MAX_GET_KEYS) {
                throw ApiException.validation("1 validation error detected: Value at 'RequestItems." + perTable.getKey()
                        + ".member.Keys' failed to satisfy constraint: Member must have length less than or equal to "
                        + MAX_GET_KEYS);
            }
        }
        if (keys > MAX_GET_KEYS) {
            throw ApiException.validation("Too many items requested for the BatchGetItem call");
        }
        ObjectNode response = JsonNodeFactory.instance.objectNode();
        ObjectNode responses = response.putObject("Responses");
        ObjectNode unprocessed = response.putObject("UnprocessedKeys");
        ArrayNode capacities = JsonNodeFactory.instance.arrayNode();
        String mode = Consumed.mode(request);
        long bytes = 0;
        Iterator<Map.Entry<String, JsonNode>> tablesAsked = requestItems.fields();
        while (tablesAsked.hasNext()) {
            Map.Entry<String, JsonNode> entry = tablesAsked.next();
            Table table = tables.forItems(entry.getKey());
            JsonNode perTable = entry.getValue();
            Placeholders placeholders = new Placeholders(Fields.names(perTable), Map.of());
            String projectionText = Fields.text(perTable, "ProjectionExpression");
            Projection projection = projectionText == null ? null : Expressions.projection(projectionText, placeholders);
            placeholders.requireAllUsed();
            boolean consistent = Fields.bool(perTable, "ConsistentRead");
            ArrayNode found = responses.putArray(table.name());
            Set<RowKey> seen = new HashSet<>();
            Consumed consumed = new Consumed(table.name(), true);
            ArrayNode left = null;
            for (JsonNode keyNode : perTable.get("Keys")) {
                RowKey key = Validation.key(table.spec(), Wire.item(keyNode));
                if (!seen.add(key)) {
                    throw ApiException.validation("Provided list of item keys contains duplicates");
                }
                StoredItem item = table.get(key);
                if (item != null && bytes + item.size() > MAX_GET_BYTES) {
                    if (left == null) {
                        ObjectNode rest = perTable.deepCopy();
                        left = rest.putArray("Keys");
                        unprocessed.set(table.name(), rest);
                    }
                    left.add(keyNode);
                    continue;
                }
                double units = Capacity.read(item == null ? 0 : item.size(), consistent);
                try {
                    throughput.read(table, null, key.partition(), units);
                } catch (ApiException throttled) {
                    if (left == null) {
                        ObjectNode rest = perTable.deepCopy();
                        left = rest.putArray("Keys");
                        unprocessed.set(table.name(), rest);
                    }
                    left.add(keyNode);
                    continue;
                }
                consumed.table(units);
                if (item != null) {
                    bytes += item.size();
                    found.addPOJO(WireItem.of(projection == null ? item.attributes() : projection.apply(item.attributes())));
                }
            }
            capacities.add(consumed.json(mode.equals("NONE") ? "TOTAL" : mode));
        }
        if (!mode.equals("NONE")) {
            response.set("ConsumedCapacity", capacities);
        }
        return response;
    }

    public ObjectNode batchWriteItem(JsonNode request) {
        JsonNode requestItems = requestItems(request, "BatchWriteItem");
        Members.unnamed(request).consumedCapacity()
                .oneOf("ReturnItemCollectionMetrics", "returnItemCollectionMetrics", Members.COLLECTION_METRICS)
                .check();
        int writes = 0;
        for (JsonNode perTable : requestItems) {
            if (!perTable.isArray() || perTable.isEmpty() || perTable.size() > MAX_WRITES) {
                // DynamoDB echoes the whole map, as its own model's text, ahead of the constraint
                throw ApiException.validation("1 validation error detected: Value '" + echo(requestItems)
                        + "' at 'requestItems' failed to satisfy constraint: Map value must satisfy constraint: [Member"
                        + " must have length less than or equal to 25, Member must have length greater than or equal"
                        + " to 1]");
            }
            writes += perTable.size();
        }
        if (writes > MAX_WRITES) {
            throw ApiException.validation("Too many items requested for the BatchWriteItem call");
        }
        // Validate every request before writing any, as DynamoDB does.
        Map<String, Table> byName = new LinkedHashMap<>();
        Iterator<Map.Entry<String, JsonNode>> names = requestItems.fields();
        while (names.hasNext()) {
            Map.Entry<String, JsonNode> entry = names.next();
            Table table = tables.forItems(entry.getKey());
            byName.put(entry.getKey(), table);
            Set<RowKey> seen = new HashSet<>();
            for (JsonNode write : entry.getValue()) {
                RowKey key = write.has("PutRequest")
                        ? Validation.item(table.spec(), Wire.item(write.get("PutRequest").get("Item")))
                        : write.has("DeleteRequest")
                        ? Validation.key(table.spec(), Wire.item(write.get("DeleteRequest").get("Key")))
                        : null;
                if (key == null) {
                    throw ApiException.validation("Supplied AttributeValue has more than one datatypes set, must contain"
                            + " exactly one of the supported datatypes");
                }
                if (!seen.add(key)) {
                    throw ApiException.validation("Provided list of item keys contains duplicates");
                }
            }
        }
        ObjectNode response = JsonNodeFactory.instance.objectNode();
        ObjectNode unprocessed = response.putObject("UnprocessedItems");
        ArrayNode capacities = JsonNodeFactory.instance.arrayNode();
        String mode = Consumed.mode(request);
        int refused = 0;
        for (Map.Entry<String, Table> entry : byName.entrySet()) {
            Table table = entry.getValue();
            Consumed consumed = new Consumed(table.name(), false);
            for (JsonNode write : requestItems.get(entry.getKey())) {
                WriteResult result;
                try {
                    if (write.has("PutRequest")) {
                        Map<String, Value> item = Wire.item(write.get("PutRequest").get("Item"));
                        StoredItem stored = StoredItem.of(item);
                        RowKey key = table.keyOf(item);
                        result = table.write(key, before -> {
                            throughput.write(table, key.partition(), before, stored);
                            return stored;
                        });
                    } else {
                        RowKey key = table.keyOf(Wire.item(write.get("DeleteRequest").get("Key")));
                        result = table.write(key, before -> {
                            throughput.write(table, key.partition(), before, null);
                            return null;
                        });
                    }
                } catch (ApiException throttled) {
                    refused++;
                    ((ArrayNode) unprocessed.withArray(table.name())).add(write);
                    continue;
                }
                consumed.table(result.tableUnits() == 0 ? 1 : result.tableUnits());
                consumed.indexes(table, result.indexUnits());
            }
            capacities.add(consumed.json(mode.equals("NONE") ? "TOTAL" : mode));
        }
        if (refused == writes && writes > 0) {
            throw ApiException.throughputExceeded("The level of configured provisioned throughput for the table was"
                    + " exceeded. Consider increasing your provisioning level with the UpdateTable API.");
        }
        if (!mode.equals("NONE")) {
            response.set("ConsumedCapacity", capacities);
        }
        return response;
    }

    private static JsonNode requestItems(JsonNode request, String operation) {
        JsonNode items = request.get("RequestItems");
        if (items == null || items.isNull()) {
            throw ApiException.validation("1 validation error detected: Value null at 'requestItems' failed to satisfy"
                    + " constraint: Member must not be null");
        }
        if (!items.isObject()) {
            throw ApiException.serialization("Unexpected value type in payload");
        }
        if (items.isEmpty()) {
            throw ApiException.validation("The requestItems parameter is required for " + operation);
        }
        return items;
    }

    /** The request map as DynamoDB echoes it in a constraint message: {table=[request, ...], ...}. */
    private static String echo(JsonNode requestItems) {
        StringBuilder text = new StringBuilder("{");
        requestItems.fields().forEachRemaining(entry -> {
            text.append(text.length() == 1 ? "" : ", ").append(entry.getKey()).append("=[");
            int i = 0;
            for (JsonNode write : entry.getValue()) {
                text.append(i++ == 0 ? "" : ", ").append(write);
            }
            text.append(']');
        });
        return text.append('}').toString();
    }
}
