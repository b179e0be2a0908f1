package dev.moviegraph.dynamo.write;

import static dev.moviegraph.dynamo.write.TableWrites.EXISTS;
import static dev.moviegraph.dynamo.write.TableWrites.failedCondition;
import static dev.moviegraph.dynamo.write.TableWrites.number;
import static dev.moviegraph.dynamo.write.TableWrites.s;

import dev.moviegraph.catalog.CallContext;
import dev.moviegraph.catalog.ItemRef;
import dev.moviegraph.catalog.NotFoundException;
import dev.moviegraph.catalog.Part;
import dev.moviegraph.catalog.Records;
import dev.moviegraph.dynamo.model.Condition;
import dev.moviegraph.dynamo.model.Entity;
import dev.moviegraph.dynamo.model.Expression;
import dev.moviegraph.dynamo.model.ItemCollection;
import dev.moviegraph.dynamo.model.ItemUpdate;
import dev.moviegraph.dynamo.model.TableModel;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.Delete;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.Update;

/**
 * Entries of a private collection's counted list (a watchlist, say): each added or removed in one
 * transaction with its owner item's count of the list.
 */
final class ListEntryWrites {
    private final String table;
    private final TableWrites writes;

    ListEntryWrites(String table, TableWrites writes) {
        this.table = table;
        this.writes = writes;
    }

    CompletableFuture<Record> addEntry(Part part, String ownerId, Record entry, ItemRef<?> mustExist,
                                       CallContext context) {
        ItemCollection collection = ItemCollection.of(part.collection());
        ItemCollection.EntryWrite write = collection.entryWrite(part, true);
        Map<String, AttributeValue> item = encode(write.entity(), entry);
        Map<String, AttributeValue> key = TableModel.keyOf(item);
        return writes.optimistically(() -> {
            List<TransactWriteItem> items = new ArrayList<>();
            if (mustExist != null) {
                items.add(writes.check(TableModel.key(mustExist), EXISTS));
            }
            int putAt = items.size();
            Expression isNew = Expression.of(Condition.notExists(TableModel.PK));
            items.add(TransactWriteItem.builder().put(Put.builder().tableName(table).item(item)
                    .conditionExpression(isNew.condition()).expressionAttributeNames(isNew.names())
                    // an entry already there comes back in the cancellation: its addedAt without another read
                    .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
                    .build()).build());
            items.add(ownerCount(collection, write, ownerId, 1, null));
            try {
                writes.transact(context, write, items);
                return entry;
            } catch (TransactionCanceledException e) {
                if (mustExist != null && failedCondition(e, 0)) {
                    throw new NotFoundException("There is no " + TableModel.entityFor(mustExist.type()).type() + " "
                            + keyText(mustExist));
                }
                if (failedCondition(e, putAt)) {
                    CancellationReason reason = e.cancellationReasons().get(putAt);
                    Map<String, AttributeValue> stored = reason.hasItem() && !reason.item().isEmpty() ? reason.item()
                            : writes.getConsistent(context, key);
                    if (stored != null) {
                        return write.entity().decode(stored);
                    }
                }
                throw e; // removed meanwhile, or a conflict: tried again
            }
        });
    }

    CompletableFuture<Boolean> removeEntry(Part part, String ownerId, Record entry, CallContext context) {
        ItemCollection collection = ItemCollection.of(part.collection());
        ItemCollection.EntryWrite write = collection.entryWrite(part, false);
        Map<String, AttributeValue> key = write.entity().keyFromFields(Records.components(entry));
        return writes.optimistically(() -> {
            // No read first: the delete's condition says whether it was there, the count follows in the same transaction.
            Expression there = Expression.of(EXISTS.and(Condition.equal(TableModel.TYPE, s(write.entity().type()))));
            List<TransactWriteItem> items = List.of(
                    TransactWriteItem.builder().delete(Delete.builder().tableName(table).key(key)
                            .conditionExpression(there.condition()).expressionAttributeNames(there.names())
                            .expressionAttributeValues(there.values()).build()).build(),
                    ownerCount(collection, write, ownerId, -1, EXISTS));
            try {
                writes.transact(context, write, items);
                return true;
            } catch (TransactionCanceledException e) {
                if (failedCondition(e, 0)) {
                    return false;
                }
                throw e;
            }
        });
    }

    /** The owner item's count of the list moved by {@code delta}; adding also creates the owner item (its first entry). */
    private TransactWriteItem ownerCount(ItemCollection collection, ItemCollection.EntryWrite write, String ownerId,
                                         int delta, Condition condition) {
        ItemUpdate update = (delta > 0 ? collection.ownerCreation(ownerId) : ItemUpdate.create())
                .add(write.segment().countAttribute(), number(delta));
        Expression expression = Expression.of(update, condition);
        return TransactWriteItem.builder().update(Update.builder().tableName(table).key(collection.ownerKey(ownerId))
                .updateExpression(expression.update()).conditionExpression(expression.condition())
                .expressionAttributeNames(expression.names()).expressionAttributeValues(expression.values())
                .build()).build();
    }

    @SuppressWarnings("unchecked")
    private static <T extends Record> Map<String, AttributeValue> encode(Entity<?> entity, T record) {
        return ((Entity<T>) entity).encode(record);
    }

    /** The key values of a reference as text, for a message ({@code tt0111161}). */
    private static String keyText(ItemRef<?> ref) {
        return Records.components((Record) ref).values().stream().map(Entity::encodeValue)
                .map(value -> value == null ? "" : value.s() != null ? value.s() : value.n())
                .collect(java.util.stream.Collectors.joining(" "));
    }
}
