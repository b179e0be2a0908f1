package dev.moviegraph.engine.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
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
import dev.moviegraph.engine.table.Tables;
import dev.moviegraph.engine.table.TransactionClaims;
import dev.moviegraph.engine.table.WriteResult;
import dev.moviegraph.engine.value.Sizes;
import dev.moviegraph.engine.value.Value;
import dev.moviegraph.engine.value.Wire;
import dev.moviegraph.engine.value.WireItem;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.UnaryOperator;

/**
 * TransactWriteItems and TransactGetItems: all items' locks taken in one global order, every condition
 * checked, then every write applied, so a transaction is all or nothing and serializable against single
 * writes, which take the same locks.
 */
public final class TransactApi {
    static final int MAX_ACTIONS = 100;
    static final long MAX_BYTES = 4L * 1024 * 1024;
    /** DynamoDB's words for an item another transaction is writing. */
    static final String TRANSACTION_ONGOING = "Transaction is ongoing for the item";

    private final Tables tables;
    private final Throughput throughput;
    private final IdempotencyTokens tokens = new IdempotencyTokens(Duration.ofMinutes(10));
    /** Runs a transaction's writes as one unit of the journal: a crash replays all of them or none. */
    private final java.util.function.Consumer<Runnable> atomically;

    public TransactApi(Tables tables, Throughput throughput, java.util.function.Consumer<Runnable> atomically) {
        this.tables = tables;
        this.throughput = throughput;
        this.atomically = atomically;
    }

    /** One action of a transaction, parsed and validated before anything is locked. */
    private record Action(String kind, Table table, RowKey key, Map<String, Value> keyAttributes, Condition condition,
                          boolean oldOnFailure, Map<String, Value> item, Update update) {
    }

    public ObjectNode transactWriteItems(JsonNode request) {
        JsonNode items = request.get("TransactItems");
        transactItems(items);
        if (items.size() > MAX_ACTIONS) {
            throw ApiException.validation("1 validation error detected: Value '[...]' at 'transactItems' failed to"
                    + " satisfy constraint: Member must have length less than or equal to " + MAX_ACTIONS);
        }
        String token = Fields.text(request, "ClientRequestToken");
        if (token != null) {
            ObjectNode earlier = tokens.answered(token, request);
            if (earlier != null) {
                return earlier;
            }
        }
        List<Action> actions = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        long bytes = 0;
        for (JsonNode node : items) {
            Action action = parse(node);
            if (!seen.add(action.table().name() + "\u0000" + action.key())) {
                throw ApiException.validation("Transaction request cannot include multiple operations on one item");
            }
            bytes += action.item() == null ? Sizes.item(action.keyAttributes()) : Sizes.item(action.item());
            actions.add(action);
        }
        if (bytes > MAX_BYTES) {
            throw ApiException.validation("Transaction size has exceeded the maximum allowed size of 4 MB");
        }
        List<TransactionClaims.Item> claimed = actions.stream()
                .map(action -> new TransactionClaims.Item(action.table().name(), action.key())).toList();
        Object owner = new Object();
        int conflict = tables.claims().claimAll(claimed, owner);
        if (conflict >= 0) {
            throw conflicted(actions.size(), conflict);
        }
        Map<String, Consumed> consumed = new LinkedHashMap<>();
        try {
            commit(actions, consumed);
        } finally {
            tables.claims().releaseAll(claimed, owner);
        }
        ObjectNode response = JsonNodeFactory.instance.objectNode();
        String mode = Consumed.mode(request);
        if (!mode.equals("NONE")) {
            ArrayNode list = response.putArray("ConsumedCapacity");
            consumed.values().forEach(perTable -> {
                perTable.scale(2);
                list.add(perTable.json(mode));
            });
        }
        if (token != null) {
            tokens.remember(token, request, response);
        }
        return response;
    }

