package dev.moviegraph.graphql.budget;

import dev.moviegraph.graphql.errors.ErrorType;
import dev.moviegraph.metrics.GatewayMetrics;

import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import com.github.benmanes.caffeine.cache.Ticker;

/**
 * Each client's read units per second (CLIENT_READ_UNITS_PER_SECOND), a token bucket per client: it holds
 * {@value #BURST_SECONDS} seconds' worth at most and refills at the rate. A request is admitted while its
 * client's bucket has anything left, and charged afterwards what it really consumed (its
 * {@code extensions.cost.readUnits}): a request's cost is known only once it ran, and the read budget
 * already bounds one request. A bucket may so go below zero, and its client then waits until the debt is
 * paid, which keeps the client's average at the rate. A bucket is forgotten once it would be full again
 * (a fresh one is the same), and at most {@value #MOST_CLIENTS} are kept, so idle clients cost no memory.
 */
public final class ClientBudgets {
    public static final int BURST_SECONDS = 5;
    /**
     * The key of a client no budget applies to: the bearer of the WRITE_TOKEN, the deployment's own
     * writer (what records streams at thousands a second), as trusted as the token makes it.
     */
    public static final String EXEMPT = "exempt";
    static final int MOST_CLIENTS = 100_000;
    /** Whether requests are counted at all: off with no rate, and while the server warms itself up. */
    private final BooleanSupplier active;
    private final double perSecond;
    private final double burst;
    private final Ticker ticker;
    private final GatewayMetrics metrics;
    private final Cache<String, Bucket> buckets;

    /**
     * @param perSecond read units each client may consume a second; 0 for no limit
     * @param active    whether to count now (false while the server sends itself its warm-up queries)
     * @param ticker    the time, in nanoseconds (a test's own)
     */
    public ClientBudgets(double perSecond, BooleanSupplier active, Ticker ticker, GatewayMetrics metrics) {
        this.perSecond = perSecond;
        this.active = () -> perSecond > 0 && active.getAsBoolean();
        this.burst = perSecond * BURST_SECONDS;
        this.ticker = ticker;
        this.metrics = metrics;
        this.buckets = Caffeine.newBuilder().maximumSize(MOST_CLIENTS).ticker(ticker)
                .expireAfter(new UntilFull()).build();
    }

    /**
     * Admits a request of {@code client} (an opaque key: never a credential in clear), or says in how many
     * whole seconds its bucket has something again.
     *
     * @param transport where the refusal is counted in /metrics ({@code http}, {@code websocket})
     */
    public OptionalLong admit(String client, String transport) {
        if (!active.getAsBoolean() || EXEMPT.equals(client)) {
            return OptionalLong.empty();
        }
        long now = ticker.read();
        double left = buckets.get(client, key -> new Bucket(burst, now)).balance(now, perSecond, burst);
        if (left > 0) {
            return OptionalLong.empty();
        }
        metrics.clientRefused(transport);
        // The next whole second after the debt is paid: the bucket then holds something, not just zero.
        return OptionalLong.of((long) Math.floor(-left / perSecond) + 1);
    }

    /** Charges a client what one of its requests consumed. */
    public void charge(String client, double readUnits) {
        if (!active.getAsBoolean() || readUnits <= 0 || EXEMPT.equals(client)) {
            return;
        }
        long now = ticker.read();
        // compute, not get: an update makes the cache read the bucket's new time until full.
        buckets.asMap().compute(client, (key, bucket) -> {
            Bucket charged = bucket == null ? new Bucket(burst, now) : bucket;
            charged.take(now, perSecond, burst, readUnits);
            return charged;
        });
        metrics.clientCharged(readUnits);
    }

    /** The read units a GraphQL response says its request consumed ({@code extensions.cost.readUnits}). */
    public static double consumed(Map<String, Object> response) {
        return response.get("extensions") instanceof Map<?, ?> extensions
                && extensions.get("cost") instanceof Map<?, ?> cost
                && cost.get("readUnits") instanceof Number units ? units.doubleValue() : 0;
    }

    /** The error a refused request answers, with the code clients branch on. */
    public static Map<String, Object> refusal(long retryAfterSeconds) {
        return Map.of("message", "This client has used its read units for now (CLIENT_READ_UNITS_PER_SECOND);"
                        + " retry in " + retryAfterSeconds + " s",
                "extensions", Map.of("code", ErrorType.RATE_LIMITED.name(), "retryAfterSeconds", retryAfterSeconds));
    }

    /** One client's units: what was left at {@code at}, refilled at the rate up to the burst since. */
    private static final class Bucket {
        private double units;
        private long at;

        Bucket(double units, long at) {
            this.units = units;
            this.at = at;
        }

        synchronized double balance(long now, double perSecond, double burst) {
            units = Math.min(burst, units + Math.max(0, now - at) / 1e9 * perSecond);
            at = Math.max(at, now);
            return units;
        }

        synchronized void take(long now, double perSecond, double burst, double readUnits) {
            balance(now, perSecond, burst);
            units -= readUnits;
        }

        /** Nanoseconds until the bucket is full again, from {@code now}. */
        synchronized long untilFull(long now, double perSecond, double burst) {
            double missing = burst - balance(now, perSecond, burst);
            return missing <= 0 ? 0 : (long) Math.ceil(missing / perSecond * 1e9);
        }
    }

    /** A bucket expires when it would be full: from then on it is no different from a new one. */
    private final class UntilFull implements Expiry<String, Bucket> {
        @Override
        public long expireAfterCreate(String key, Bucket bucket, long now) {
            return Math.max(TimeUnit.SECONDS.toNanos(1), bucket.untilFull(now, perSecond, burst));
        }

        @Override
        public long expireAfterUpdate(String key, Bucket bucket, long now, long currentDuration) {
            return expireAfterCreate(key, bucket, now);
        }

        @Override
        public long expireAfterRead(String key, Bucket bucket, long now, long currentDuration) {
            return currentDuration;
        }
    }
}
