package dev.moviegraph.dynamo.streams;

import static software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromN;
import static software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromS;

import dev.moviegraph.catalog.CallContext;
import dev.moviegraph.catalog.MovieId;
import dev.moviegraph.dynamo.client.Batches;
import dev.moviegraph.dynamo.model.Access;
import dev.moviegraph.dynamo.model.Condition;
import dev.moviegraph.dynamo.model.Expression;
import dev.moviegraph.dynamo.model.TableModel;
import dev.moviegraph.dynamo.write.ConditionalWrites;
import dev.moviegraph.dynamo.write.StreamWrites;
import dev.moviegraph.dynamo.write.TopLists;

import java.time.YearMonth;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionCheck;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/**
 * Counts a batch of one stream shard's records into the monthly totals, exactly once whoever reads the
 * shard (the in-process {@link StreamAggregator}, a Lambda invocation, a second reader that raced the
 * first). A batch is summed first, one count per movie and month, so a movie streamed 10,000 times in a
 * batch is one update of its total (and at most one move in its top-index shard), not 10,000; a batch is
 * a whole window of reads (Lambda's tumbling window, a pass of the in-process aggregator), so the month's
 * best totals move once a window per stream shard, which is what bounds the top index's writes. The sums go
 * in transactions of at most {@value #MAX_TOTALS_PER_TRANSACTION} totals, in key order, each with the
 * shard's checkpoint: the first on condition that the checkpoint is still where the batch started,
 * each next one on condition that the one before it is in ({@code pending}, {@code done}); the last moves
 * the checkpoint to the batch's end. A crash between two of them leaves the checkpoint saying which batch
 * and how far, and the next reader reads the same records again (a shard's records never change) and
 * commits the rest; a reader that lost a race fails its condition and starts over from the checkpoint.
 */
public final class ShardCounter {
    /** Totals per transaction: DynamoDB allows 100 items, one is the checkpoint. */
    static final int MAX_TOTALS_PER_TRANSACTION = 99;

    /** A stream record that counts: one stream of a movie in a month. */
    public record Counted(MovieId movieId, YearMonth month) {
    }

    /**
     * The stream a new image of the table records, if it is one, from its attributes as text (a string's or
     * a number's): how a reader that is handed images in another library's types (a Lambda event) asks.
     */
    public static java.util.Optional<Counted> counted(java.util.function.Function<String, String> attribute) {
        String movie = attribute.apply(TableModel.STREAM.attribute("movieId"));
        String month = attribute.apply(TableModel.STREAM.attribute("month"));
        if (!TableModel.STREAM.type().equals(attribute.apply(TableModel.TYPE)) || movie == null || month == null) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(new Counted(MovieId.of(movie), YearMonth.parse(month)));
    }

    /**
     * Where a shard's counting stands: see {@link TableModel.Checkpoint}. {@code layout3}: read from where
     * layout 3 kept checkpoints, so the first transaction writes the shard's own item on condition that
     * layout 3's is still there.
     */
    public record Position(String sequence, boolean closed, String pending, int done, boolean layout3, String pendingSums) {
        public static final Position START = new Position(null, false, null, 0);

        public Position(String sequence, boolean closed, String pending, int done) {
            this(sequence, closed, pending, done, false, null);
        }
    }

    private static final int ATTEMPTS = 3;

    private final DynamoDbAsyncClient dynamo;
    private final String table;
    private final CallContext context;
    private final TopLists topLists;
    /** Totals this process saw reach their month's floor: their next update is sent as a candidate first. */
    private final java.util.Set<String> atFloor = java.util.concurrent.ConcurrentHashMap.newKeySet();

    public ShardCounter(DynamoDbAsyncClient dynamo, String table, CallContext context) {
        this.dynamo = dynamo;
        this.table = table;
        this.context = context;
        this.topLists = new TopLists(dynamo, table);
    }