    /** Checks every condition under the items' locks, then writes all or nothing. */
    private void commit(List<Action> actions, Map<String, Consumed> consumed) {
        List<ReentrantLock> held = tables.locks().lockAll(
                actions.stream().map(action -> action.table().name()).toList(),
                actions.stream().map(Action::key).toList());
        try {
            List<Map<String, Object>> reasons = new ArrayList<>();
            List<UnaryOperator<StoredItem>> changes = new ArrayList<>();
            boolean cancelled = false;
            for (Action action : actions) {
                StoredItem before = action.table().get(action.key());
                Map<String, Object> reason = new LinkedHashMap<>();
                try {
                    ItemApi.check(action.condition(), before, action.oldOnFailure(), throughput, action.table(),
                            action.key());
                    UnaryOperator<StoredItem> change = change(action, before);
                    // a condition check is charged as a write of the item it reads (before to itself)
                    throughput.write(action.table(), action.key().partition(), before, change.apply(before));
                    changes.add(change);
                    reason.put("Code", "None");
                } catch (ApiException refused) {
                    cancelled = true;
                    changes.add(null);
                    reason.put("Code", code(refused));
                    if (!code(refused).equals("None")) {
                        reason.put("Message", refused.getMessage());
                    }
                    Object item = refused.extra().get("Item");
                    if (item != null) {
                        reason.put("Item", item);
                    }
                }
                reasons.add(reason);
            }
            if (cancelled) {
                throw ApiException.transactionCanceled(reasons);
            }
            atomically.accept(() -> {
                for (int i = 0; i < actions.size(); i++) {
                    Action action = actions.get(i);
                    Consumed perTable = consumed.computeIfAbsent(action.table().name(), name -> Consumed.ofTransaction(name, false));
                    if (action.kind().equals("ConditionCheck")) {
                        perTable.table(Capacity.write(0));
                        continue;
                    }
                    WriteResult result = action.table().writeLocked(action.key(), changes.get(i), false);
                    perTable.table(result.tableUnits() == 0 ? 1 : result.tableUnits());
                    perTable.indexes(action.table(), result.indexUnits());
                }
            });
        } finally {
            held.forEach(ReentrantLock::unlock);
        }
    }

    /** The cancellation of a transaction that met another in flight on the item at {@code at}. */
    private static ApiException conflicted(int actions, int at) {
        List<Map<String, Object>> reasons = new ArrayList<>();
        for (int i = 0; i < actions; i++) {
            Map<String, Object> reason = new LinkedHashMap<>();
            reason.put("Code", i == at ? "TransactionConflict" : "None");
            if (i == at) {
                reason.put("Message", TRANSACTION_ONGOING);
            }
            reasons.add(reason);
        }
        return ApiException.transactionCanceled(reasons);
    }

    private static String code(ApiException refused) {
        String type = refused.type();
        String name = type.substring(type.indexOf('#') + 1);
        return switch (name) {
            case "ConditionalCheckFailedException" -> "ConditionalCheckFailed";
            case "ProvisionedThroughputExceededException" -> "ProvisionedThroughputExceeded";
            case "ThrottlingException" -> "ThrottlingError";
            case "TransactionConflictException" -> "TransactionConflict";
            default -> "ValidationError";
        };
    }

    /** What the action writes, computed against the item as it is under the lock; validation errors cancel. */
    private static UnaryOperator<StoredItem> change(Action action, StoredItem before) {
        return switch (action.kind()) {
            case "Put" -> {
                StoredItem stored = StoredItem.of(action.item());
                yield current -> stored;
            }
            case "Delete" -> current -> null;
            case "Update" -> {
                Map<String, Value> base = before == null ? action.keyAttributes() : before.attributes();
                Map<String, Value> after = action.update() == null ? new LinkedHashMap<>(base) : action.update().apply(base);
                StoredItem stored = Validation.updated(action.table().spec(), after);
                yield current -> stored;
            }
            default -> current -> current;
        };
    }

    private Action parse(JsonNode node) {
        if (node.size() != 1) {
            throw ApiException.validation("TransactItems can only contain one of Check, Put, Update or Delete");
        }
        String kind = node.fieldNames().next();
        JsonNode body = node.get(kind);
        Table table = tables.forItems(Fields.text(body, "TableName"));
        Placeholders placeholders = new Placeholders(Fields.names(body), Fields.values(body));
        String conditionText = Fields.text(body, "ConditionExpression");
        Condition condition = conditionText == null ? null : Expressions.condition(conditionText, placeholders);
        boolean oldOnFailure = ItemApi.oldOnFailure(body);
        switch (kind) {
            case "Put" -> {
                Map<String, Value> item = Wire.item(body.get("Item"));
                RowKey key = Validation.item(table.spec(), item);
                placeholders.requireAllUsed();
                return new Action(kind, table, key, table.spec().key().keyAttributes(item), condition, oldOnFailure, item, null);
            }
            case "Delete", "ConditionCheck", "Update" -> {
                Map<String, Value> keyAttributes = Wire.item(body.get("Key"));
                RowKey key = Validation.key(table.spec(), keyAttributes);
                Update update = null;
                if (kind.equals("Update")) {
                    String updateText = Fields.required(body, "UpdateExpression", "transactItems.update.updateExpression");
                    update = Expressions.update(updateText, placeholders);
                    for (String name : update.topLevelNames()) {
                        if (table.spec().key().isKey(name)) {
                            throw ApiException.validation("One or more parameter values were invalid: Cannot update"
                                    + " attribute " + name + ". This attribute is part of the key");
                        }
                    }
                }
                if (kind.equals("ConditionCheck") && condition == null) {
                    throw ApiException.validation("1 validation error detected: Value null at"
                            + " 'transactItems.conditionCheck.conditionExpression' failed to satisfy constraint: Member"
                            + " must not be null");
                }
                placeholders.requireAllUsed();
                return new Action(kind, table, key, keyAttributes, condition, oldOnFailure, null, update);
            }
            default -> throw ApiException.validation("TransactItems can only contain one of Check, Put, Update or Delete");
        }
    }

