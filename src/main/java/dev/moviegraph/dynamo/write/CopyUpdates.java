package dev.moviegraph.dynamo.write;

import static dev.moviegraph.dynamo.write.TableWrites.EXISTS;
import static dev.moviegraph.dynamo.write.TableWrites.MAX_TRANSACTION_ITEMS;
import static dev.moviegraph.dynamo.write.TableWrites.number;
import static dev.moviegraph.dynamo.write.TableWrites.s;

import dev.moviegraph.catalog.CallContext;
import dev.moviegraph.catalog.Movie;
import dev.moviegraph.catalog.Person;
import dev.moviegraph.dynamo.client.Queries;
import dev.moviegraph.dynamo.model.Access;
import dev.moviegraph.dynamo.model.Condition;
import dev.moviegraph.dynamo.model.Entity;
import dev.moviegraph.dynamo.model.Expression;
import dev.moviegraph.dynamo.model.ItemUpdate;
import dev.moviegraph.dynamo.model.MovieCopyRanges;
import dev.moviegraph.dynamo.model.TableModel;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.Update;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * Keeps the copies of a movie's or a person's attributes in other items true: finds the items that copy
 * what changed, and updates them in the transaction of the write (up to 99) and in further updates beyond
 * it, each of which only ever moves a copy to a newer version.
 */
final class CopyUpdates {
    private final DynamoDbAsyncClient client;
    private final String table;
    private final TableWrites writes;

    CopyUpdates(DynamoDbAsyncClient client, String table, TableWrites writes) {
        this.client = client;
        this.table = table;
        this.writes = writes;
    }

    List<TransactWriteItem> personCopies(CallContext context, Person person, long version, boolean onlyOlder) {
        Map<String, Object> owner = Map.of("personId", person.id());
        QueryRequest query = Access.PERSON_PARTITION.query(table, owner).build();
        Map<String, Object> values = TableModel.PERSON.values(person);
        List<TransactWriteItem> copies = new ArrayList<>();
        for (Map<String, AttributeValue> item : Queries.all(client, context, Access.PERSON_PARTITION, query).join()) {
            if (onlyOlder && copiedVersion(item, TableModel.PERSON) >= version) {
                continue;
            }
            copyUpdate(item, TableModel.PERSON, values, version).ifPresent(copies::add);
        }
        return copies;
    }

    /**
     * What putMovie updates or replaces in the movie's collection, read consistently: one Query per range
     * of {@link MovieCopyRanges#of}, for the attributes that change from {@code current} (all of
     * them for a new movie). The totals are read only when their copy of the title changes.
     */
    List<Map<String, AttributeValue>> copiesOf(CallContext context, Map<String, AttributeValue> current, Movie movie) {
        Map<String, Object> now = TableModel.MOVIE.values(movie);
        Map<String, Object> before = current == null || current.isEmpty() ? Map.of()
                : TableModel.MOVIE.values(TableModel.MOVIE.decode(current));
        Set<String> changed = new HashSet<>();
        now.forEach((attribute, value) -> {
            if (before.isEmpty() || !Objects.equals(value, before.get(attribute))) {
                changed.add(attribute);
            }
        });
        List<CompletableFuture<List<Map<String, AttributeValue>>>> reads = new ArrayList<>();
        for (MovieCopyRanges.SortKeyRange range : MovieCopyRanges.of(changed)) {
            QueryRequest query = Access.MOVIE_COPIES.query(table, Map.of("movieId", movie.id())).build();
            Map<String, AttributeValue> values = new HashMap<>(query.expressionAttributeValues());
            values.put(":from", s(range.from()));
            values.put(":to", s(range.to()));
            reads.add(Queries.all(client, context, Access.MOVIE_COPIES,
                    query.toBuilder().expressionAttributeValues(values).consistentRead(true).build()));
        }
        return reads.stream().flatMap(read -> read.join().stream()).toList();
    }

