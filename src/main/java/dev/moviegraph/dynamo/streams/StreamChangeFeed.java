package dev.moviegraph.dynamo.streams;

import static software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromN;
import static software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromS;

import dev.moviegraph.catalog.CatalogChanges;
import dev.moviegraph.catalog.ChangeFeed;
import dev.moviegraph.dynamo.model.Condition;
import dev.moviegraph.dynamo.model.Expression;
import dev.moviegraph.dynamo.model.TableModel;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsRequest;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsResponse;
import software.amazon.awssdk.services.dynamodb.model.GetShardIteratorRequest;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.Shard;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsAsyncClient;

/**
 * The table's changes for every replica, with one stream reader per shard whatever the number of
 * replicas. DynamoDB throttles a third reader of a stream shard, so replicas cannot each read the
 * stream. Two ways, one log ({@link ChangeLog}) that every replica with subscribers polls:
 * <ul>
 * <li>{@link #readingTheStream}: the replicas that have subscribers compete for a lease (an item, taken
 * and renewed with conditional writes); its holder reads every shard and publishes what changed. A new
 * holder starts at the stream's end and first publishes "everything", so what nobody read in between is
 * made good by reading the subscriptions again, never lost. With the in-process aggregator
 * (TOTALS=stream) that is two readers per shard. For one table and a few replicas.</li>
 * <li>{@link #publishedElsewhere}: at scale, the Lambda function that reads each shard
 * ({@code lambda/CountStreamsHandler} or {@code lambda/PublishChangesHandler}) publishes its batches'
 * changes; the replicas read no stream at all.</li>
 * </ul>
 */
public final class StreamChangeFeed implements ChangeFeed {
    private static final Logger LOG = LoggerFactory.getLogger(StreamChangeFeed.class);
    /** Not "change-feed", the lease of the versions before the log: an old holder publishes where only old replicas read. */
    static final String LEASE_NAME = "change-log";
    static final Duration POLL = Duration.ofMillis(250);
    /** A holder that stops renewing is replaced after this. */
    static final Duration LEASE_TIME = Duration.ofSeconds(10);
    private static final Duration RENEW_EVERY = Duration.ofSeconds(3);
    private static final Duration TRY_LEASE_EVERY = Duration.ofSeconds(1);
    private static final Duration REDISCOVER_SHARDS = Duration.ofSeconds(5);

    private final DynamoDbAsyncClient dynamo;
    private final ChangeLog log;
    private final DynamoDbStreamsAsyncClient streams;
    private final String table;
    private final String streamArn;
    private final Clock clock;
    private final String owner = UUID.randomUUID().toString();
    private final List<Consumer<CatalogChanges>> listeners = new CopyOnWriteArrayList<>();
    private final Object lifecycle = new Object();
    private volatile boolean running;
    private Thread thread;

    // State of the feed thread only.
    /** Where this replica is in the log; null without listeners. Set and cleared under {@link #lifecycle}. */
    private volatile ChangeLog.Reader reader;
    private long term;
    private long leaseExpiresAt;
    private long nextLeaseAttempt;
    private long nextDiscovery;
    /** The open shards the holder reads, by id: the next iterator. */
    private final Map<String, String> iterators = new LinkedHashMap<>();
    private final Set<String> finished = new HashSet<>();

    private StreamChangeFeed(DynamoDbAsyncClient dynamo, DynamoDbStreamsAsyncClient streams, String table,
                             String streamArn, Clock clock) {
        this.dynamo = dynamo;
        this.log = new ChangeLog(dynamo, table, clock);
        this.streams = streams;
        this.table = table;
        this.streamArn = streamArn;
        this.clock = clock;
    }

    /** A feed whose replicas with subscribers take turns (a lease) reading the stream and publishing to the log. */
    public static StreamChangeFeed readingTheStream(DynamoDbAsyncClient dynamo, DynamoDbStreamsAsyncClient streams,
                                                    String table, String streamArn, Clock clock) {
        return new StreamChangeFeed(dynamo, streams, table, streamArn, clock);
    }

    /** A feed that only reads the log: something else (the Lambda function of each shard) publishes to it. */
    public static StreamChangeFeed publishedElsewhere(DynamoDbAsyncClient dynamo, String table, Clock clock) {
        return new StreamChangeFeed(dynamo, null, table, null, clock);
    }

