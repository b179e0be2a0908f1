package dev.moviegraph.dynamo;

import static dev.moviegraph.dynamo.TableLayout.s;

import dev.moviegraph.catalog.Actor;
import dev.moviegraph.catalog.ActorId;
import dev.moviegraph.catalog.CallContext;
import dev.moviegraph.catalog.CastMember;
import dev.moviegraph.catalog.CatalogWriter;
import dev.moviegraph.catalog.Movie;
import dev.moviegraph.catalog.MovieId;
import dev.moviegraph.catalog.NotFoundException;
import dev.moviegraph.catalog.StoreUnavailableException;
import dev.moviegraph.catalog.StreamReceipt;
import dev.moviegraph.catalog.StreamRecord;
import dev.moviegraph.catalog.TotalsMode;

import java.time.YearMonth;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.function.Supplier;

import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.ConditionCheck;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.Delete;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.Update;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * The write port over the single table. Every write is a transaction guarded by optimistic versions:
 * it reads the items it depends on (consistently), then writes on condition that they did not change,
 * and starts over when they did. Copies of a movie's title or an actor's name are rewritten in the same
 * transaction as the item (up to 99 of them; beyond that in further updates that only ever move a copy
 * to a newer version). Runs on its own threads, so a write never blocks the HTTP or SDK threads.
 */
public final class DynamoCatalogWriter implements CatalogWriter {
    static final int MAX_TRANSACTION_ITEMS = 100;
    private static final int MAX_ATTEMPTS = 6;

    private final DynamoDbAsyncClient client;
    private final String table;
    private final TotalsMode totals;
    private final ExecutorService executor;

    public DynamoCatalogWriter(DynamoDbAsyncClient client, String table, TotalsMode totals, ExecutorService executor) {
        this.client = client;
        this.table = table;
        this.totals = totals;
        this.executor = executor;
    }

    @Override
    public CompletableFuture<Movie> putMovie(Movie movie, CallContext context) {
        return optimistically(() -> {
            Map<String, AttributeValue> current = getConsistent(context, TableLayout.movieKey(movie.id()));
            long next = ItemCodec.version(current) + 1;
            Map<String, AttributeValue> item = new HashMap<>(ItemCodec.movieItem(movie));
            item.put(TableLayout.VERSION, number(next));
            List<TransactWriteItem> copies = new ArrayList<>();
            for (Map<String, AttributeValue> key : collectionKeys(context, movie.id())) {
                boolean cast = ItemCodec.CAST.equals(ItemCodec.type(key));
                if (!cast && !ItemCodec.TOTAL.equals(ItemCodec.type(key))) {
                    continue;
                }
                Map<String, AttributeValue> values = new HashMap<>(Map.of(":title", s(movie.title()), ":v", number(next)));
                String set = "SET movieTitle = :title, movieVersion = :v";
                if (cast && movie.year() != null) {
                    set += ", movieYear = :year";
                    values.put(":year", number(movie.year()));
                } else if (cast) {
                    set += " REMOVE movieYear";
                }
                copies.add(copyUpdate(key, set, values, "movieVersion"));
            }
            transactInChunks(context, Access.PUT_MOVIE, put(item, versionCondition(current)), copies);
            return movie;
        });
    }

    @Override
    public CompletableFuture<Actor> putActor(Actor actor, CallContext context) {
        return optimistically(() -> {
            Map<String, AttributeValue> current = getConsistent(context, TableLayout.actorKey(actor.id()));
            long next = ItemCodec.version(current) + 1;
            Map<String, AttributeValue> item = new HashMap<>(ItemCodec.actorItem(actor));
            item.put(TableLayout.VERSION, number(next));
            transactInChunks(context, Access.PUT_ACTOR, put(item, versionCondition(current)),
                    actorCopies(context, actor, next, false));
            // GSI1 is eventually consistent: a cast item committed just before this write may have been
            // missing from the first look. A second look fixes any copy still older than this version.
            for (TransactWriteItem late : actorCopies(context, actor, next, true)) {
                updateIfNewer(context, Access.PUT_ACTOR, late.update());
            }
            return actor;
        });
    }

    private List<TransactWriteItem> actorCopies(CallContext context, Actor actor, long version, boolean onlyOlder) {
        QueryRequest query = Access.FILMOGRAPHY_PAGE.query(table, Map.of(":actor", s(TableLayout.actorPk(actor.id())),
                ":movies", s(TableLayout.MOVIE_PREFIX))).build();
        List<TransactWriteItem> copies = new ArrayList<>();
        for (Map<String, AttributeValue> item : Queries.all(client, context, Access.FILMOGRAPHY_PAGE, query).join()) {
            AttributeValue copied = item.get("actorVersion");
            if (onlyOlder && copied != null && Long.parseLong(copied.n()) >= version) {
                continue;
            }
            copies.add(copyUpdate(TableLayout.key(item.get(TableLayout.PK).s(), item.get(TableLayout.SK).s()),
                    "SET actorName = :name, actorVersion = :v", Map.of(":name", s(actor.name()), ":v", number(version)),
                    "actorVersion"));
        }
        return copies;
    }