    void transactInChunks(CallContext context, Access access, TransactWriteItem first,
                          List<TransactWriteItem> copies) {
        List<TransactWriteItem> together = new ArrayList<>();
        together.add(first);
        together.addAll(copies.subList(0, Math.min(copies.size(), MAX_TRANSACTION_ITEMS - 1)));
        writes.transact(context, access, together);
        for (TransactWriteItem rest : copies.subList(Math.min(copies.size(), MAX_TRANSACTION_ITEMS - 1), copies.size())) {
            updateIfNewer(context, access, rest.update());
        }
    }

    /** A copy beyond the first transaction: written unless it is gone or already newer. */
    void updateIfNewer(CallContext context, Access access, Update update) {
        ConditionalWrites.updateIf(client, context, access, UpdateItemRequest.builder().tableName(table).key(update.key())
                .updateExpression(update.updateExpression()).conditionExpression(update.conditionExpression())
                .expressionAttributeNames(update.expressionAttributeNames())
                .expressionAttributeValues(update.expressionAttributeValues()));
    }

    /**
     * The update that makes {@code item}'s copies of {@code source} equal to {@code values} at
     * {@code version}: the copied attributes, and the keys built from them (a credit's GSI3 sort key holds
     * the movie's year and title), set or removed; empty when the item copies nothing of {@code source}.
     * Written only if the item still exists and its copy is older, so a late write never goes back.
     */
    Optional<TransactWriteItem> copyUpdate(Map<String, AttributeValue> item, Entity<?> source,
                                           Map<String, Object> values, long version) {
        Optional<Entity<?>> known = TableModel.entityOf(item);
        if (known.isEmpty()) {
            return Optional.empty(); // a newer version's item: it keeps its own copies
        }
        Entity<?> entity = known.get();
        Optional<Entity.Copy> found = entity.copies().stream().filter(copy -> copy.source() == source).findFirst();
        if (found.isEmpty()) {
            return Optional.empty();
        }
        Entity.Copy copy = found.get();
        Map<String, Object> updated = new HashMap<>(decodedValues(entity, item));
        copy.attributes().forEach((copied, original) -> updated.put(copied, values.get(original)));
        Map<String, AttributeValue> set = new LinkedHashMap<>();
        List<String> removed = new ArrayList<>();
        for (String attribute : copy.attributes().keySet()) {
            AttributeValue value = Entity.encodeValue(updated.get(attribute));
            if (value == null) {
                removed.add(attribute);
            } else {
                set.put(attribute, value);
            }
        }
        for (String key : entity.keysReading(copy.attributes().keySet())) {
            set.put(key, s(entity.template(key).render(updated)));
        }
        set.put(copy.versionAttribute(), number(version));
        ItemUpdate update = ItemUpdate.create().set(set);
        for (String attribute : removed) {
            update = update.remove(attribute);
        }
        Expression expression = Expression.of(update, EXISTS.and(Condition.notExists(copy.versionAttribute())
                .or(Condition.compare(copy.versionAttribute(), "<", number(version)))));
        return Optional.of(TransactWriteItem.builder().update(Update.builder().tableName(table)
                .key(TableModel.keyOf(item))
                .updateExpression(expression.update())
                .conditionExpression(expression.condition())
                .expressionAttributeNames(expression.names())
                .expressionAttributeValues(expression.values())
                .build()).build());
    }

    @SuppressWarnings("unchecked")
    private static <T extends Record> Map<String, Object> decodedValues(Entity<T> entity, Map<String, AttributeValue> item) {
        return entity.values(entity.decode(item));
    }

    /** The version of {@code source} an item's copy of it was written at; 0 when it has none. */
    private static long copiedVersion(Map<String, AttributeValue> item, Entity<?> source) {
        return TableModel.entityOf(item).stream().flatMap(entity -> entity.copies().stream())
                .filter(copy -> copy.source() == source)
                .map(copy -> item.get(copy.versionAttribute()))
                .filter(java.util.Objects::nonNull)
                .mapToLong(value -> Long.parseLong(value.n())).findFirst().orElse(0);
    }
}