    /** The shard's checkpoint, read consistently (where layout 3 kept it, when the shard has none of its own yet). */
    public Position position(String shardId) {
        Map<String, AttributeValue> item = read(TableModel.checkpointKey(shardId));
        if (item != null) {
            TableModel.Checkpoint stored = TableModel.CHECKPOINT.decode(item);
            return new Position(stored.sequenceNumber(), stored.closed(), stored.pending(),
                    stored.done() == null ? 0 : stored.done(), false, stored.pendingSums());
        }
        Map<String, AttributeValue> layout3 = read(TableModel.layout3CheckpointKey(shardId));
        if (layout3 == null) {
            return Position.START;
        }
        TableModel.Checkpoint stored = TableModel.CHECKPOINT.decode(layout3);
        return new Position(stored.sequenceNumber(), stored.closed(), null, 0, true, null);
    }

    private Map<String, AttributeValue> read(Map<String, AttributeValue> key) {
        var response = dynamo.getItem(GetItemRequest.builder().tableName(table).key(key).consistentRead(true).build()).join();
        return response.hasItem() && !response.item().isEmpty() ? response.item() : null;
    }

    /**
     * Counts {@code streams}, the records that count among those after {@code at} up to {@code to}, and moves
     * the checkpoint to {@code to} ({@code closing}: the shard is read to its end). When {@code at} has a
     * pending batch, {@code to} must be its end and {@code streams} its records: the transactions it has
     * in are skipped. Throws {@link IllegalStateException} when another reader moved the checkpoint.
     */
    public void count(String shardId, Position at, List<Counted> streams, String to, boolean closing) {
        count(shardId, at, sum(streams), to, closing);
    }

    /** Each total's streams among {@code streams}. */
    public static Map<Counted, Long> sum(List<Counted> streams) {
        Map<Counted, Long> sums = new HashMap<>();
        streams.forEach(stream -> sums.merge(stream, 1L, Long::sum));
        return sums;
    }