    @Override
    public CompletableFuture<CastMember> castActor(MovieId movieId, ActorId actorId, List<String> characters,
                                                   Integer billing, CallContext context) {
        return optimistically(() -> {
            Map<String, AttributeValue> movieItem = getConsistent(context, TableLayout.movieKey(movieId));
            Map<String, AttributeValue> actorItem = getConsistent(context, TableLayout.actorKey(actorId));
            if (movieItem == null) {
                throw new NotFoundException("There is no movie " + movieId.value());
            }
            if (actorItem == null) {
                throw new NotFoundException("There is no actor " + actorId.value());
            }
            Movie movie = ItemCodec.movie(movieItem);
            Actor actor = ItemCodec.actor(actorItem);
            CastMember member = new CastMember(movieId, actorId, movie.title(), movie.year(), actor.name(), characters,
                    billing);
            Map<String, AttributeValue> item = new HashMap<>(ItemCodec.castItem(member));
            item.put("movieVersion", number(ItemCodec.version(movieItem)));
            item.put("actorVersion", number(ItemCodec.version(actorItem)));
            transact(context, Access.CAST_ACTOR, List.of(
                    check(TableLayout.movieKey(movieId), versionCondition(movieItem)),
                    check(TableLayout.actorKey(actorId), versionCondition(actorItem)),
                    TransactWriteItem.builder().put(Put.builder().tableName(table).item(item).build()).build()));
            return member;
        });
    }

    @Override
    public CompletableFuture<Boolean> uncastActor(MovieId movieId, ActorId actorId, CallContext context) {
        return CompletableFuture.supplyAsync(() -> {
            Call call = Call.byKey(context, Access.UNCAST_ACTOR, 1);
            DeleteItemRequest request = DeleteItemRequest.builder().tableName(table)
                    .key(TableLayout.castKey(movieId, actorId))
                    // only a cast item: never delete something else that might share the key
                    .conditionExpression("attribute_not_exists(pk) OR #type = :cast")
                    .expressionAttributeNames(Map.of("#type", TableLayout.TYPE))
                    .expressionAttributeValues(Map.of(":cast", s(ItemCodec.CAST)))
                    .returnValues(ReturnValue.ALL_OLD)
                    .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                    .overrideConfiguration(call.override())
                    .build();
            return call.reportWhenDone(client.deleteItem(request).thenApply(response -> {
                call.page(response.hasAttributes() ? 1 : 0, Collections.singletonList(response.consumedCapacity()));
                return response.hasAttributes() && !response.attributes().isEmpty();
            })).join();
        }, executor);
    }

    @Override
    public CompletableFuture<Boolean> deleteMovie(MovieId movieId, CallContext context) {
        return optimistically(() -> {
            List<Map<String, AttributeValue>> keys = collectionKeys(context, movieId);
            if (keys.isEmpty()) {
                return false;
            }
            boolean existed = keys.stream().anyMatch(key -> ItemCodec.MOVIE.equals(ItemCodec.type(key)));
            // The movie item goes first, in the first transaction: a cast or a stream that checks the movie
            // afterwards fails instead of leaving an orphan behind, and a retry finds what is left.
            List<TransactWriteItem> deletes = new ArrayList<>();
            for (Map<String, AttributeValue> key : keys) {
                TransactWriteItem delete = TransactWriteItem.builder().delete(Delete.builder().tableName(table)
                        .key(TableLayout.key(key.get(TableLayout.PK).s(), key.get(TableLayout.SK).s())).build()).build();
                if (ItemCodec.MOVIE.equals(ItemCodec.type(key))) {
                    deletes.add(0, delete);
                } else {
                    deletes.add(delete);
                }
            }
            for (int i = 0; i < deletes.size(); i += MAX_TRANSACTION_ITEMS) {
                transact(context, Access.DELETE_COLLECTION,
                        deletes.subList(i, Math.min(deletes.size(), i + MAX_TRANSACTION_ITEMS)));
            }
            return existed;
        });
    }

