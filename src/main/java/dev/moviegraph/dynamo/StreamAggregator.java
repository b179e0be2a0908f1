package dev.moviegraph.dynamo;

import static software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromS;

import dev.moviegraph.catalog.CallContext;
import dev.moviegraph.catalog.CallObserver;
import dev.moviegraph.catalog.MovieId;

import java.math.BigInteger;
import java.time.Duration;
import java.time.YearMonth;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletionException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsRequest;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsResponse;
import software.amazon.awssdk.services.dynamodb.model.GetShardIteratorRequest;
import software.amazon.awssdk.services.dynamodb.model.OperationType;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.Shard;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsAsyncClient;

/**
 * TOTALS=stream: reads the table's change stream and adds the new stream items up into the monthly
 * totals, per movie and month, in batches. Each batch is one transaction that also moves the shard's
 * checkpoint (an item in the table) from the sequence number the batch started after to the last one
 * it covers, on condition that the checkpoint is still where it was. So a crash before the commit
 * repeats the batch from the old checkpoint, a crash after it resumes after the batch, and a second
 * aggregator on the same shard loses the race instead of counting twice: every stream is counted
 * exactly once. Parent shards are drained before their children, which keeps per-key order.
 */
public final class StreamAggregator implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(StreamAggregator.class);
    /** Totals per transaction: DynamoDB allows 100 items, one is the checkpoint. */
    static final int MAX_TOTALS_PER_BATCH = 99;
    private static final Duration IDLE = Duration.ofMillis(200);

    private final DynamoDbAsyncClient dynamo;
    private final DynamoDbStreamsAsyncClient streams;
    private final String table;
    private final String streamArn;
    private final CallContext context;
    /** How far this aggregator has read each shard, which may be past its checkpoint (see drain). */
    private final Map<String, Cursor> cursors = new HashMap<>();
    /** Shards whose refusal was logged already (DynamoDB Local refuses an iterator after its newest record). */
    private final Set<String> refusedOnce = new HashSet<>();
    private volatile boolean running;
    private Thread thread;

    public StreamAggregator(DynamoDbAsyncClient dynamo, DynamoDbStreamsAsyncClient streams, String table,
                            String streamArn, CallObserver observer) {
        this.dynamo = dynamo;
        this.streams = streams;
        this.table = table;
        this.streamArn = streamArn;
        this.context = new CallContext(observer, List.of("aggregator"));
    }

    public synchronized StreamAggregator start() {
        running = true;
        thread = new Thread(this::run, "moviegraph-aggregator");
        thread.setDaemon(true);
        thread.start();
        LOG.info("Stream aggregator started on {}", streamArn);
        return this;
    }

    /** Stops after the batch in hand; what it has not committed is counted by the next aggregator. */
    @Override
    public synchronized void close() {
        running = false;
        if (thread != null) {
            thread.interrupt();
            try {
                thread.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void run() {
        while (running) {
            try {
                if (!drainAll()) {
                    Thread.sleep(IDLE.toMillis());
                }
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                if (!running) {
                    return;
                }
                LOG.warn("Stream aggregation failed; starting over from the checkpoints", e);
                cursors.clear();
                try {
                    Thread.sleep(1_000);
                } catch (InterruptedException interrupted) {
                    return;
                }
            }
        }
    }

    /** One pass over every open shard; true when anything was counted or checkpointed. */
    boolean drainAll() {
        List<Shard> shards = shards();
        Set<String> open = new HashSet<>();
        Map<String, Checkpoint> checkpoints = new HashMap<>();
        for (Shard shard : shards) {
            Checkpoint checkpoint = checkpoint(shard.shardId());
            checkpoints.put(shard.shardId(), checkpoint);
            if (!checkpoint.closed()) {
                open.add(shard.shardId());
            }
        }
        boolean progressed = false;
        for (Shard shard : shards) {
            boolean parentPending = shard.parentShardId() != null && open.contains(shard.parentShardId());
            if (open.contains(shard.shardId()) && !parentPending && running) {
                progressed |= drain(shard, checkpoints.get(shard.shardId()));
            }
        }
        return progressed;
    }

    private List<Shard> shards() {
        return StreamShards.all(streams, streamArn);
    }

    /**
     * Reads the shard from where this aggregator last was (or its checkpoint) to its current end. Only
     * batches that count something are committed: the checkpoint item is itself written to the table,
     * so committing after records that count nothing (the checkpoints' own) would feed itself forever.
     * Records passed over that way are only read again after a restart, and they count nothing.
     */
    private boolean drain(Shard shard, Checkpoint checkpoint) {
        String shardId = shard.shardId();
        Cursor cursor = cursors.get(shardId);
        String seen = cursor != null ? cursor.seen() : checkpoint.sequence();
        String ending = shard.sequenceNumberRange() == null ? null : shard.sequenceNumberRange().endingSequenceNumber();
        if (ending != null && seen != null && new BigInteger(seen).compareTo(new BigInteger(ending)) >= 0) {
            // Read to its end and closed: no iterator after its last record is needed, the children take over.
            commit(shardId, Map.of(), checkpoint.sequence(), seen, true);
            cursors.remove(shardId);
            return true;
        }
        boolean fresh = cursor == null || cursor.iterator() == null;
        String iterator = fresh ? iteratorAfter(shardId, seen) : cursor.iterator();
        // A fresh iterator may start before where this aggregator was (see iteratorAfter): skip that part.
        BigInteger skipUpTo = fresh && seen != null ? new BigInteger(seen) : null;
        boolean progressed = false;
        String persisted = checkpoint.sequence();
        while (iterator != null && running) {
            GetRecordsResponse page = streams.getRecords(GetRecordsRequest.builder().shardIterator(iterator)
                    .limit(1000).build()).join();
            if (page.records().isEmpty()) {
                if (page.nextShardIterator() == null) {
                    commit(shardId, Map.of(), persisted, seen, true);
                    cursors.remove(shardId);
                    return true;
                }
                // Not the next iterator: after an empty read DynamoDB Local's one never sees later
                // records. The next pass asks for a fresh one after the last record read.
                cursors.put(shardId, new Cursor(null, seen));
                return progressed;
            }
            List<Record> unread = page.records().stream().filter(record -> skipUpTo == null
                    || new BigInteger(record.dynamodb().sequenceNumber()).compareTo(skipUpTo) > 0).toList();
            Batch batch = apply(shardId, unread, persisted);
            seen = page.records().get(page.records().size() - 1).dynamodb().sequenceNumber();
            persisted = batch.persisted();
            progressed |= batch.counted();
            iterator = page.nextShardIterator();
            cursors.put(shardId, new Cursor(iterator, seen));
        }
        return progressed;
    }

    /**
     * An iterator just after {@code sequence}, or at the start of the shard when there is none. DynamoDB
     * Local refuses AFTER_SEQUENCE_NUMBER for the newest record of a shard; then the shard is read from
     * its start and the records up to {@code sequence} are skipped by number (real DynamoDB accepts it).
     */
    private String iteratorAfter(String shardId, String sequence) {
        GetShardIteratorRequest.Builder start = GetShardIteratorRequest.builder().streamArn(streamArn).shardId(shardId);
        if (sequence != null) {
            try {
                return streams.getShardIterator(start.shardIteratorType(ShardIteratorType.AFTER_SEQUENCE_NUMBER)
                        .sequenceNumber(sequence).build()).join().shardIterator();
            } catch (CompletionException e) {
                if (!(e.getCause() instanceof DynamoDbException refused) || refused.getMessage() == null
                        || !refused.getMessage().contains("SequenceNumber")) {
                    throw e;
                }
                if (refusedOnce.add(shardId)) {
                    LOG.info("Shard {} refused an iterator after {}; reading it from its start (and so on for "
                            + "this shard, logged once)", shardId, sequence);
                }
            }
        }
        return streams.getShardIterator(GetShardIteratorRequest.builder().streamArn(streamArn).shardId(shardId)
                .shardIteratorType(ShardIteratorType.TRIM_HORIZON).build()).join().shardIterator();
    }

    /** Where this aggregator is in a shard: the next iterator (null: get a fresh one) and the last record read. */
    private record Cursor(String iterator, String seen) {
    }

    /** What a page did: the checkpoint stored, and whether anything counted. */
    private record Batch(String persisted, boolean counted) {
    }

    /** Counts a page of records in batches of at most 99 totals, each committed with its checkpoint. */
    private Batch apply(String shardId, List<Record> records, String persisted) {
        Map<List<String>, Long> counts = new LinkedHashMap<>();
        String from = persisted;
        String last = null;
        boolean counted = false;
        for (Record record : records) {
            Map<String, AttributeValue> image = record.dynamodb().newImage();
            if (record.eventName() == OperationType.INSERT && image != null
                    && TableModel.is(image, TableModel.STREAM)) {
                TableModel.StoredStream stream = TableModel.STREAM.decode(image);
                List<String> key = List.of(stream.movieId().value(), stream.month().toString());
                if (!counts.containsKey(key) && counts.size() == MAX_TOTALS_PER_BATCH) {
                    commit(shardId, counts, from, last, false);
                    counts.clear();
                    from = last;
                }
                counts.merge(key, 1L, Long::sum);
                counted = true;
            }
            last = record.dynamodb().sequenceNumber();
        }
        if (!counts.isEmpty()) {
            commit(shardId, counts, from, last, false);
            from = last;
        }
        return new Batch(from, counted);
    }

    /**
     * Adds the counts to their totals and moves the checkpoint from {@code from} to {@code to} in one
     * transaction. Streams of a movie deleted since are dropped; a new total copies the movie's title.
     */
    private void commit(String shardId, Map<List<String>, Long> counts, String from, String to, boolean closed) {
        List<TransactWriteItem> items = new ArrayList<>();
        Map<String, String> titles = titles(counts.keySet().stream().map(key -> key.get(0)).distinct().toList());
        for (Map.Entry<List<String>, Long> count : counts.entrySet()) {
            String title = titles.get(count.getKey().get(0));
            if (title != null) {
                items.add(TransactWriteItem.builder().update(DynamoCatalogWriter.totalIncrement(table,
                        MovieId.of(count.getKey().get(0)), YearMonth.parse(count.getKey().get(1)), title,
                        count.getValue())).build());
            }
        }
        Map<String, AttributeValue> checkpoint = TableModel.CHECKPOINT.encode(
                new TableModel.Checkpoint(shardId, to, closed));
        Put.Builder put = Put.builder().tableName(table).item(checkpoint)
                .expressionAttributeNames(Map.of("#sequence", SEQUENCE));
        if (from == null) {
            put.conditionExpression("attribute_not_exists(#sequence)");
        } else {
            put.conditionExpression("#sequence = :from").expressionAttributeValues(Map.of(":from", fromS(from)));
        }
        items.add(TransactWriteItem.builder().put(put.build()).build());
        try {
            DynamoCatalogWriter.transact(dynamo, context, Access.AGGREGATE_TOTALS, items);
        } catch (TransactionCanceledException e) {
            // Someone else moved this shard's checkpoint: their count stands, start over from it.
            throw new IllegalStateException("The checkpoint of shard " + shardId + " moved under this aggregator", e);
        }
    }

    /** The current title of each movie that still exists. */
    private Map<String, String> titles(List<String> movieIds) {
        if (movieIds.isEmpty()) {
            return Map.of();
        }
        List<Map<String, AttributeValue>> keys = movieIds.stream().map(id -> TableModel.movieKey(MovieId.of(id))).toList();
        Map<String, String> titles = new HashMap<>();
        for (Map<String, AttributeValue> item : new Batches(dynamo, table).getAll(keys, context).join().items()) {
            dev.moviegraph.catalog.Movie movie = TableModel.MOVIE.decode(item);
            titles.put(movie.id().value(), movie.title());
        }
        return titles;
    }

    private Checkpoint checkpoint(String shardId) {
        var response = dynamo.getItem(GetItemRequest.builder().tableName(table).key(TableModel.checkpointKey(shardId))
                .consistentRead(true).build()).join();
        if (!response.hasItem() || response.item().isEmpty()) {
            return new Checkpoint(null, false);
        }
        TableModel.Checkpoint stored = TableModel.CHECKPOINT.decode(response.item());
        return new Checkpoint(stored.sequenceNumber(), stored.closed());
    }

    /** The checkpoint's attribute its conditional writes compare, as the table model names it. */
    private static final String SEQUENCE = TableModel.CHECKPOINT.attribute("sequenceNumber");

    private record Checkpoint(String sequence, boolean closed) {
    }
}