    private static ApiException cancelledByValidation(int actions, int at, String message) {
        List<Map<String, Object>> reasons = new ArrayList<>();
        for (int i = 0; i < actions; i++) {
            Map<String, Object> reason = new LinkedHashMap<>();
            reason.put("Code", i == at ? "ValidationError" : "None");
            if (i == at) {
                reason.put("Message", message);
            }
            reasons.add(reason);
        }
        return ApiException.transactionCanceled(reasons);
    }

    /** TransactItems present, a list, and not empty, with DynamoDB's messages. */
    private static void transactItems(JsonNode items) {
        if (items == null || items.isNull()) {
            throw ApiException.validation("1 validation error detected: Value null at 'transactItems' failed to satisfy"
                    + " constraint: Member must not be null");
        }
        if (!items.isArray()) {
            throw ApiException.serialization("Unexpected value type in payload");
        }
        if (items.isEmpty()) {
            throw ApiException.validation("1 validation error detected: Value '[]' at 'transactItems' failed to satisfy"
                    + " constraint: Member must have length greater than or equal to 1");
        }
    }

    public ObjectNode transactGetItems(JsonNode request) {
        JsonNode items = request.get("TransactItems");
        transactItems(items);
        if (items.size() > MAX_ACTIONS) {
            throw ApiException.validation("1 validation error detected: Value '[...]' at 'transactItems' failed to"
                    + " satisfy constraint: Member must have length less than or equal to " + MAX_ACTIONS);
        }
        List<Table> owners = new ArrayList<>();
        List<RowKey> keys = new ArrayList<>();
        List<Projection> projections = new ArrayList<>();
        for (JsonNode node : items) {
            JsonNode get = node.get("Get");
            if (get == null) {
                throw ApiException.validation("TransactGetItems can only contain Get actions");
            }
            Table table = tables.forItems(Fields.text(get, "TableName"));
            Placeholders placeholders = new Placeholders(Fields.names(get), Map.of());
            String projectionText = Fields.text(get, "ProjectionExpression");
            projections.add(projectionText == null ? null : Expressions.projection(projectionText, placeholders));
            placeholders.requireAllUsed();
            RowKey key;
            try {
                key = Validation.key(table.spec(), Wire.item(get.get("Key")));
            } catch (ApiException invalid) {
                // a Get whose key does not fit its table cancels the transaction, with the reason at its place
                throw cancelledByValidation(items.size(), keys.size(), invalid.getMessage());
            }
            for (int i = 0; i < keys.size(); i++) {
                if (owners.get(i) == table && keys.get(i).equals(key)) {
                    throw ApiException.validation("Transaction request cannot include multiple operations on one item");
                }
            }
            owners.add(table);
            keys.add(key);
        }
        List<TransactionClaims.Item> asked = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            asked.add(new TransactionClaims.Item(owners.get(i).name(), keys.get(i)));
        }
        int conflict = tables.claims().firstClaimed(asked);
        if (conflict >= 0) {
            throw conflicted(keys.size(), conflict);
        }
        List<ReentrantLock> held = tables.locks().lockAll(owners.stream().map(Table::name).toList(), keys);
        ObjectNode response = JsonNodeFactory.instance.objectNode();
        ArrayNode responses = response.putArray("Responses");
        Map<String, Consumed> consumed = new LinkedHashMap<>();
        try {
            for (int i = 0; i < keys.size(); i++) {
                StoredItem item = owners.get(i).get(keys.get(i));
                ObjectNode entry = responses.addObject();
                if (item != null) {
                    Projection projection = projections.get(i);
                    entry.putPOJO("Item", WireItem.of(projection == null ? item.attributes() : projection.apply(item.attributes())));
                }
                consumed.computeIfAbsent(owners.get(i).name(), name -> Consumed.ofTransaction(name, true))
                        .table(2 * Capacity.read(item == null ? 0 : item.size(), true));
            }
        } finally {
            held.forEach(ReentrantLock::unlock);
        }
        String mode = Consumed.mode(request);
        if (!mode.equals("NONE")) {
            ArrayNode list = response.putArray("ConsumedCapacity");
            consumed.values().forEach(perTable -> list.add(perTable.json(mode)));
        }
        return response;
    }
}