    /**
     * As {@link #count(String, Position, List, String, boolean)}, the streams already summed per total: what a
     * reader that keeps a window of several batches hands over (Lambda's tumbling window, the in-process
     * aggregator's pass). The sums must be those of exactly the records after {@code at} up to {@code to}.
     */
    public void count(String shardId, Position at, Map<Counted, Long> counts, String to, boolean closing) {
        if (at.pending() != null && !at.pending().equals(to)) {
            throw new IllegalArgumentException("Shard " + shardId + " has a batch to " + at.pending() + " pending, not " + to);
        }
        Map<String, Long> sums = new TreeMap<>(); // key order: the same transactions whoever sums the batch
        Map<String, Counted> byKey = new HashMap<>();
        counts.forEach((total, streams) -> {
            String key = total.movieId().value() + "|" + total.month();
            sums.merge(key, streams, Long::sum);
            byKey.putIfAbsent(key, total);
        });
        // What a reader finishing this batch must have summed too: a window's sums come from a state Lambda keeps,
        // and a batch finished with other sums would commit other transactions under the same checkpoints.
        String digest = sums.size() + " totals, " + sums.values().stream().mapToLong(Long::longValue).sum() + " streams";
        if (at.pending() != null && at.pendingSums() != null && !at.pendingSums().equals(digest)) {
            throw new IllegalStateException("Shard " + shardId + " has a batch to " + at.pending() + " pending of "
                    + at.pendingSums() + ", and this reader summed " + digest + "; it is finished only with its own records");
        }
        List<List<String>> units = new ArrayList<>();
        List<String> keys = new ArrayList<>(sums.keySet());
        for (int from = 0; from < keys.size(); from += MAX_TOTALS_PER_TRANSACTION) {
            units.add(keys.subList(from, Math.min(keys.size(), from + MAX_TOTALS_PER_TRANSACTION)));
        }
        if (units.isEmpty()) {
            units.add(List.of()); // nothing counted: the checkpoint still moves (a closed shard, say)
        }
        // Totals whose new count reached their month's floor: merged into the month's top list once every
        // transaction is in. A reader finishing a batch another began does not know that one's guesses: it
        // offers every total of the transactions already in (the merge reads them back and keeps those that
        // reach the floor).
        java.util.Set<String> candidates = new java.util.TreeSet<>();
        for (int i = 1; at.pending() != null && i <= Math.min(at.done(), units.size()); i++) {
            candidates.addAll(units.get(i - 1));
        }
        boolean merging = at.pending() != null && at.done() >= units.size(); // only the merge was left
        for (int i = at.pending() == null ? 1 : at.done() + 1; i <= units.size(); i++) {
            List<String> unit = units.get(i - 1);
            Map<String, String> titles = titles(unit.stream().map(key -> byKey.get(key).movieId()).distinct().toList());
            boolean last = i == units.size();
            Map<String, Boolean> ranked = new HashMap<>();
            for (int attempt = 1; ; attempt++) {
                List<TransactWriteItem> items = new ArrayList<>();
                List<String> written = new ArrayList<>();
                for (String key : unit) {
                    Counted total = byKey.get(key);
                    String title = titles.get(total.movieId().value());
                    if (title == null) {
                        continue; // a movie deleted since: its streams are dropped with it
                    }
                    long count = sums.get(key);
                    long floor = topLists.floor(total.month(), context);
                    boolean rank = ranked.computeIfAbsent(key, k -> count >= floor || atFloor.contains(k));
                    items.add(TransactWriteItem.builder().update(StreamWrites.totalIncrement(table,
                            total.movieId(), total.month(), title, count, floor, rank)).build());
                    written.add(key);
                }
                if (at.layout3() && i == 1) {
                    // The shard's first checkpoint of its own: layout 3's must still say where this batch starts.
                    Expression from = Expression.of(Condition.equal(SEQUENCE, fromS(at.sequence())));
                    items.add(TransactWriteItem.builder().conditionCheck(ConditionCheck.builder().tableName(table)
                            .key(TableModel.layout3CheckpointKey(shardId)).conditionExpression(from.condition())
                            .expressionAttributeNames(from.names())
                            .expressionAttributeValues(from.values()).build()).build());
                }
                // The last transaction moves the checkpoint to the batch's end, unless the top lists still need a merge:
                // then it records the batch as wholly in (done = units) and the merge's end moves it (below).
                merging = last && (!candidates.isEmpty() || written.stream().anyMatch(ranked::get));
                TableModel.Checkpoint next = last && !merging ? new TableModel.Checkpoint(shardId, to, closing)
                        : new TableModel.Checkpoint(shardId, at.sequence(), false, to, i, digest);
                items.add(TransactWriteItem.builder().put(checkpointPut(next, at, to, i)).build());
                try {
                    ConditionalWrites.transact(dynamo, context, Access.AGGREGATE_TOTALS, items);
                    written.stream().filter(ranked::get).forEach(candidates::add);
                    break;
                } catch (TransactionCanceledException e) {
                    List<String> wrongGuesses = new ArrayList<>();
                    boolean checkpointMoved = failed(e, items.size() - 1) || at.layout3() && i == 1 && failed(e, items.size() - 2);
                    if (throttled(e)) {
                        throw new IllegalStateException("DynamoDB throttled the totals of shard " + shardId
                                + "; the batch is counted again from the checkpoint", e);
                    }
                    for (int item = 0; item < written.size(); item++) {
                        if (failed(e, item)) {
                            wrongGuesses.add(written.get(item));
                        }
                    }
                    if (checkpointMoved || wrongGuesses.isEmpty() || attempt == ATTEMPTS) {
                        // Someone else moved this shard's checkpoint: their count stands, start over from it.
                        throw new IllegalStateException("The checkpoint of shard " + shardId + " moved under this reader", e);
                    }
                    for (String key : wrongGuesses) { // a total at or past its floor, or (rarely) one still below it
                        boolean rank = !ranked.get(key);
                        ranked.put(key, rank);
                        if (rank) {
                            if (atFloor.size() > 100_000) {
                                atFloor.clear();
                            }
                            atFloor.add(key);
                        }
                    }
                }
            }
        }
        if (merging) {
            mergeThenFinish(shardId, candidates.stream().map(byKey::get).toList(), to, closing, units.size());
        }
    }