    @Override
    public CompletableFuture<StreamReceipt> recordStream(StreamRecord stream, CallContext context) {
        return optimistically(() -> {
            Map<String, AttributeValue> movieItem = getConsistent(context, TableLayout.movieKey(stream.movieId()));
            if (movieItem == null) {
                throw new NotFoundException("There is no movie " + stream.movieId().value());
            }
            String title = ItemCodec.movie(movieItem).title();
            List<TransactWriteItem> items = new ArrayList<>();
            items.add(check(TableLayout.movieKey(stream.movieId()), versionCondition(movieItem)));
            items.add(TransactWriteItem.builder().put(Put.builder().tableName(table)
                    .item(ItemCodec.streamItem(stream, title))
                    .conditionExpression("attribute_not_exists(pk)").build()).build());
            if (totals == TotalsMode.TRANSACTIONAL) {
                items.add(TransactWriteItem.builder().update(totalIncrement(table, stream.movieId(), stream.month(), title,
                        1)).build());
            }
            try {
                transact(context, Access.RECORD_STREAM, items);
            } catch (TransactionCanceledException e) {
                if (failedCondition(e, 1)) {
                    return alreadyRecorded(context, stream.streamId());
                }
                throw e;
            }
            return new StreamReceipt(stream.streamId(), stream.month(), true,
                    total(context, stream.movieId(), stream.month()));
        });
    }

    /** Adds {@code count} to a month's total, creating it with its sparse GSI2 key when it is new. */
    static Update totalIncrement(String table, MovieId movieId, YearMonth month, String title, long count) {
        return Update.builder().tableName(table).key(TableLayout.totalKey(movieId, month))
                .updateExpression("SET #type = :total, movieId = :movie, #month = :month, gsi2pk = :partition, "
                        + "movieTitle = if_not_exists(movieTitle, :title) ADD streams :count")
                .expressionAttributeNames(Map.of("#type", TableLayout.TYPE, "#month", "month"))
                .expressionAttributeValues(Map.of(":total", s(ItemCodec.TOTAL), ":movie", s(movieId.value()),
                        ":month", s(month.toString()), ":partition", s(TableLayout.monthPartition(month)),
                        ":title", s(title), ":count", number(count)))
                .build();
    }

    private StreamReceipt alreadyRecorded(CallContext context, String streamId) {
        Map<String, AttributeValue> recorded = getConsistent(context, TableLayout.streamKey(streamId));
        MovieId movieId = MovieId.of(recorded.get("movieId").s());
        YearMonth month = YearMonth.parse(recorded.get("month").s());
        return new StreamReceipt(streamId, month, false, total(context, movieId, month));
    }

    private long total(CallContext context, MovieId movieId, YearMonth month) {
        Map<String, AttributeValue> total = getConsistent(context, TableLayout.totalKey(movieId, month));
        return total == null ? 0 : Long.parseLong(total.get(TableLayout.STREAMS).n());
    }

    // ---- helpers

    /** Runs a read-then-write on the write threads, again while a condition fails because something moved. */
    private <T> CompletableFuture<T> optimistically(Supplier<T> attempt) {
        return CompletableFuture.supplyAsync(() -> {
            for (int i = 1; ; i++) {
                try {
                    return attempt.get();
                } catch (TransactionCanceledException e) {
                    if (i >= MAX_ATTEMPTS || e.cancellationReasons().stream().noneMatch(DynamoCatalogWriter::conflict)) {
                        throw new StoreUnavailableException("The write kept conflicting with other writes; try again");
                    }
                }
            }
        }, executor);
    }

    private static boolean failedCondition(TransactionCanceledException e, int index) {
        return e.hasCancellationReasons() && e.cancellationReasons().size() > index
                && "ConditionalCheckFailed".equals(e.cancellationReasons().get(index).code());
    }

