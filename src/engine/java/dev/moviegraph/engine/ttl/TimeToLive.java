package dev.moviegraph.engine.ttl;

import dev.moviegraph.engine.table.RowKey;
import dev.moviegraph.engine.table.RowStore;
import dev.moviegraph.engine.table.StoredItem;
import dev.moviegraph.engine.table.Table;
import dev.moviegraph.engine.table.Tables;
import dev.moviegraph.engine.table.WriteResult;
import dev.moviegraph.engine.value.Numbers;
import dev.moviegraph.engine.value.Value;

import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Time to live: a background sweep deletes the items whose TTL attribute, a number of epoch seconds, is in
 * the past. As DynamoDB does, it leaves alone items whose attribute is not a number and those more than
 * five years past, and its deletions are the service's: their stream records say so.
 */
public final class TimeToLive implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(TimeToLive.class.getName());
    /** DynamoDB does not expire items whose time is more than five years old (likely not seconds at all). */
    private static final Duration TOO_OLD = Duration.ofDays(5 * 365);

    private final Tables tables;
    private final Duration sweepDelay;
    private final Clock clock;
    private ScheduledExecutorService sweeper;

    public TimeToLive(Tables tables, Duration sweepDelay, Clock clock) {
        this.tables = Objects.requireNonNull(tables, "tables");
        this.clock = Objects.requireNonNull(clock, "clock");
        if (sweepDelay == null || sweepDelay.isNegative() || sweepDelay.isZero()) {
            throw new IllegalArgumentException("sweepDelay must be positive: " + sweepDelay);
        }
        this.sweepDelay = sweepDelay;
    }

    /** Starts the sweep: every sweepDelay after the previous one ended, on one daemon thread. */
    public synchronized void start() {
        if (sweeper != null) {
            return;
        }
        sweeper = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "engine-ttl");
            thread.setDaemon(true);
            return thread;
        });
        long delay = sweepDelay.toMillis();
        sweeper.scheduleWithFixedDelay(this::sweepQuietly, delay, delay, TimeUnit.MILLISECONDS);
    }

    @Override
    public synchronized void close() {
        if (sweeper == null) {
            return;
        }
        sweeper.shutdownNow();
        try {
            sweeper.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        sweeper = null;
    }

    private void sweepQuietly() {
        try {
            sweepOnce();
        } catch (RuntimeException e) {
            // a failed sweep must not end the schedule (an exception would cancel it): the next one tries again
            LOG.log(System.Logger.Level.WARNING, "time to live sweep failed", e);
        }
    }

    /**
     * One pass over every table with time to live on; returns how many items it deleted. It reads only the items
     * due (the table keeps its items by their time, {@code Table#expiring}), not every item.
     */
    public int sweepOnce() {
        int deleted = 0;
        Instant now = clock.instant();
        Value from = Numbers.of(BigDecimal.valueOf(now.minus(TOO_OLD).getEpochSecond()));
        Value before = Numbers.of(BigDecimal.valueOf(now.getEpochSecond()));
        for (Table table : tables.all()) {
            String attribute = table.spec().ttlAttribute();
            if (attribute == null) {
                continue;
            }
            Iterator<RowStore.Row> due = table.expiring(from, before);
            while (due.hasNext()) {
                if (Thread.currentThread().isInterrupted()) {
                    return deleted;
                }
                deleted += delete(table, due.next().key(), attribute);
            }
        }
        return deleted;
    }

    /**
     * Deletes the item under its lock if it is still expired then: a write since the sweep saw it (a new TTL,
     * the attribute removed, or time to live turned off) keeps it, and the row that named it goes if stale.
     */
    private int delete(Table table, RowKey row, String attribute) {
        RowKey key = row.tableKey();
        ReentrantLock lock = tables.locks().lockFor(table.name(), key);
        lock.lock();
        try {
            WriteResult result = table.writeLocked(key, current -> {
                boolean stillOn = attribute.equals(table.spec().ttlAttribute());
                return current != null && stillOn && expired(current, attribute, clock.instant()) ? null : current;
            }, true);
            if (result.before() != null && result.after() == null) {
                return 1;
            }
            table.keptFromExpiry(row);
            return 0;
        } finally {
            lock.unlock();
        }
    }

    static boolean expired(StoredItem item, String attribute, Instant now) {
        Value value = item.attributes().get(attribute);
        if (!(value instanceof Value.N number)) {
            return false;
        }
        BigDecimal seconds = number.number();
        BigDecimal nowSeconds = BigDecimal.valueOf(now.getEpochSecond());
        BigDecimal oldest = BigDecimal.valueOf(now.minus(TOO_OLD).getEpochSecond());
        return seconds.compareTo(nowSeconds) < 0 && seconds.compareTo(oldest) >= 0;
    }
}