    /**
     * Merges the candidates into their months' top lists (idempotent: a reader that dies here leaves the batch
     * pending with every transaction in, and the next one merges again), then moves the checkpoint to the
     * batch's end on condition that the batch is still the one pending with all its transactions in.
     */
    private void mergeThenFinish(String shardId, List<Counted> candidates, String to, boolean closing, int units) {
        Map<YearMonth, List<MovieId>> byMonth = new TreeMap<>();
        candidates.forEach(total -> byMonth.computeIfAbsent(total.month(), month -> new ArrayList<>()).add(total.movieId()));
        try {
            byMonth.forEach((month, movies) -> topLists.merge(month, movies, context));
        } catch (RuntimeException e) {
            throw new IllegalStateException("The top lists of shard " + shardId + "'s batch were not merged; the batch "
                    + "is finished again from the checkpoint", e);
        }
        Expression wholly = Expression.of(Condition.equal(PENDING, fromS(to))
                .and(Condition.equal(DONE, fromN(Integer.toString(units)))));
        PutItemRequest.Builder finish = PutItemRequest.builder().tableName(table)
                .item(TableModel.CHECKPOINT.encode(new TableModel.Checkpoint(shardId, to, closing)))
                .conditionExpression(wholly.condition())
                .expressionAttributeNames(wholly.names())
                .expressionAttributeValues(wholly.values());
        if (!ConditionalWrites.putIf(dynamo, context, Access.FINISH_BATCH, finish)) {
            throw new IllegalStateException("The checkpoint of shard " + shardId + " moved under this reader");
        }
    }

    private static boolean throttled(TransactionCanceledException e) {
        return e.hasCancellationReasons() && e.cancellationReasons().stream().anyMatch(reason -> "ThrottlingError".equals(reason.code()));
    }

    private static boolean failed(TransactionCanceledException e, int item) {
        return e.hasCancellationReasons() && e.cancellationReasons().size() > item
                && "ConditionalCheckFailed".equals(e.cancellationReasons().get(item).code());
    }

    /** The checkpoint's write for transaction {@code i} of a batch from {@code at} to {@code to}, on its condition. */
    private Put checkpointPut(TableModel.Checkpoint next, Position at, String to, int i) {
        Condition condition;
        if (i > 1) {
            condition = Condition.equal(PENDING, fromS(to)).and(Condition.equal(DONE, fromN(Integer.toString(i - 1))));
        } else if (at.sequence() == null || at.layout3()) {
            condition = Condition.notExists(SEQUENCE).and(Condition.notExists(PENDING));
        } else {
            condition = Condition.equal(SEQUENCE, fromS(at.sequence())).and(Condition.notExists(PENDING));
        }
        Expression expression = Expression.of(condition);
        return Put.builder().tableName(table).item(TableModel.CHECKPOINT.encode(next))
                .conditionExpression(expression.condition())
                .expressionAttributeNames(expression.names()).expressionAttributeValues(expression.values()).build();
    }

    /** The current title of each movie that still exists. */
    private Map<String, String> titles(List<MovieId> movieIds) {
        if (movieIds.isEmpty()) {
            return Map.of();
        }
        List<Map<String, AttributeValue>> keys = movieIds.stream().map(TableModel::movieKey).toList();
        Map<String, String> titles = new HashMap<>();
        Batches.GetResult read = new Batches(dynamo, table).getAll(keys, context).join();
        if (!read.unprocessed().isEmpty()) {
            // Unread is not deleted: dropping their sums would lose streams. The batch is counted again.
            throw new IllegalStateException(read.unprocessed().size() + " movies of a batch could not be read; it is counted again");
        }
        for (Map<String, AttributeValue> item : read.items()) {
            dev.moviegraph.catalog.Movie movie = TableModel.MOVIE.decode(item);
            titles.put(movie.id().value(), movie.title());
        }
        return titles;
    }

    private static final String SEQUENCE = TableModel.CHECKPOINT.attribute("sequenceNumber");
    private static final String PENDING = TableModel.CHECKPOINT.attribute("pending");
    private static final String DONE = TableModel.CHECKPOINT.attribute("done");
}
