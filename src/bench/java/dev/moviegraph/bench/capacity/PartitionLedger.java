package dev.moviegraph.bench.capacity;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The units each partition key value took in each second, against DynamoDB's per-partition limits (by
 * default 1,000 write units and 3,000 read units a second, whatever the table's capacity mode; adaptive
 * capacity can give a hot key a partition of its own but never more than that). A request that would
 * take any of its partitions past a limit within the second is refused whole and charged nothing, as
 * DynamoDB throttles it. Seconds are the caller's: a benchmark may step a simulated clock.
 */
public final class PartitionLedger {
    /** DynamoDB's limits per partition (and so per partition key value) per second. */
    public static final double WRITE_UNITS_PER_SECOND = 1_000;
    public static final double READ_UNITS_PER_SECOND = 3_000;

    private double writeLimit;
    private double readLimit;
    private final Map<Key, Double> thisSecond = new HashMap<>();
    private final Map<Key, Double> peaks = new HashMap<>();
    private long second;
    private long throttles;

    private final Map<Key, Long> refusedAt = new HashMap<>();

    public PartitionLedger() {
        this(WRITE_UNITS_PER_SECOND, READ_UNITS_PER_SECOND);
    }

    public PartitionLedger(double writeLimit, double readLimit) {
        this.writeLimit = writeLimit;
        this.readLimit = readLimit;
    }

    /** One partition of the table or of an index, for reads or for writes. */
    public record Key(String resource, String partition, Charge.Kind kind) {
    }

    /** A refusal: DynamoDB's throttling reason, the resource and the partition that was full. */
    public record Throttle(String reason, String resource, String partition, double units) {
    }

    /** A partition's busiest second so far. */
    public record Usage(Key key, double unitsPerSecond) {
    }

    /** From now on, these limits per partition and second. */
    public synchronized void limits(double writeUnits, double readUnits) {
        this.writeLimit = writeUnits;
        this.readLimit = readUnits;
    }

    /** Starts second {@code n}: what each partition took before it no longer counts against its limit. */
    public synchronized void second(long n) {
        if (n != second) {
            second = n;
            thisSecond.clear();
        }
    }

    /** Charges a request's units, or refuses it whole when one of its partitions would pass its limit. */
    public synchronized Optional<Throttle> charge(List<Charge> charges) {
        Map<Key, Double> request = new HashMap<>();
        for (Charge charge : charges) {
            request.merge(new Key(charge.resource(), charge.partition(), charge.kind()), charge.units(), Double::sum);
        }
        for (Map.Entry<Key, Double> entry : request.entrySet()) {
            Key key = entry.getKey();
            double total = thisSecond.getOrDefault(key, 0.0) + entry.getValue();
            if (total > (key.kind() == Charge.Kind.WRITE ? writeLimit : readLimit)) {
                throttles++;
                refusedAt.merge(key, 1L, Long::sum);
                return Optional.of(new Throttle(reason(key), key.resource(), key.partition(), total));
            }
        }
        request.forEach((key, units) -> {
            double total = thisSecond.merge(key, units, Double::sum);
            peaks.merge(key, total, Math::max);
        });
        return Optional.empty();
    }

    /** The {@code n} partitions whose busiest second took the most units, busiest first. */
    public synchronized List<Usage> hottest(int n) {
        List<Usage> all = new ArrayList<>();
        peaks.forEach((key, units) -> all.add(new Usage(key, units)));
        all.sort(Comparator.comparingDouble(Usage::unitsPerSecond).reversed()
                .thenComparing(usage -> usage.key().partition()));
        return all.subList(0, Math.min(n, all.size()));
    }

    /** The partition that took the most units in the current second, if any took some. */
    public synchronized Optional<Usage> busiest() {
        return thisSecond.entrySet().stream().max(Map.Entry.comparingByValue())
                .map(entry -> new Usage(entry.getKey(), entry.getValue()));
    }

    /** The partition that took the most units of {@code kind} in the current second, if any took some. */
    public synchronized Optional<Usage> busiest(Charge.Kind kind) {
        return thisSecond.entrySet().stream().filter(entry -> entry.getKey().kind() == kind)
                .max(Map.Entry.comparingByValue()).map(entry -> new Usage(entry.getKey(), entry.getValue()));
    }

    /** The units a partition took in the current second. */
    public synchronized double used(String resource, String partition, Charge.Kind kind) {
        return thisSecond.getOrDefault(new Key(resource, partition, kind), 0.0);
    }

    /** What every partition took in the current second, so far. */
    public synchronized Map<Key, Double> usedThisSecond() {
        return Map.copyOf(thisSecond);
    }

    /** The units of this kind every partition together took in the current second. */
    public synchronized double total(Charge.Kind kind) {
        return thisSecond.entrySet().stream().filter(entry -> entry.getKey().kind() == kind)
                .mapToDouble(Map.Entry::getValue).sum();
    }

    /** The partitions that refused requests so far, with how many each, most first. */
    public synchronized List<Map.Entry<Key, Long>> refusals() {
        List<Map.Entry<Key, Long>> all = new ArrayList<>(refusedAt.entrySet());
        all.sort(Map.Entry.<Key, Long>comparingByValue().reversed());
        return all;
    }

    /** Requests refused so far. */
    public synchronized long throttles() {
        return throttles;
    }

    /** E.g. IndexWriteKeyRangeThroughputExceeded, as DynamoDB names a hot key's throttling. */
    private static String reason(Key key) {
        return (key.resource().contains("/index/") ? "Index" : "Table")
                + (key.kind() == Charge.Kind.WRITE ? "Write" : "Read") + "KeyRangeThroughputExceeded";
    }
}
