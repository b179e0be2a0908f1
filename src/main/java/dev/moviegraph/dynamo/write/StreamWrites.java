package dev.moviegraph.dynamo.write;

import static dev.moviegraph.dynamo.write.TableWrites.failedCondition;
import static dev.moviegraph.dynamo.write.TableWrites.number;
import static dev.moviegraph.dynamo.write.TableWrites.versionCondition;

import dev.moviegraph.catalog.CallContext;
import dev.moviegraph.catalog.MonthlyStreams;
import dev.moviegraph.catalog.MovieId;
import dev.moviegraph.catalog.NotFoundException;
import dev.moviegraph.catalog.StreamReceipt;
import dev.moviegraph.catalog.StreamRecord;
import dev.moviegraph.catalog.TotalsMode;
import dev.moviegraph.dynamo.client.Call;
import dev.moviegraph.dynamo.client.StoreFailures;
import dev.moviegraph.dynamo.model.Access;
import dev.moviegraph.dynamo.model.Condition;
import dev.moviegraph.dynamo.model.Expression;
import dev.moviegraph.dynamo.model.ItemUpdate;
import dev.moviegraph.dynamo.model.TableModel;
import dev.moviegraph.dynamo.read.ItemWeights;
import dev.moviegraph.dynamo.read.RecentReads;

import java.time.YearMonth;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;

import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.Update;

/**
 * Records streams and keeps the months' totals: in the transaction of the stream (TOTALS=transactional), or
 * as stream items alone that the aggregator counts (TOTALS=stream).
 */
public final class StreamWrites {
    /** There is no such item yet: a stream is recorded once. */
    private static final Expression NEW_EXPRESSION = Expression.of(Condition.notExists(TableModel.PK));

    private final DynamoDbAsyncClient client;
    private final String table;
    private final TotalsMode totals;
    private final ExecutorService executor;
    private final ItemWeights weights;
    private final TableWrites writes;
    /** The months' top lists (their floors, merges, deletions and renames). */
    private final TopLists topLists;
    /** Totals this gateway saw reach a floor. */
    private final Set<String> atFloor = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /** TOTALS=stream: movie titles for stream items, kept a minute (see {@link #recordForAggregator}). */
    private final RecentReads<MovieId, String> titles = new RecentReads<>(java.time.Duration.ofMinutes(1), 100_000);
    /** TOTALS=stream: totals for receipts, kept a second. */
    private final RecentReads<List<String>, Long> recentTotals = new RecentReads<>(java.time.Duration.ofSeconds(1), 100_000);

    StreamWrites(DynamoDbAsyncClient client, String table, TotalsMode totals, ExecutorService executor,
                 ItemWeights weights, TableWrites writes, TopLists topLists) {
        this.client = client;
        this.table = table;
        this.totals = totals;
        this.executor = executor;
        this.weights = weights;
        this.writes = writes;
        this.topLists = topLists;
    }

    CompletableFuture<StreamReceipt> recordStream(StreamRecord stream, CallContext context) {
        if (totals == TotalsMode.STREAM) {
            return StoreFailures.translated(CompletableFuture.supplyAsync(() -> recordForAggregator(stream, context),
                    executor));
        }
        return writes.optimistically(() -> {
            Map<String, AttributeValue> movieItem = writes.getConsistent(context, TableModel.movieKey(stream.movieId()));
            if (movieItem == null) {
                throw new NotFoundException("There is no movie " + stream.movieId().value());
            }
            String title = TableModel.MOVIE.decode(movieItem).title();
            String total = stream.movieId().value() + "|" + stream.month();
            long floor = topLists.floor(stream.month(), context);
            boolean ranked = floor <= 1 || atFloor.contains(total);
            for (int guess = 1; ; guess++) {
                List<TransactWriteItem> items = new ArrayList<>();
                items.add(writes.check(TableModel.movieKey(stream.movieId()), versionCondition(movieItem)));
                items.add(TransactWriteItem.builder().put(Put.builder().tableName(table)
                        .item(TableModel.STREAM.encode(new TableModel.StoredStream(stream.streamId(), stream.movieId(),
                                stream.at(), stream.month(), title)))
                        .conditionExpression(NEW_EXPRESSION.condition())
                        .expressionAttributeNames(NEW_EXPRESSION.names()).build()).build());
                items.add(TransactWriteItem.builder().update(totalIncrement(table, stream.movieId(), stream.month(), title,
                        1, floor, ranked)).build());
                try {
                    writes.transact(context, Access.RECORD_STREAM, items);
                    break;
                } catch (TransactionCanceledException e) {
                    if (failedCondition(e, 1)) {
                        return alreadyRecorded(context, stream.streamId());
                    }
                    if (guess < 3 && failedCondition(e, 2)) {
                        // The total is at its month's top-list floor (or, rarely, still below it): the other update.
                        ranked = !ranked;
                        if (ranked) {
                            if (atFloor.size() > 100_000) {
                                atFloor.clear();
                            }
                            atFloor.add(total);
                        }
                        continue;
                    }
                    throw e;
                }
            }
            if (ranked) {
                // Before the receipt: the list is exact when the mutation returns. A gateway that dies here never
                // answered; the client's retry with the same stream id merges it (alreadyRecorded).
                topLists.merge(stream.month(), List.of(stream.movieId()), context);
            }
            return new StreamReceipt(stream.streamId(), stream.month(), true,
                    total(context, stream.movieId(), stream.month()));
        });
    }

