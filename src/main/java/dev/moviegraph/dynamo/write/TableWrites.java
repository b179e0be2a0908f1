package dev.moviegraph.dynamo.write;

import dev.moviegraph.catalog.CallContext;
import dev.moviegraph.catalog.StoreUnavailableException;
import dev.moviegraph.dynamo.client.Call;
import dev.moviegraph.dynamo.client.StoreFailures;
import dev.moviegraph.dynamo.model.Access;
import dev.moviegraph.dynamo.model.Condition;
import dev.moviegraph.dynamo.model.Expression;
import dev.moviegraph.dynamo.model.ItemUpdate;
import dev.moviegraph.dynamo.model.TableModel;
import dev.moviegraph.dynamo.read.ItemWeights;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.function.Supplier;

import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.ConditionCheck;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.Update;

/**
 * What the write classes share over the single table: consistent reads, the transaction items they write
 * (puts, condition checks, counts), the optimistic version conditions, and the retry of a read-then-write
 * on the write threads while a condition fails because something moved.
 */
final class TableWrites {
    static final int MAX_TRANSACTION_ITEMS = 100;
    private static final int MAX_ATTEMPTS = 6;

    private final DynamoDbAsyncClient client;
    private final String table;
    private final ExecutorService executor;
    private final ItemWeights weights;

    TableWrites(DynamoDbAsyncClient client, String table, ExecutorService executor, ItemWeights weights) {
        this.client = client;
        this.table = table;
        this.executor = executor;
        this.weights = weights;
    }

    /** The item exists: a count is never added to an item that is not there. */
    static final Condition EXISTS = Condition.exists(TableModel.PK);
    static final Expression EXISTS_EXPRESSION = Expression.of(EXISTS);

    /** Runs a read-then-write on the write threads, again while a condition fails because something moved. */
    <T> CompletableFuture<T> optimistically(Supplier<T> attempt) {
        // SDK failures become the catalog's only here, after the conditions above were handled.
        return StoreFailures.translated(CompletableFuture.supplyAsync(() -> {
            for (int i = 1; ; i++) {
                try {
                    return attempt.get();
                } catch (TransactionCanceledException e) {
                    if (e.cancellationReasons().stream().anyMatch(reason -> "ThrottlingError".equals(reason.code()))) {
                        // a partition of the table or of an index was past its limit: the write was not made
                        throw new StoreUnavailableException(StoreUnavailableException.Reason.THROTTLED,
                                "DynamoDB throttled the write", e);
                    }
                    if (i >= MAX_ATTEMPTS || e.cancellationReasons().stream().noneMatch(TableWrites::conflict)) {
                        throw new StoreUnavailableException("The write kept conflicting with other writes; try again");
                    }
                }
            }
        }, executor));
    }

    static boolean failedCondition(TransactionCanceledException e, int index) {
        return e.hasCancellationReasons() && e.cancellationReasons().size() > index
                && "ConditionalCheckFailed".equals(e.cancellationReasons().get(index).code());
    }

    Map<String, AttributeValue> getConsistent(CallContext context, Map<String, AttributeValue> key) {
        return getItem(context, key, true);
    }

    Map<String, AttributeValue> getItem(CallContext context, Map<String, AttributeValue> key, boolean consistent) {
        Call call = Call.byKey(context, Access.GET_ITEM, 1);
        GetItemRequest request = GetItemRequest.builder().tableName(table).key(key).consistentRead(consistent)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL).overrideConfiguration(call.override()).build();
        return call.reportWhenDone(client.getItem(request).thenApply(response -> {
            call.page(response.hasItem() ? 1 : 0, Collections.singletonList(response.consumedCapacity()));
            return response.hasItem() && !response.item().isEmpty() ? response.item() : null;
        })).join();
    }

    void transact(CallContext context, dev.moviegraph.dynamo.model.CallPattern access, List<TransactWriteItem> items) {
        ConditionalWrites.transact(client, context, access, items);
    }

    TransactWriteItem put(Map<String, AttributeValue> item, Condition condition) {
        weights.observe(List.of(item)).join();
        Expression expression = Expression.of(condition);
        return TransactWriteItem.builder().put(Put.builder().tableName(table).item(item)
                .conditionExpression(expression.condition())
                .expressionAttributeNames(expression.names())
                .expressionAttributeValues(expression.values())
                .build()).build();
    }

    TransactWriteItem check(Map<String, AttributeValue> key, Condition condition) {
        Expression expression = Expression.of(condition);
        return TransactWriteItem.builder().conditionCheck(ConditionCheck.builder().tableName(table).key(key)
                .conditionExpression(expression.condition())
                .expressionAttributeNames(expression.names())
                .expressionAttributeValues(expression.values())
                .build()).build();
    }

    /** Adds to counters of an item, on condition. */
    TransactWriteItem count(Map<String, AttributeValue> key, Map<String, Integer> deltas, Condition condition) {
        ItemUpdate adds = ItemUpdate.create();
        for (Map.Entry<String, Integer> delta : deltas.entrySet()) {
            adds = adds.add(delta.getKey(), number(delta.getValue()));
        }
        Expression expression = Expression.of(adds, condition);
        return TransactWriteItem.builder().update(Update.builder().tableName(table).key(key)
                .updateExpression(expression.update()).conditionExpression(expression.condition())
                .expressionAttributeNames(expression.names()).expressionAttributeValues(expression.values()).build()).build();
    }

    /** Deletes the item at {@code key} if it is of {@code type}; whether there was one. */
    CompletableFuture<Boolean> deleteOfType(CallContext context, Access access, Map<String, AttributeValue> key,
                                           String type) {
        return StoreFailures.translated(CompletableFuture.supplyAsync(() -> {
            Call call = Call.byKey(context, access, 1);
            Expression ofType = Expression.of(Condition.notExists(TableModel.PK).or(Condition.equal(TableModel.TYPE, s(type))));
            DeleteItemRequest request = DeleteItemRequest.builder().tableName(table)
                    .key(key)
                    // only an item of that type: never delete something else that might share the key
                    .conditionExpression(ofType.condition())
                    .expressionAttributeNames(ofType.names())
                    .expressionAttributeValues(ofType.values())
                    .returnValues(ReturnValue.ALL_OLD)
                    .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                    .overrideConfiguration(call.override())
                    .build();
            return call.reportWhenDone(client.deleteItem(request).thenApply(response -> {
                call.page(response.hasAttributes() ? 1 : 0, Collections.singletonList(response.consumedCapacity()));
                return response.hasAttributes() && !response.attributes().isEmpty();
            })).join();
        }, executor));
    }

    /** The optimistic version of a movie or person item; items written before versions existed are 0. */
    static long version(Map<String, AttributeValue> item) {
        AttributeValue version = item == null ? null : item.get(TableModel.VERSION);
        return version == null ? 0 : Long.parseLong(version.n());
    }

    /** A write on condition that the item is still the one read: absent, unversioned, or at its version. */
    static Condition versionCondition(Map<String, AttributeValue> current) {
        if (current == null) {
            return Condition.notExists(TableModel.PK);
        }
        long version = version(current);
        if (version == 0) {
            return EXISTS.and(Condition.notExists(TableModel.VERSION));
        }
        return Condition.equal(TableModel.VERSION, number(version));
    }

    static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }

    static AttributeValue number(long value) {
        return AttributeValue.fromN(Long.toString(value));
    }

    /** A cancellation that a fresh read can get past: something changed, or another transaction was on it. */
    private static boolean conflict(CancellationReason reason) {
        return "ConditionalCheckFailed".equals(reason.code()) || "TransactionConflict".equals(reason.code());
    }
}
