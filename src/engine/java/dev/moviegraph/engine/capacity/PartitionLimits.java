package dev.moviegraph.engine.capacity;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.moviegraph.engine.api.Throughput;
import dev.moviegraph.engine.error.ApiException;
import dev.moviegraph.engine.table.IndexSpec;
import dev.moviegraph.engine.table.StoredItem;
import dev.moviegraph.engine.table.Table;
import dev.moviegraph.engine.table.TableSpec;
import dev.moviegraph.engine.value.Value;

import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * DynamoDB's per-partition ceilings, enforced: each partition key value of a table and of each global
 * secondary index serves at most {@value #READ_UNITS_PER_SECOND} read units and {@value #WRITE_UNITS_PER_SECOND}
 * write units a second, whatever the table's capacity mode (adaptive capacity can give a hot key a partition of
 * its own, never more than that). Each partition and kind has a bucket of one second's units, refilled at its
 * ceiling: a partition that was idle takes up to a whole second's units at once (the burst), and no more than
 * the ceiling over time. A request that would take any of its partitions past what its bucket holds is refused
 * whole and charged nothing, as DynamoDB throttles it: ThrottlingException on an on-demand table,
 * ProvisionedThroughputExceededException on a provisioned one, each with its {@code ThrottlingReasons}
 * ({@code TableWriteKeyRangeThroughputExceeded}, {@code IndexReadKeyRangeThroughputExceeded}...).
 *
 * <p>Writes are charged by {@link WriteCharges}; {@link #transactional()} is the same charged twice, as
 * DynamoDB charges a transaction's writes. Reads are charged what the engine computed (a GetItem's item, a
 * Query page's items summed, each key of a BatchGetItem). What the {@link Throughput} hook is not told of is
 * not charged: a transaction's condition checks, a write refused by its condition, a delete of nothing (no
 * key); and a transaction's actions are charged one by one, so those a cancelled transaction evaluated stay
 * charged. {@link #transaction}, {@link #conditionFailed} and {@link #write(Table, Value, StoredItem,
 * StoredItem, boolean)} charge those as DynamoDB does, for the hook to call once it passes them.
 *
 * <p>Time is the clock's, or simulated ({@link #startSecond}): a benchmark that wants the limits of one
 * second whatever its machine takes starts second n, and time stands still in it until it starts the next,
 * when every partition starts empty again.
 *
 * <p>It counts what it saw ({@link #describeUsage}), over HTTP as {@value #DESCRIBE_USAGE}: by table or index
 * and partition key prefix (the value up to its first {@code #}), the requests charged, the units, the
 * refusals and the writes refused by their condition; the partitions that took the most units in the current
 * second; and where refusals happened.
 */
public final class PartitionLimits implements Throughput {
    public static final double READ_UNITS_PER_SECOND = 3_000;
    public static final double WRITE_UNITS_PER_SECOND = 1_000;
    /** The operation that reports what the limits saw: {@code X-Amz-Target} of a POST to the engine. */
    public static final String DESCRIBE_USAGE = "MoviegraphEngine.DescribePartitionUsage";
    /** The operation that starts a simulated second ({@code {"Second": n}}). */
    public static final String START_SECOND = "MoviegraphEngine.StartPartitionSecond";
    /** Prefixes counted apart; past this many, the rest are counted under {@value #OTHER}. */
    static final int MAX_PREFIXES = 10_000;
    static final String OTHER = "(other)";
    /** Partitions whose refusals are listed; past this many, refusals are only counted. */
    static final int MAX_REFUSED_PARTITIONS = 10_000;
    private static final String ON_DEMAND_MESSAGE = "Throughput exceeds the current capacity of your table or index."
            + " DynamoDB is automatically scaling your table or index so please try again shortly. If exceptions"
            + " persist, check if you have a hot key:"
            + " https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-partition-key-design.html";
    private static final String PROVISIONED_TABLE_MESSAGE = "The level of configured provisioned throughput for the"
            + " table was exceeded. Consider increasing your provisioning level with the UpdateTable API.";
    private static final String PROVISIONED_INDEX_MESSAGE = "The level of configured provisioned throughput for one"
            + " or more global secondary indexes of the table was exceeded. Consider increasing your provisioning"
            + " level for the under-provisioned global secondary indexes with the UpdateTable API";
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final Clock clock;
    private final String region;
    private final Object lock = new Object();
    private final Map<Slot, Bucket> buckets = new HashMap<>();
    private final Map<PrefixKey, Counts> prefixes = new HashMap<>();
    private final Map<Slot, Long> refusedAt = new HashMap<>();
    private final Throughput transactional = new Transactional();
    private boolean simulated;
    private long simulatedSecond;
    /** The second the per-second figures are of. */
    private long second = Long.MIN_VALUE;
    private double readThisSecond;
    private double writeThisSecond;
    private long refused;

    public PartitionLimits(Clock clock, String region) {
        this.clock = clock;
        this.region = region;
    }

    /** One partition's ceiling of one kind. */
    private record Slot(Charge.Partition partition, Charge.Kind kind) {
    }

    /** A table or index and a partition key prefix. */
    private record PrefixKey(String table, String index, String prefix) {
    }

    /** What one prefix took so far. */
    private static final class Counts {
        long requests;
        double readUnits;
        double writeUnits;
        long refused;
        long conditionalCheckFailed;
    }

    /** A partition's units left ({@code tokens}, refilled at the ceiling since {@code last}) and its use this second. */
    private static final class Bucket {
        double tokens;
        long last;
        long usedSecond;
        double used;

        Bucket(double ceiling, long now) {
            tokens = ceiling;
            last = now;
        }

        /** What it holds at {@code now}. */
        double available(long now, double ceiling) {
            return Math.min(ceiling, tokens + Math.max(0, now - last) * ceiling / 1000.0);
        }

        void take(long now, double ceiling, long second, double units) {
            tokens = available(now, ceiling) - units;
            last = Math.max(last, now);
            if (usedSecond != second) {
                usedSecond = second;
                used = 0;
            }
            used += units;
        }
    }

    @Override
    public void read(Table table, String index, Value partition, double units) {
        String global = null;
        if (index != null) {
            IndexSpec spec = table.spec().index(index).orElse(null);
            global = spec != null && spec.global() ? index : null;
        }
        Charge.Partition charged = new Charge.Partition(table.name(), global, partition);
        charge(List.of(new Request(table.spec(), charged, List.of(new Charge(charged, Charge.Kind.READ, units)))));
    }

    @Override
    public void write(Table table, Value partition, StoredItem before, StoredItem after) {
        write(table, partition, before, after, false);
    }

    @Override
    public void conditionFailed(Table table, Value partition, StoredItem current) {
        conditionFailed(table, partition, current, false);
    }

    /** A single write, its partition taken from the items (tests; the engine passes the key it locked). */
    public void write(Table table, StoredItem before, StoredItem after) {
        write(table, WriteCharges.partitionOf(table.spec(), before, after), before, after, false);
    }

    /**
     * A write of the item whose table partition key value is {@code partition}, from {@code before} to
     * {@code after} (either null; the same instance: a condition check, charged its base write), twice when
     * {@code transactional}. Nothing is charged when {@code partition} is null (a delete of nothing, whose key
     * the {@link Throughput} hook does not pass).
     */
    public void write(Table table, Value partition, StoredItem before, StoredItem after, boolean transactional) {
        if (partition == null) {
            return;
        }
        charge(List.of(request(new Write(table, partition, before, after), transactional ? 2 : 1)));
    }

    /**
     * One write of a transaction: the item whose table partition key value is {@code partition}, from
     * {@code before} to {@code after} (either null); a condition check is the same instance on both sides.
     */
    public record Write(Table table, Value partition, StoredItem before, StoredItem after) {
    }

    /**
     * A TransactWriteItems whose conditions all passed, charged at once: every write twice, condition checks
     * included (their base write), all or none, so a transaction refused at one partition charges no other.
     */
    public void transaction(List<Write> writes) {
        charge(writes.stream().map(write -> request(write, 2)).toList());
    }

    private static Request request(Write write, double factor) {
        TableSpec spec = write.table().spec();
        return new Request(spec, new Charge.Partition(spec.name(), null, write.partition()),
                WriteCharges.of(spec, write.partition(), write.before(), write.after(), factor));
    }

    /** One request's charges: {@code requested} is the partition it is counted a request of. */
    private record Request(TableSpec spec, Charge.Partition requested, List<Charge> charges) {
    }

    /**
     * A write refused by its condition on {@code current} (null: no item): counted for its prefix, and charged
     * its base write (the item's size, at least 1 unit; twice in a transaction), as DynamoDB charges one.
     */
    public void conditionFailed(Table table, Value partition, StoredItem current, boolean transactional) {
        TableSpec spec = table.spec();
        synchronized (lock) {
            counts(spec.name(), null, partition).conditionalCheckFailed++;
        }
        write(table, partition, current, current, transactional);
    }

    /** The same limits, every write charged twice: what a TransactWriteItems' actions are given. */
    public Throughput transactional() {
        return transactional;
    }

    private final class Transactional implements Throughput {
        @Override
        public void read(Table table, String index, Value partition, double units) {
            PartitionLimits.this.read(table, index, partition, units);
        }

        @Override
        public void write(Table table, Value partition, StoredItem before, StoredItem after) {
            PartitionLimits.this.write(table, partition, before, after, true);
        }

        @Override
        public void conditionFailed(Table table, Value partition, StoredItem current) {
            PartitionLimits.this.conditionFailed(table, partition, current, true);
        }
    }

    /** Charges every charge or, when one partition has not the units left, refuses them all and charges none. */
    private void charge(List<Request> requests) {
        synchronized (lock) {
            long now = now();
            tick(now);
            Map<Slot, Double> wanted = new LinkedHashMap<>();
            Map<Slot, TableSpec> specs = new HashMap<>();
            for (Request request : requests) {
                counts(request.requested()).requests++;
                for (Charge charge : request.charges()) {
                    Slot slot = new Slot(charge.partition(), charge.kind());
                    wanted.merge(slot, charge.units(), Double::sum);
                    specs.putIfAbsent(slot, request.spec());
                }
            }
            for (Map.Entry<Slot, Double> entry : wanted.entrySet()) {
                Slot slot = entry.getKey();
                double ceiling = ceiling(slot.kind());
                Bucket bucket = buckets.get(slot);
                double available = bucket == null ? ceiling : bucket.available(now, ceiling);
                if (entry.getValue() > available) {
                    refused++;
                    counts(slot.partition()).refused++;
                    if (refusedAt.size() < MAX_REFUSED_PARTITIONS || refusedAt.containsKey(slot)) {
                        refusedAt.merge(slot, 1L, Long::sum);
                    }
                    throw refusal(specs.get(slot), slot);
                }
            }
            for (Map.Entry<Slot, Double> entry : wanted.entrySet()) {
                Slot slot = entry.getKey();
                double units = entry.getValue();
                double ceiling = ceiling(slot.kind());
                buckets.computeIfAbsent(slot, s -> new Bucket(ceiling, now)).take(now, ceiling, second, units);
                Counts counts = counts(slot.partition());
                if (slot.kind() == Charge.Kind.READ) {
                    readThisSecond += units;
                    counts.readUnits += units;
                } else {
                    writeThisSecond += units;
                    counts.writeUnits += units;
                }
            }
        }
    }

    private static double ceiling(Charge.Kind kind) {
        return kind == Charge.Kind.READ ? READ_UNITS_PER_SECOND : WRITE_UNITS_PER_SECOND;
    }

    private long now() {
        return simulated ? simulatedSecond * 1000 : clock.millis();
    }

    /** Moves the per-second figures on when a new second began; on the clock, forgets partitions full again. */
    private void tick(long now) {
        long current = Math.floorDiv(now, 1000);
        if (current == second) {
            return;
        }
        second = current;
        readThisSecond = 0;
        writeThisSecond = 0;
        // A bucket untouched for a second is full again: the same as none.
        buckets.values().removeIf(bucket -> now - bucket.last >= 1000);
    }

    /** DynamoDB's answer to a request past a partition's ceiling, by the table's capacity mode. */
    private ApiException refusal(TableSpec spec, Slot slot) {
        boolean index = slot.partition().index() != null;
        String reason = (index ? "Index" : "Table") + (slot.kind() == Charge.Kind.READ ? "Read" : "Write")
                + "KeyRangeThroughputExceeded";
        String resource = spec.arn(region) + (index ? "/index/" + slot.partition().index() : "");
        Map<String, Object> extra = Map.of("ThrottlingReasons", List.of(Map.of("reason", reason, "resource", resource)));
        ApiException kind;
        if ("PROVISIONED".equals(spec.billingMode())) {
            kind = ApiException.throughputExceeded(index ? PROVISIONED_INDEX_MESSAGE : PROVISIONED_TABLE_MESSAGE);
        } else {
            kind = ApiException.throttling(ON_DEMAND_MESSAGE);
        }
        return new ApiException(kind.type(), kind.status(), kind.getMessage(), extra);
    }

    private Counts counts(Charge.Partition partition) {
        return counts(partition.table(), partition.index(), partition.value());
    }

    private Counts counts(String table, String index, Value partition) {
        PrefixKey key = new PrefixKey(table, index, prefix(text(partition)));
        Counts counts = prefixes.get(key);
        if (counts == null) {
            if (prefixes.size() >= MAX_PREFIXES) {
                key = new PrefixKey(table, index, OTHER);
            }
            counts = prefixes.computeIfAbsent(key, k -> new Counts());
        }
        return counts;
    }

    /** A partition key value's prefix: up to its first {@code #}, that included; the whole value when it has none. */
    static String prefix(String value) {
        int hash = value.indexOf('#');
        return hash < 0 ? value : value.substring(0, hash + 1);
    }

    /** A partition key value as text: a string itself, a number its canonical text, binary its base64. */
    static String text(Value value) {
        if (value instanceof Value.S s) {
            return s.value();
        }
        if (value instanceof Value.N n) {
            return n.text();
        }
        if (value instanceof Value.B b) {
            return b.value().base64();
        }
        return String.valueOf(value);
    }

    /**
     * {@value #START_SECOND}: from now on time is simulated, standing still in second {@code Second} (an integer,
     * 0 or more) until the next call; starting another second than the current one starts every partition empty.
     */
    public ObjectNode startSecond(JsonNode request) {
        JsonNode value = request.get("Second");
        if (value == null || !value.isIntegralNumber() || !value.canConvertToLong() || value.asLong() < 0) {
            throw ApiException.validation("1 validation error detected: Value at 'second' failed to satisfy constraint:"
                    + " Member must be an integer greater than or equal to 0");
        }
        startSecond(value.asLong());
        return NODES.objectNode().put("Clock", "SIMULATED").put("Second", value.asLong());
    }

    /** The same from Java: simulated second {@code n} starts, or goes on when it is the current one. */
    public void startSecond(long n) {
        synchronized (lock) {
            if (simulated && simulatedSecond == n) {
                return;
            }
            simulated = true;
            simulatedSecond = n;
            buckets.clear();
            second = Long.MIN_VALUE;
            tick(now());
        }
    }

    /**
     * {@value #DESCRIBE_USAGE}: what the limits saw. {@code Limit} (default 10, at most 1,000) bounds the lists of
     * partitions: the busiest of the current second, for reads and for writes, and the ones that refused the most;
     * 0 lists none (the counts alone, cheap enough to ask for after every request).
     */
    public ObjectNode describeUsage(JsonNode request) {
        JsonNode limitNode = request.get("Limit");
        int limit = 10;
        if (limitNode != null && !limitNode.isNull()) {
            if (!limitNode.isIntegralNumber() || limitNode.asLong() < 0 || limitNode.asLong() > 1_000) {
                throw ApiException.validation("1 validation error detected: Value at 'limit' failed to satisfy"
                        + " constraint: Member must have value between 0 and 1000");
            }
            limit = limitNode.asInt();
        }
        synchronized (lock) {
            tick(now());
            ObjectNode answer = NODES.objectNode();
            answer.put("Clock", simulated ? "SIMULATED" : "REAL");
            answer.put("Second", second);
            answer.put("ReadUnitsPerSecond", READ_UNITS_PER_SECOND);
            answer.put("WriteUnitsPerSecond", WRITE_UNITS_PER_SECOND);
            answer.put("Refused", refused);
            ObjectNode thisSecond = answer.putObject("ThisSecond");
            thisSecond.put("ReadUnits", readThisSecond);
            thisSecond.put("WriteUnits", writeThisSecond);
            if (limit > 0) {
                thisSecond.set("BusiestRead", busiest(Charge.Kind.READ, limit));
                thisSecond.set("BusiestWrite", busiest(Charge.Kind.WRITE, limit));
            }
            ArrayNode list = answer.putArray("Prefixes");
            prefixes.entrySet().stream()
                    .sorted(Comparator.comparing((Map.Entry<PrefixKey, Counts> e) -> e.getKey().table())
                            .thenComparing(e -> e.getKey().index() == null ? "" : e.getKey().index())
                            .thenComparing(e -> e.getKey().prefix()))
                    .forEach(e -> {
                        ObjectNode node = resource(list.addObject(), e.getKey().table(), e.getKey().index());
                        Counts counts = e.getValue();
                        node.put("Prefix", e.getKey().prefix());
                        node.put("Requests", counts.requests);
                        node.put("ReadUnits", counts.readUnits);
                        node.put("WriteUnits", counts.writeUnits);
                        node.put("Refused", counts.refused);
                        node.put("ConditionalCheckFailed", counts.conditionalCheckFailed);
                    });
            if (limit > 0) {
                ArrayNode refusals = answer.putArray("RefusedAt");
                refusedAt.entrySet().stream()
                        .sorted(Map.Entry.<Slot, Long>comparingByValue().reversed()
                                .thenComparing(e -> e.getKey().partition().resource())
                                .thenComparing(e -> e.getKey().partition().text()))
                        .limit(limit)
                        .forEach(e -> partition(refusals.addObject(), e.getKey()).put("Count", e.getValue()));
            }
            return answer;
        }
    }

    /** The partitions that took the most units of {@code kind} in the current second, most first. */
    private ArrayNode busiest(Charge.Kind kind, int limit) {
        List<Map.Entry<Slot, Bucket>> used = new ArrayList<>();
        for (Iterator<Map.Entry<Slot, Bucket>> it = buckets.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<Slot, Bucket> entry = it.next();
            if (entry.getKey().kind() == kind && entry.getValue().usedSecond == second && entry.getValue().used > 0) {
                used.add(entry);
            }
        }
        used.sort(Comparator.comparingDouble((Map.Entry<Slot, Bucket> e) -> e.getValue().used).reversed()
                .thenComparing(e -> e.getKey().partition().resource())
                .thenComparing(e -> e.getKey().partition().text()));
        ArrayNode list = NODES.arrayNode();
        used.stream().limit(limit).forEach(e -> partition(list.addObject(), e.getKey()).put("Units", e.getValue().used));
        return list;
    }

    private static ObjectNode partition(ObjectNode node, Slot slot) {
        resource(node, slot.partition().table(), slot.partition().index());
        node.put("Partition", slot.partition().text());
        node.put("Kind", slot.kind().name());
        return node;
    }

    private static ObjectNode resource(ObjectNode node, String table, String index) {
        node.put("TableName", table);
        if (index != null) {
            node.put("IndexName", index);
        }
        return node;
    }
}