    /**
     * TOTALS=stream: one conditional PutItem of the stream item, in a partition of its own, and nothing
     * else per stream in the movie's partition: the movie's title comes from {@link #titles} (read at most
     * once a minute per movie per gateway; the aggregator drops streams of a movie deleted since) and the
     * receipt's total from {@link #recentTotals} (at most once a second). So a movie streamed 10,000 times a
     * second costs its partition a few reads a second, not 10,000.
     */
    private StreamReceipt recordForAggregator(StreamRecord stream, CallContext context) {
        String title = titles.get(stream.movieId(), () -> {
            Map<String, AttributeValue> movie = writes.getItem(context, TableModel.movieKey(stream.movieId()), false);
            if (movie == null) {
                throw new NotFoundException("There is no movie " + stream.movieId().value());
            }
            return TableModel.MOVIE.decode(movie).title();
        });
        Map<String, AttributeValue> item = TableModel.STREAM.encode(new TableModel.StoredStream(stream.streamId(),
                stream.movieId(), stream.at(), stream.month(), title));
        weights.observe(List.of(item)).join();
        Call call = Call.byKey(context, Access.RECORD_STREAM_ITEM, 1);
        PutItemRequest put = PutItemRequest.builder().tableName(table).item(item)
                .conditionExpression(NEW_EXPRESSION.condition()).expressionAttributeNames(NEW_EXPRESSION.names())
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL).overrideConfiguration(call.override()).build();
        try {
            call.reportWhenDone(client.putItem(put).thenApply(response -> {
                call.page(0, Collections.singletonList(response.consumedCapacity()));
                return response;
            })).join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof ConditionalCheckFailedException) {
                return alreadyRecorded(context, stream.streamId());
            }
            throw e;
        }
        long total = recentTotals.get(List.of(stream.movieId().value(), stream.month().toString()), () -> {
            Map<String, AttributeValue> found = writes.getItem(context, TableModel.totalKey(stream.movieId(), stream.month()), false);
            return found == null ? 0L : TableModel.TOTAL.decode(found).streams();
        });
        return new StreamReceipt(stream.streamId(), stream.month(), true, total);
    }

    /**
     * Adds {@code count} to a month's total, creating it with its keys (its GSI8 key too) when it is new; the
     * title is copied only into a new total (putMovie keeps existing copies true).
     */
    public static Update totalIncrement(String table, MovieId movieId, YearMonth month, String title, long count) {
        return totalIncrement(table, movieId, month, title, count, 0, true);
    }

    /**
     * The same, knowing the month's top-list floor ({@link TopLists}) and guessing whether the new count reaches
     * it: {@code candidate} holds on condition that it does, otherwise on condition that it does not. One of
     * the two holds, so a writer that guessed wrong gets ConditionalCheckFailed on this item and sends the
     * other; a writer then knows, without reading the total back, which totals its month's list must take in.
     * With no floor (a list not yet full) every total is a candidate. Nothing here writes an index after the
     * total's creation: GSI8's key is set once and projects nothing else.
     */
    public static Update totalIncrement(String table, MovieId movieId, YearMonth month, String title, long count, long floor,
                                 boolean candidate) {
        Map<String, AttributeValue> total = new HashMap<>(TableModel.TOTAL.encode(
                new MonthlyStreams(movieId, title, month, 0)));
        total.keySet().removeAll(TableModel.TOTAL.key(Map.of("movieId", movieId, "month", month)).keySet());
        total.remove(TableModel.STREAMS);
        Set<String> onCreation = new HashSet<>(Set.of(TableModel.GSI8_PK));
        TableModel.TOTAL.copies().forEach(copy -> onCreation.addAll(copy.attributes().keySet()));
        ItemUpdate update = ItemUpdate.create();
        for (Map.Entry<String, AttributeValue> attribute : total.entrySet()) {
            update = onCreation.contains(attribute.getKey()) ? update.setIfAbsent(attribute.getKey(), attribute.getValue())
                    : update.set(attribute.getKey(), attribute.getValue());
        }
        update = update.add(TableModel.STREAMS, number(count));
        long threshold = floor - count; // the count before this update that reaches the floor
        Condition condition = null;
        if (candidate && threshold > 0) {
            condition = Condition.compare(TableModel.STREAMS, ">=", number(threshold));
        } else if (!candidate) {
            condition = Condition.notExists(TableModel.STREAMS)
                    .or(Condition.compare(TableModel.STREAMS, "<", number(Math.max(threshold, 0))));
        }
        Expression expression = Expression.of(update, condition);
        return Update.builder().tableName(table).key(TableModel.totalKey(movieId, month))
                .updateExpression(expression.update()).conditionExpression(expression.condition())
                .expressionAttributeNames(expression.names()).expressionAttributeValues(expression.values()).build();
    }

    private StreamReceipt alreadyRecorded(CallContext context, String streamId) {
        TableModel.StoredStream recorded = TableModel.STREAM.decode(writes.getConsistent(context, TableModel.streamKey(streamId)));
        long streams = total(context, recorded.movieId(), recorded.month());
        if (totals == TotalsMode.TRANSACTIONAL && streams > 0 && streams >= topLists.floor(recorded.month(), context)) {
            // The first attempt may have counted it and died before its merge: a retry leaves the list exact.
            topLists.merge(recorded.month(), List.of(recorded.movieId()), context);
        }
        return new StreamReceipt(streamId, recorded.month(), false, streams);
    }

    private long total(CallContext context, MovieId movieId, YearMonth month) {
        Map<String, AttributeValue> total = writes.getConsistent(context, TableModel.totalKey(movieId, month));
        return total == null ? 0 : TableModel.TOTAL.decode(total).streams();
    }
}
