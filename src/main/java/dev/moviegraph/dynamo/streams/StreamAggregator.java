package dev.moviegraph.dynamo.streams;

import dev.moviegraph.catalog.CallContext;
import dev.moviegraph.catalog.CallObserver;
import dev.moviegraph.dynamo.model.TableModel;

import java.math.BigInteger;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsRequest;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsResponse;
import software.amazon.awssdk.services.dynamodb.model.OperationType;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.Shard;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsAsyncClient;

/**
 * TOTALS=stream, in process: reads the table's change stream, every shard in turn (parents drained
 * before their children, which keeps per-key order), and has each shard's window (what it holds when
 * read, up to {@value #MAX_WINDOW_TOTALS} totals, as a Lambda's tumbling window state would) counted
 * by a {@link ShardCounter}, exactly once whatever stops or races it. The embedded default runs one in
 * the gateway; at scale the same counting runs in a Lambda function per shard (see
 * docs/operations.md), and gateways set AGGREGATOR=off.
 */
public final class StreamAggregator implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(StreamAggregator.class);
    private static final Duration IDLE = Duration.ofMillis(200);

    private final DynamoDbStreamsAsyncClient streams;
    private final String streamArn;
    private final ShardCounter counter;
    private final ShardRecords records;
    /** How far this aggregator has read each shard, which may be past its checkpoint (see drain). */
    private final Map<String, Cursor> cursors = new HashMap<>();
    /** Shards whose refusal was logged already (DynamoDB Local refuses an iterator after its newest record). */
    private final Set<String> refusedOnce = new HashSet<>();
    private volatile boolean running;
    private Thread thread;

    public StreamAggregator(DynamoDbAsyncClient dynamo, DynamoDbStreamsAsyncClient streams, String table,
                            String streamArn, CallObserver observer) {
        this.streams = streams;
        this.records = new ShardRecords(streams, streamArn);
        this.streamArn = streamArn;
        this.counter = new ShardCounter(dynamo, table, new CallContext(observer, List.of("aggregator")));
    }

    public synchronized StreamAggregator start() {
        running = true;
        thread = new Thread(this::run, "moviegraph-aggregator");
        thread.setDaemon(true);
        thread.start();
        LOG.info("Stream aggregator started on {}", streamArn);
        return this;
    }

    /**
     * One pass over the stream without a thread of its own: what a Lambda invocation per shard does, for a
     * caller that decides when (the capacity benchmark, once per simulated second).
     */
    public boolean countOnce(Window window) {
        running = true;
        try {
            return drainAll(window);
        } catch (RuntimeException e) {
            cursors.clear(); // as the thread does: the next pass starts over from the checkpoints
            throw e;
        } finally {
            running = false;
        }
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
                if (!drainAll(Window.DEFAULT)) {
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

    /**
     * One pass over every open shard, parents before children; true when anything was counted or
     * checkpointed. Each shard is read to its current end in windows (see {@link Window}), each counted by
     * the {@link ShardCounter} in one go.
     */
    public boolean drainAll(Window window) {
        List<Shard> shards = shards();
        Set<String> open = new HashSet<>();
        Map<String, ShardCounter.Position> positions = new HashMap<>();
        for (Shard shard : shards) {
            ShardCounter.Position position = counter.position(shard.shardId());
            positions.put(shard.shardId(), position);
            if (!position.closed()) {
                open.add(shard.shardId());
            }
        }
        boolean progressed = false;
        for (Shard shard : shards) {
            boolean parentPending = shard.parentShardId() != null && open.contains(shard.parentShardId());
            if (open.contains(shard.shardId()) && !parentPending && running) {
                progressed |= drain(shard, positions.get(shard.shardId()), window);
            }
        }
        return progressed;
    }

    private List<Shard> shards() {
        return StreamShards.all(streams, streamArn);
    }

    /**
     * Reads the shard from where this aggregator last was (or its checkpoint) to its current end, batch by
     * batch. A batch with a stream in it is counted and moves the checkpoint; one without is not committed:
     * the checkpoint item is itself written to the table, so committing after records that count nothing
     * (the checkpoints' own) would feed itself forever. Records passed over that way are read again only
     * after a restart, and they count nothing. A batch the checkpoint says is pending (a reader stopped
     * between its transactions) is read again, exactly to its end, and finished first.
     */
    private boolean drain(Shard shard, ShardCounter.Position position, Window window) {
        String shardId = shard.shardId();
        Cursor cursor = position.pending() != null ? null : cursors.get(shardId);
        if (cursor != null && position.sequence() != null && (cursor.seen() == null
                || new BigInteger(position.sequence()).compareTo(new BigInteger(cursor.seen())) > 0)) {
            cursor = null; // another reader counted past where this one was: go on from the checkpoint, not twice
        }
        String seen = cursor != null ? cursor.seen() : position.sequence();
        String ending = shard.sequenceNumberRange() == null ? null : shard.sequenceNumberRange().endingSequenceNumber();
        if (position.pending() == null && ending != null && seen != null
                && new BigInteger(seen).compareTo(new BigInteger(ending)) >= 0) {
            // Read to its end and closed: no iterator after its last record is needed, the children take over.
            counter.count(shardId, position, List.of(), seen, true);
            cursors.remove(shardId);
            return true;
        }
        boolean fresh = cursor == null || cursor.iterator() == null;
        String iterator = fresh ? iteratorAfter(shardId, seen) : cursor.iterator();
        // A fresh iterator may start before where this aggregator was (see iteratorAfter): skip that part.
        BigInteger skipUpTo = fresh && seen != null ? new BigInteger(seen) : null;
        BigInteger pendingEnd = position.pending() == null ? null : new BigInteger(position.pending());
        Map<ShardCounter.Counted, Long> batch = new HashMap<>();
        long batchStreams = 0;
        long windowOpened = System.nanoTime();
        String last = null;
        boolean progressed = false;
        while (iterator != null && running) {
            // A page never takes a window past its streams: the window ends where the benchmark asked.
            int limit = pendingEnd != null ? 1000 : (int) Math.max(1, Math.min(1000, window.maxStreams() - batchStreams));
            GetRecordsResponse page = streams.getRecords(GetRecordsRequest.builder().shardIterator(iterator)
                    .limit(limit).build()).join();
            iterator = page.nextShardIterator();
            boolean reachedPending = false;
            for (Record record : page.records()) {
                BigInteger sequence = new BigInteger(record.dynamodb().sequenceNumber());
                if (skipUpTo != null && sequence.compareTo(skipUpTo) <= 0) {
                    continue;
                }
                if (pendingEnd != null && sequence.compareTo(pendingEnd) > 0) {
                    reachedPending = true;
                    break;
                }
                Map<String, AttributeValue> image = record.dynamodb().newImage();
                if (record.eventName() == OperationType.INSERT && image != null && TableModel.is(image, TableModel.STREAM)) {
                    TableModel.StoredStream stream = TableModel.STREAM.decode(image);
                    batch.merge(new ShardCounter.Counted(stream.movieId(), stream.month()), 1L, Long::sum);
                    batchStreams++;
                }
                last = record.dynamodb().sequenceNumber();
                if (pendingEnd != null && sequence.equals(pendingEnd)) {
                    reachedPending = true;
                    break;
                }
            }
            boolean closed = iterator == null && !reachedPending;
            // A pending batch is read exactly to its end; any other is a window: as much as the shard has now,
            // up to what Lambda's state would hold, the window's streams or its time.
            boolean full = pendingEnd != null ? reachedPending : batch.size() >= MAX_WINDOW_TOTALS
                    || batchStreams >= window.maxStreams() || System.nanoTime() - windowOpened >= window.maxAge().toNanos();
            if (!full && !closed && !page.records().isEmpty()) {
                if (last != null) {
                    seen = last;
                }
                cursors.put(shardId, new Cursor(iterator, seen));
                continue; // more of this batch to read
            }
            if (pendingEnd != null && !reachedPending) {
                throw new IllegalStateException("Shard " + shardId + " ended before its pending batch's last record "
                        + position.pending() + "; the stream may have trimmed it");
            }
            String to = last != null ? last : seen;
            if (!batch.isEmpty() || pendingEnd != null || closed) {
                counter.count(shardId, position, batch, to, closed);
                position = new ShardCounter.Position(to, closed, null, 0);
                progressed = true;
                batch.clear();
                batchStreams = 0;
                windowOpened = System.nanoTime();
                pendingEnd = null;
            }
            seen = to;
            last = null;
            if (closed) {
                cursors.remove(shardId); // the children take over
                return progressed;
            }
            if (reachedPending || page.records().isEmpty()) {
                // Records past a pending batch were left in this page, or DynamoDB Local's iterator after an
                // empty read never sees later records: the next pass asks for a fresh one after the last read.
                cursors.put(shardId, new Cursor(null, seen));
                return progressed;
            }
            cursors.put(shardId, new Cursor(iterator, seen));
        }
        return progressed;
    }

    /** An iterator just after {@code sequence}, or at the shard's start (see {@link ShardRecords#iteratorAfter}). */
    private String iteratorAfter(String shardId, String sequence) {
        return records.iteratorAfter(shardId, sequence, () -> {
            if (refusedOnce.add(shardId)) {
                LOG.info("Shard {} refused an iterator after {}; reading it from its start (and so on for "
                        + "this shard, logged once)", shardId, sequence);
            }
        });
    }

    /** Where this aggregator is in a shard: the next iterator (null: get a fresh one) and the last record read. */
    private record Cursor(String iterator, String seen) {
    }

    /** Totals a window sums at most: about what Lambda's state (1 MB a shard) holds. */
    static final int MAX_WINDOW_TOTALS = 20_000;

    /**
     * When a shard's window is counted, besides when the shard has nothing more to read now or the window
     * has {@value #MAX_WINDOW_TOTALS} totals: after {@code maxStreams} streams, or {@code maxAge} after it
     * opened. Each window moves the month's best totals once in the top index, so fewer, longer windows
     * are what lets the top list take more streams a second.
     */
    public record Window(long maxStreams, Duration maxAge) {
        /** The gateway's own: counted within about a second, as before windows. */
        public static final Window DEFAULT = new Window(Long.MAX_VALUE, Duration.ofSeconds(1));
    }
}