    /**
     * Starts delivering to {@code listener} the changes numbered from now on: a reading of the catalog the
     * listener makes after this returns sees every change before. (When the log cannot be read now, the
     * feed's thread starts reading later and first delivers "everything".)
     */
    @Override
    public Registration listen(Consumer<CatalogChanges> listener) {
        synchronized (lifecycle) {
            listeners.add(listener);
            if (reader == null && !closedForGood) {
                try {
                    reader = log.reader();
                } catch (RuntimeException e) {
                    LOG.warn("Change feed: the log could not be read ({}); starting later", e.getMessage());
                }
            }
            if (thread == null && !closedForGood) {
                running = true;
                thread = new Thread(this::run, "moviegraph-change-feed");
                thread.setDaemon(true);
                thread.start();
            }
        }
        return () -> listeners.remove(listener);
    }

    private boolean closedForGood;

    /** Stops the thread and gives the lease up, so another replica takes over at once. */
    @Override
    public void close() {
        Thread stopping;
        synchronized (lifecycle) {
            closedForGood = true;
            running = false;
            stopping = thread;
            thread = null;
        }
        listeners.clear();
        if (stopping != null) {
            stopping.interrupt();
            try {
                stopping.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void run() {
        try {
            while (running) {
                try {
                    step();
                } catch (RuntimeException e) {
                    if (!running) {
                        break;
                    }
                    LOG.warn("Change feed: a step failed ({}); trying again", e.getMessage());
                    dropLeadership();
                    sleep(Duration.ofSeconds(1));
                }
                sleep(POLL);
            }
        } catch (InterruptedException e) {
            // closing
        } finally {
            release();
        }
    }

    private static void sleep(Duration duration) throws InterruptedException {
        Thread.sleep(duration.toMillis());
    }

    /** One round: the lease, the stream when holding it, then the feed. Idle without listeners. */
    void step() {
        if (listeners.isEmpty()) {
            release();
            synchronized (lifecycle) {
                if (listeners.isEmpty()) {
                    reader = null;
                }
            }
            return;
        }
        long now = clock.millis();
        if (streams != null && now >= nextLeaseAttempt) {
            lease(now);
        }
        if (term > 0) {
            readStream(now);
        }
        poll();
    }

    // ---- the lease

    private Map<String, AttributeValue> leaseKey() {
        return TableModel.LEASE.key(Map.of("name", LEASE_NAME));
    }

    private void lease(long now) {
        if (term > 0) {
            Put renew = on(leasePut(new TableModel.Lease(LEASE_NAME, owner, now + LEASE_TIME.toMillis(), term)),
                    heldByMe(term)).build();
            if (put(renew)) {
                leaseExpiresAt = now + LEASE_TIME.toMillis();
                nextLeaseAttempt = now + RENEW_EVERY.toMillis();
            } else {
                LOG.info("Change feed: the stream reader lease of term {} went to another replica", term);
                dropLeadership();
            }
            return;
        }
        nextLeaseAttempt = now + TRY_LEASE_EVERY.toMillis();
        var current = dynamo.getItem(GetItemRequest.builder().tableName(table).key(leaseKey()).consistentRead(true)
                .build()).join();
        TableModel.Lease held = current.hasItem() && !current.item().isEmpty()
                ? TableModel.LEASE.decode(current.item()) : null;
        if (held != null && held.heldUntil() > now) {
            return;
        }
        long next = held == null ? 1 : held.term() + 1;
        Put.Builder take = leasePut(new TableModel.Lease(LEASE_NAME, owner, now + LEASE_TIME.toMillis(), next));
        on(take, held == null ? Condition.notExists(TableModel.PK) : Condition.equal(TERM, fromN(Long.toString(held.term()))));
        if (put(take.build())) {
            term = next;
            leaseExpiresAt = now + LEASE_TIME.toMillis();
            nextLeaseAttempt = now + RENEW_EVERY.toMillis();
            startAtStreamEnd();
            LOG.info("Change feed: this replica reads the table's stream (lease term {})", term);
            // Whatever changed since the last holder stopped reading is unknown: everyone reads again.
            log.publish(CatalogChanges.EVERYTHING);
        }
    }

    private Put.Builder leasePut(TableModel.Lease lease) {
        return Put.builder().tableName(table).item(TableModel.LEASE.encode(lease));
    }

    /** This gateway still holds the lease, in {@code term}. */
    private Condition heldByMe(long term) {
        return Condition.equal(OWNER, fromS(owner)).and(Condition.equal(TERM, fromN(Long.toString(term))));
    }

    private static Put.Builder on(Put.Builder put, Condition condition) {
        Expression expression = Expression.of(condition);
        return put.conditionExpression(expression.condition()).expressionAttributeNames(expression.names())
                .expressionAttributeValues(expression.values());
    }

    private boolean put(Put put) {
        try {
            dynamo.putItem(PutItemRequest.builder().tableName(put.tableName()).item(put.item())
                    .conditionExpression(put.conditionExpression()).expressionAttributeNames(put.expressionAttributeNames())
                    .expressionAttributeValues(put.hasExpressionAttributeValues() ? put.expressionAttributeValues() : null)
                    .build()).join();
            return true;
        } catch (CompletionException e) {
            if (e.getCause() instanceof ConditionalCheckFailedException) {
                return false;
            }
            throw e;
        }
    }

    private void dropLeadership() {
        term = 0;
        iterators.clear();
        finished.clear();
    }

    /** Gives the lease up (expired at once) so a replica that still has subscribers takes it over. */
    private void release() {
        if (term == 0) {
            return;
        }
        long held = term;
        dropLeadership();
        try {
            put(on(leasePut(new TableModel.Lease(LEASE_NAME, owner, 0, held)), heldByMe(held)).build());
        } catch (RuntimeException e) {
            LOG.info("Change feed: could not give the lease up ({}); it expires in {} s", e.getMessage(),
                    LEASE_TIME.toSeconds());
        }
    }

    private static final String OWNER = TableModel.LEASE.attribute("owner");
    private static final String TERM = TableModel.LEASE.attribute("term");

    // ---- the stream (lease holder only)

    private void startAtStreamEnd() {
        iterators.clear();
        finished.clear();
        for (Shard shard : shards()) {
            boolean closed = shard.sequenceNumberRange() != null
                    && shard.sequenceNumberRange().endingSequenceNumber() != null;
            if (closed) {
                finished.add(shard.shardId());
            } else {
                iterators.put(shard.shardId(), iterator(shard.shardId(), ShardIteratorType.LATEST));
            }
        }
        nextDiscovery = clock.millis() + REDISCOVER_SHARDS.toMillis();
    }

    private List<Shard> shards() {
        return StreamShards.all(streams, streamArn);
    }

    private String iterator(String shardId, ShardIteratorType type) {
        return streams.getShardIterator(GetShardIteratorRequest.builder().streamArn(streamArn).shardId(shardId)
                .shardIteratorType(type).build()).join().shardIterator();
    }

    private void readStream(long now) {
        if (now >= nextDiscovery) {
            // Shards that opened since (a split, a new period) are read from their start.
            for (Shard shard : shards()) {
                if (!iterators.containsKey(shard.shardId()) && !finished.contains(shard.shardId())) {
                    iterators.put(shard.shardId(), iterator(shard.shardId(), ShardIteratorType.TRIM_HORIZON));
                }
            }
            nextDiscovery = now + REDISCOVER_SHARDS.toMillis();
        }
        ChangedKeys changed = new ChangedKeys();
        boolean lost = false;
        for (Map.Entry<String, String> shard : new ArrayList<>(iterators.entrySet())) {
            GetRecordsResponse page;
            try {
                page = streams.getRecords(GetRecordsRequest.builder().shardIterator(shard.getValue()).limit(1000)
                        .build()).join();
            } catch (CompletionException e) {
                // An expired iterator or trimmed data: start this shard again at its end, and say so.
                LOG.info("Change feed: shard {} could not be read on ({}); reading it from its end",
                        shard.getKey(), e.getCause() == null ? e.getMessage() : e.getCause().getMessage());
                iterators.put(shard.getKey(), iterator(shard.getKey(), ShardIteratorType.LATEST));
                lost = true;
                continue;
            }
            for (Record record : page.records()) {
                Map<String, AttributeValue> keys = record.dynamodb().keys();
                if (keys != null) {
                    changed.add(name -> keys.containsKey(name) ? keys.get(name).s() : null);
                }
            }
            if (page.nextShardIterator() == null) {
                iterators.remove(shard.getKey());
                finished.add(shard.getKey());
                nextDiscovery = 0;
            } else {
                iterators.put(shard.getKey(), page.nextShardIterator());
            }
        }
        log.publish(lost ? CatalogChanges.EVERYTHING : changed.changes());
    }

    // ---- the feed (every replica with listeners)

    /** Reads the log; a failure is logged and the same changes are read at the next poll (the lease is kept). */
    private void poll() {
        CatalogChanges changes;
        try {
            ChangeLog.Reader current = reader;
            if (current == null) {
                synchronized (lifecycle) {
                    if (reader == null) {
                        reader = log.lateReader();
                    }
                    current = reader;
                }
            }
            changes = current.poll();
        } catch (RuntimeException e) {
            LOG.warn("Change feed: the log could not be read ({}); reading it again", e.getMessage());
            return;
        }
        if (!changes.isEmpty()) {
            for (Consumer<CatalogChanges> listener : listeners) {
                try {
                    listener.accept(changes);
                } catch (RuntimeException e) {
                    LOG.warn("Change feed: a listener failed", e);
                }
            }
        }
    }
}
