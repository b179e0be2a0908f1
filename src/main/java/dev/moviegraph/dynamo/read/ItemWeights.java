package dev.moviegraph.dynamo.read;

import dev.moviegraph.catalog.Part;
import dev.moviegraph.catalog.Slice;
import dev.moviegraph.dynamo.model.Access;
import dev.moviegraph.dynamo.model.Condition;
import dev.moviegraph.dynamo.model.Entity;
import dev.moviegraph.dynamo.model.Expression;
import dev.moviegraph.dynamo.model.ItemCollection;
import dev.moviegraph.dynamo.model.ItemUpdate;
import dev.moviegraph.dynamo.model.TableModel;

import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * What the table's items really weigh and how long its unpaged lists really are: the largest item of each
 * type that was written, in DynamoDB's own measure (attribute names plus values), and the longest list
 * of each kind read whole (a movie's directors, its writers, its awards; a person's awards). Whoever writes items (the import, the sample loader, the
 * mutations) records a type's size when it grows, in one {@code meta#item-sizes} item; the read
 * estimates weigh each call by the items it can return: every item at the largest recorded of the
 * entities the call's index partition or lists hold ({@link Access#returns()}, a run's lists), never
 * below what the model declares for them, so one large kind of item weighs only the calls that read it. A gateway reads it at start-up (a background reload would be a DynamoDB call inside some
 * query's window) and adds what its own writes grow; an import into a table being served is seen by
 * the gateways at their next start, and until then the read budget's count still stops a query that
 * consumes more than estimated.
 */
public final class ItemWeights {
    public static final String NAME = "item-sizes";
    private static final String PREFIX = "size#";
    private static final String LIST_PREFIX = "list#";
    /** An attribute of an item type that is the length of a list, or a bound of it. */
    private record Length(String type, String attribute, Part list) {
    }

    /**
     * Items that carry a list's length: a crew credit its place in its list (1 first, never reused, so the
     * largest is the list's length at most), a movie its cast count, a person their credits in each role.
     */
    private static final List<Length> LENGTHS = List.of(
            new Length(TableModel.DIRECTOR.type(), TableModel.DIRECTOR.attribute("position"), Part.DIRECTORS),
            new Length(TableModel.WRITER.type(), TableModel.WRITER.attribute("position"), Part.WRITERS),
            new Length(TableModel.MOVIE.type(), TableModel.MOVIE.attribute("castCount"), Part.CAST),
            new Length(TableModel.PERSON.type(), TableModel.PERSON.attribute("actedCount"), Part.ACTED),
            new Length(TableModel.PERSON.type(), TableModel.PERSON.attribute("directedCount"), Part.DIRECTED),
            new Length(TableModel.PERSON.type(), TableModel.PERSON.attribute("wroteCount"), Part.WROTE));

    private final DynamoDbAsyncClient client;
    private final String table;
    private final Map<String, Integer> largest = new ConcurrentHashMap<>();
    /** After a type: the largest of its items less the records they nest ({@link #sizeWithoutNested}). */
    private static final String WITHOUT_NESTED = "~flat";
    private final Map<Part, Integer> longest = new ConcurrentHashMap<>();
    public ItemWeights(DynamoDbAsyncClient client, String table) {
        this.client = client;
        this.table = table;
    }

    /** The weights the model declares alone, for a catalog without a table to read them from. */
    public static ItemWeights declared() {
        return new ItemWeights(null, null);
    }

    /**
     * The largest item of an entity an estimate assumes: the largest recorded of its type, never below
     * its declared size; for an entity that carries copies of another's attributes (credits, totals), at
     * least that source's too, since a copy grows with its source and copy updates are not measured. What
     * the source's items weigh less the records they nest (a movie's copy of its first-billed cast), which
     * no copy of it carries.
     */
    int largest(Entity<?> entity) {
        int own = Math.max(entity.estimatedBytes(), largest.getOrDefault(entity.type(), 0));
        for (Entity.Copy copy : entity.copies()) {
            String source = copy.source().type();
            int copied = largest.getOrDefault(source + WITHOUT_NESTED, largest.getOrDefault(source, 0));
            own = Math.max(own, Math.max(copy.source().estimatedBytes(), copied));
        }
        return own;
    }

    /** The largest item any of these entities can have: what a call that returns them weighs each item at. */
    int largest(Collection<? extends Entity<?>> entities) {
        int most = 0;
        for (Entity<?> entity : entities) {
            most = Math.max(most, largest(entity));
        }
        return most;
    }

    /** The largest item a declared access pattern can return. */
    int largest(Access access) {
        return largest(access.returns());
    }

    /** The largest item a run of a collection can return: one of its lists' (or its owner's), read through or not. */
    int largest(ItemCollection.Run run) {
        int most = 0;
        for (ItemCollection.Segment segment : run.segments()) {
            most = Math.max(most, largest(segment.entities()));
        }
        return most;
    }

    /**
     * At most what {@code items} items of a run weigh together: its owner item, when the run reads it, once
     * at the owner's largest, and every other item at its lists' largest. A movie item grown by its copy of
     * its first-billed cast is one item of a cast Query, not the weight of every credit in it.
     */
    long mostBytes(ItemCollection.Run run, int items) {
        int owner = 0;
        int listed = 0;
        for (ItemCollection.Segment segment : run.segments()) {
            if (segment.isOwner()) {
                owner = Math.max(owner, largest(segment.entities()));
            } else {
                listed = Math.max(listed, largest(segment.entities()));
            }
        }
        if (owner == 0 || listed == 0) {
            return (long) items * Math.max(owner, listed);
        }
        return owner + (long) Math.max(0, items - 1) * listed;
    }

    /**
     * At most how many items a list read whole holds: the longest recorded; none when the table records
     * lists but never one of this kind (an import with no awards); {@link Slice#ALL_ESTIMATE} for a table
     * whose writers recorded no list at all (written before lists were recorded, or still empty).
     */
    int mostItems(Part part) {
        return longest.getOrDefault(part, longest.isEmpty() ? Slice.ALL_ESTIMATE : 0);
    }

    /** At most how many items this slice of a list holds, as far as the recorded lists tell. */
    int mostItems(Part part, Slice slice) {
        if (slice.isAll()) {
            return mostItems(part);
        }
        Integer recorded = longest.get(part);
        return slice.page() != null && recorded != null ? Math.min(slice.mostItems(), recorded) : slice.mostItems();
    }

    /** Reads the recorded sizes now (at start-up). */
    public ItemWeights load() {
        if (client != null) {
            read().join();
        }
        return this;
    }

    private CompletableFuture<Void> read() {
        return client.getItem(GetItemRequest.builder().tableName(table).key(TableModel.metaKey(NAME)).build())
                .thenAccept(response -> {
                    if (response.hasItem()) {
                        response.item().forEach((attribute, value) -> {
                            if (attribute.startsWith(PREFIX) && value.n() != null) {
                                largest.merge(attribute.substring(PREFIX.length()), Integer.valueOf(value.n()), Math::max);
                            } else if (attribute.startsWith(LIST_PREFIX) && value.n() != null) {
                                part(attribute.substring(LIST_PREFIX.length())).ifPresent(part ->
                                        longest.merge(part, Integer.valueOf(value.n()), Math::max));
                            }
                        });
                    }
                })
                .exceptionally(failure -> null); // an estimate falls back on what it knew
    }

    /**
     * Notes items about to be written; records the types whose largest size grew, and the lists whose
     * longest grew (from the lengths items carry, and lists read whole counted among the items) (one
     * conditional update each, only when it grew, so writing never shrinks what
     * another writer recorded).
     */
    public CompletableFuture<Void> observe(List<Map<String, AttributeValue>> items) {
        Map<String, Integer> grown = new HashMap<>();
        for (Map<String, AttributeValue> item : items) {
            String type = TableModel.type(item);
            int size = sizeOf(item);
            if (size > largest.getOrDefault(type, 0)) {
                largest.merge(type, size, Math::max);
                grown.merge(PREFIX + type, size, Math::max);
            }
            int flat = sizeWithoutNested(item);
            if (flat > largest.getOrDefault(type + WITHOUT_NESTED, 0)) {
                largest.merge(type + WITHOUT_NESTED, flat, Math::max);
                grown.merge(PREFIX + type + WITHOUT_NESTED, flat, Math::max);
            }
            for (Length length : LENGTHS) {
                AttributeValue value = length.type().equals(type) ? item.get(length.attribute()) : null;
                if (value != null && value.n() != null && Integer.parseInt(value.n()) > longest.getOrDefault(length.list(), 0)) {
                    longest.merge(length.list(), Integer.parseInt(value.n()), Math::max);
                    grown.merge(LIST_PREFIX + length.list().name(), Integer.parseInt(value.n()), Math::max);
                }
            }
        }
        // Lists read whole that items written together hold (a loader's awards, an import's titles): at least that long.
        ItemCollection.longestWholeLists(items).forEach((part, length) -> {
            if (length > longest.getOrDefault(part, 0)) {
                longest.merge(part, length, Math::max);
                grown.merge(LIST_PREFIX + part.name(), length, Math::max);
            }
        });
        return record(grown);
    }

    /** Notes that a list of this kind now holds {@code length} items (a movie's or person's awards). */
    public CompletableFuture<Void> observeList(Part part, int length) {
        if (length <= longest.getOrDefault(part, 0)) {
            return CompletableFuture.completedFuture(null);
        }
        longest.merge(part, length, Math::max);
        return record(Map.of(LIST_PREFIX + part.name(), length));
    }

    private CompletableFuture<Void> record(Map<String, Integer> grown) {
        if (client == null || grown.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        return CompletableFuture.allOf(grown.entrySet().stream().map(entry -> grow(entry.getKey(), entry.getValue())
                .exceptionally(failure -> {
                    Throwable cause = failure.getCause() == null ? failure : failure.getCause();
                    if (cause instanceof ConditionalCheckFailedException) {
                        return null; // another writer recorded a larger one
                    }
                    throw failure instanceof RuntimeException runtime ? runtime : new IllegalStateException(failure);
                })).toArray(CompletableFuture[]::new));
    }

    /** Records {@code value} under {@code attribute} of the weights' item, unless a larger one is there. */
    private CompletableFuture<?> grow(String attribute, int value) {
        AttributeValue size = AttributeValue.fromN(Integer.toString(value));
        Expression grow = Expression.of(ItemUpdate.create().set(attribute, size)
                        .set(TableModel.TYPE, AttributeValue.fromS(TableModel.META.type()))
                        .set("name", AttributeValue.fromS(NAME)),
                Condition.notExists(attribute).or(Condition.compare(attribute, "<", size)));
        return client.updateItem(UpdateItemRequest.builder().tableName(table).key(TableModel.metaKey(NAME))
                .updateExpression(grow.update()).conditionExpression(grow.condition())
                .expressionAttributeNames(grow.names()).expressionAttributeValues(grow.values()).build());
    }

    private static java.util.Optional<Part> part(String name) {
        try {
            return java.util.Optional.of(Part.valueOf(name));
        } catch (IllegalArgumentException e) {
            return java.util.Optional.empty(); // a list a later version records
        }
    }

    /** An item's size less its lists of records (maps): what another item's copy of its attributes can weigh. */
    private static int sizeWithoutNested(Map<String, AttributeValue> item) {
        int size = 0;
        for (Map.Entry<String, AttributeValue> attribute : item.entrySet()) {
            AttributeValue value = attribute.getValue();
            if (!(value.hasL() && !value.l().isEmpty() && value.l().get(0).hasM())) {
                size += utf8(attribute.getKey()) + sizeOf(value);
            }
        }
        return size;
    }

    /** An item's size as DynamoDB counts it: each attribute's name in UTF-8 plus its value. */
    public static int sizeOf(Map<String, AttributeValue> item) {
        int size = 0;
        for (Map.Entry<String, AttributeValue> attribute : item.entrySet()) {
            size += utf8(attribute.getKey()) + sizeOf(attribute.getValue());
        }
        return size;
    }

    private static int sizeOf(AttributeValue value) {
        if (value.s() != null) {
            return utf8(value.s());
        }
        if (value.n() != null) {
            // Up to 38 significant digits in about one byte per two digits, plus one.
            return (value.n().replaceAll("[^0-9]", "").length() + 1) / 2 + 1;
        }
        if (value.bool() != null || Boolean.TRUE.equals(value.nul())) {
            return 1;
        }
        if (value.hasL()) {
            return 3 + value.l().stream().mapToInt(element -> 1 + sizeOf(element)).sum();
        }
        if (value.hasM()) {
            return 3 + value.m().entrySet().stream().mapToInt(entry -> 1 + utf8(entry.getKey()) + sizeOf(entry.getValue())).sum();
        }
        if (value.hasSs()) {
            return value.ss().stream().mapToInt(ItemWeights::utf8).sum();
        }
        return 0;
    }

    private static int utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8).length;
    }
}