    private Map<String, AttributeValue> getConsistent(CallContext context, Map<String, AttributeValue> key) {
        Call call = Call.byKey(context, Access.GET_ITEM, 1);
        GetItemRequest request = GetItemRequest.builder().tableName(table).key(key).consistentRead(true)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL).overrideConfiguration(call.override()).build();
        return call.reportWhenDone(client.getItem(request).thenApply(response -> {
            call.page(response.hasItem() ? 1 : 0, Collections.singletonList(response.consumedCapacity()));
            return response.hasItem() && !response.item().isEmpty() ? response.item() : null;
        })).join();
    }

    /** The keys and types of every item of a movie's collection, read consistently. */
    private List<Map<String, AttributeValue>> collectionKeys(CallContext context, MovieId movieId) {
        QueryRequest query = Access.WHOLE_COLLECTION.query(table, Map.of(":pk", s(TableLayout.moviePk(movieId))))
                .consistentRead(true)
                .projectionExpression("pk, sk, #type")
                .expressionAttributeNames(Map.of("#type", TableLayout.TYPE))
                .build();
        return Queries.all(client, context, Access.WHOLE_COLLECTION, query).join();
    }

    private void transactInChunks(CallContext context, Access access, TransactWriteItem first,
                                  List<TransactWriteItem> copies) {
        List<TransactWriteItem> together = new ArrayList<>();
        together.add(first);
        together.addAll(copies.subList(0, Math.min(copies.size(), MAX_TRANSACTION_ITEMS - 1)));
        transact(context, access, together);
        for (TransactWriteItem rest : copies.subList(Math.min(copies.size(), MAX_TRANSACTION_ITEMS - 1), copies.size())) {
            updateIfNewer(context, access, rest.update());
        }
    }

    /** A copy beyond the first transaction: written unless it is gone or already newer. */
    private void updateIfNewer(CallContext context, Access access, Update update) {
        Call call = Call.byKey(context, access, 1);
        UpdateItemRequest request = UpdateItemRequest.builder().tableName(table).key(update.key())
                .updateExpression(update.updateExpression()).conditionExpression(update.conditionExpression())
                .expressionAttributeValues(update.expressionAttributeValues())
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL).overrideConfiguration(call.override()).build();
        try {
            call.reportWhenDone(client.updateItem(request).thenApply(response -> {
                call.page(0, Collections.singletonList(response.consumedCapacity()));
                return response;
            })).join();
        } catch (CompletionException e) {
            if (!(e.getCause() instanceof ConditionalCheckFailedException)) {
                throw e;
            }
        }
    }

    private void transact(CallContext context, Access access, List<TransactWriteItem> items) {
        transact(client, context, access, items);
    }

    /**
     * One TransactWriteItems, reported as one call with the capacity it consumed; waits for it and
     * throws what DynamoDB threw (TransactionCanceledException with its reasons, say) unwrapped.
     */
    static void transact(DynamoDbAsyncClient client, CallContext context, Access access, List<TransactWriteItem> items) {
        Call call = Call.byKey(context, access, items.size());
        TransactWriteItemsRequest request = TransactWriteItemsRequest.builder().transactItems(items)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL).overrideConfiguration(call.override()).build();
        try {
            call.reportWhenDone(client.transactWriteItems(request).thenApply(response -> {
                call.page(0, response.consumedCapacity());
                return response;
            })).join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            throw e;
        }
    }

    private TransactWriteItem put(Map<String, AttributeValue> item, Condition condition) {
        return TransactWriteItem.builder().put(Put.builder().tableName(table).item(item)
                .conditionExpression(condition.expression())
                .expressionAttributeNames(condition.names())
                .expressionAttributeValues(condition.values().isEmpty() ? null : condition.values())
                .build()).build();
    }

    private TransactWriteItem check(Map<String, AttributeValue> key, Condition condition) {
        return TransactWriteItem.builder().conditionCheck(ConditionCheck.builder().tableName(table).key(key)
                .conditionExpression(condition.expression())
                .expressionAttributeNames(condition.names())
                .expressionAttributeValues(condition.values().isEmpty() ? null : condition.values())
                .build()).build();
    }

    private TransactWriteItem copyUpdate(Map<String, AttributeValue> key, String set, Map<String, AttributeValue> values,
                                         String versionAttribute) {
        return TransactWriteItem.builder().update(Update.builder().tableName(table)
                .key(TableLayout.key(key.get(TableLayout.PK).s(), key.get(TableLayout.SK).s()))
                .updateExpression(set)
                .conditionExpression("attribute_exists(pk) AND (attribute_not_exists(" + versionAttribute + ") OR "
                        + versionAttribute + " < :v)")
                .expressionAttributeValues(values)
                .build()).build();
    }

    /** A write on condition that the item is still the one read: absent, unversioned, or at its version. */
    private record Condition(String expression, Map<String, AttributeValue> values) {
        /** "version" may one day be a reserved word; it always goes through a name placeholder. */
        Map<String, String> names() {
            return expression.contains("#version") ? Map.of("#version", TableLayout.VERSION) : null;
        }
    }

    private static Condition versionCondition(Map<String, AttributeValue> current) {
        if (current == null) {
            return new Condition("attribute_not_exists(pk)", Map.of());
        }
        long version = ItemCodec.version(current);
        if (version == 0) {
            return new Condition("attribute_exists(pk) AND attribute_not_exists(#version)", Map.of());
        }
        return new Condition("#version = :version", Map.of(":version", number(version)));
    }

    private static AttributeValue number(long value) {
        return AttributeValue.fromN(Long.toString(value));
    }

    /** A cancellation that a fresh read can get past: something changed, or another transaction was on it. */
    private static boolean conflict(CancellationReason reason) {
        return "ConditionalCheckFailed".equals(reason.code()) || "TransactionConflict".equals(reason.code());
    }
}
