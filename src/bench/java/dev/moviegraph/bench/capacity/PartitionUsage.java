package dev.moviegraph.bench.capacity;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the engine's partition limits saw, as its {@code MoviegraphEngine.DescribePartitionUsage} answers (see
 * {@link UsageClient}): the counts by table or index and partition key prefix since the engine started, the
 * units of the current second, its busiest partitions and the partitions that refused requests. Two of them
 * give what happened in between ({@link #since}).
 *
 * @param second     the current second (simulated, or the clock's)
 * @param refused    requests refused so far (each SDK attempt is one; a transaction or batch counts each of its
 *                   writes or keys refused)
 * @param prefixes   counts by {@link Prefix}
 * @param readUnits  read units charged in the current second, every partition together
 * @param writeUnits write units charged in the current second
 * @param busiestRead  partitions that took the most read units in the current second, most first (as many as asked)
 * @param busiestWrite the same for write units
 * @param refusedAt  the partitions that refused the most requests so far, most first, with how many each
 */
public record PartitionUsage(long second, long refused, Map<Prefix, Counts> prefixes, double readUnits,
                             double writeUnits, List<Partition> busiestRead, List<Partition> busiestWrite,
                             List<Partition> refusedAt) {
    public PartitionUsage {
        prefixes = Map.copyOf(prefixes);
        busiestRead = List.copyOf(busiestRead);
        busiestWrite = List.copyOf(busiestWrite);
        refusedAt = List.copyOf(refusedAt);
    }

    /** A table ({@code index} null) or one of its global secondary indexes, and a partition key prefix. */
    public record Prefix(String table, String index, String prefix) implements Comparable<Prefix> {
        /** The table's own prefix. */
        public static Prefix of(String table, String prefix) {
            return new Prefix(table, null, prefix);
        }

        @Override
        public int compareTo(Prefix other) {
            return toString().compareTo(other.toString());
        }

        @Override
        public String toString() {
            return (index == null ? table : table + "/index/" + index) + "/" + prefix;
        }
    }

    /**
     * What one prefix took: requests charged to it (a GetItem, a Query page, each key of a BatchGetItem, each write
     * of a batch or transaction; refused ones included), read and write units charged (refused requests charge
     * none), requests refused at one of its partitions, and writes refused by their condition.
     */
    public record Counts(long requests, double readUnits, double writeUnits, long refused, long conditionalCheckFailed) {
        static final Counts NONE = new Counts(0, 0, 0, 0, 0);

        Counts minus(Counts earlier) {
            return new Counts(requests - earlier.requests, readUnits - earlier.readUnits, writeUnits - earlier.writeUnits,
                    refused - earlier.refused, conditionalCheckFailed - earlier.conditionalCheckFailed);
        }
    }

    /**
     * One partition: {@code resource} is the table's name or {@code table/index/name}, as in DynamoDB's ARNs;
     * {@code kind} READ or WRITE; {@code amount} the units it took (busiest) or the requests it refused.
     */
    public record Partition(String resource, String partition, String kind, double amount) {
        /** As the benchmark prints it: {@code moviegraph/mov#tt00000001[read]}. */
        public String name() {
            return resource + "/" + partition + "[" + kind.toLowerCase(java.util.Locale.ROOT) + "]";
        }
    }

    /** Reads the engine's answer. */
    public static PartitionUsage of(JsonNode answer) {
        Map<Prefix, Counts> prefixes = new TreeMap<>();
        for (JsonNode node : answer.path("Prefixes")) {
            prefixes.put(new Prefix(node.path("TableName").asText(), node.path("IndexName").asText(null),
                    node.path("Prefix").asText()), new Counts(node.path("Requests").asLong(),
                    node.path("ReadUnits").asDouble(), node.path("WriteUnits").asDouble(), node.path("Refused").asLong(),
                    node.path("ConditionalCheckFailed").asLong()));
        }
        JsonNode thisSecond = answer.path("ThisSecond");
        return new PartitionUsage(answer.path("Second").asLong(), answer.path("Refused").asLong(), prefixes,
                thisSecond.path("ReadUnits").asDouble(), thisSecond.path("WriteUnits").asDouble(),
                partitions(thisSecond.path("BusiestRead"), "Units"), partitions(thisSecond.path("BusiestWrite"), "Units"),
                partitions(answer.path("RefusedAt"), "Count"));
    }

    private static List<Partition> partitions(JsonNode list, String amount) {
        List<Partition> partitions = new ArrayList<>();
        for (JsonNode node : list) {
            String index = node.path("IndexName").asText(null);
            String table = node.path("TableName").asText();
            partitions.add(new Partition(index == null ? table : table + "/index/" + index,
                    node.path("Partition").asText(), node.path("Kind").asText(), node.path(amount).asDouble()));
        }
        return partitions;
    }

    /** The counts of one prefix (none: zeros). */
    public Counts counts(Prefix prefix) {
        return prefixes.getOrDefault(prefix, Counts.NONE);
    }

    /** Requests charged, every prefix together. */
    public long requests() {
        return prefixes.values().stream().mapToLong(Counts::requests).sum();
    }

    /** Read units charged, every prefix together. */
    public double chargedReadUnits() {
        return prefixes.values().stream().mapToDouble(Counts::readUnits).sum();
    }

    /** Write units charged, every prefix together. */
    public double chargedWriteUnits() {
        return prefixes.values().stream().mapToDouble(Counts::writeUnits).sum();
    }

    /** The busiest partition of the current second, reads or writes, or null when none took units. */
    public Partition busiest() {
        Partition read = busiestRead.isEmpty() ? null : busiestRead.get(0);
        Partition write = busiestWrite.isEmpty() ? null : busiestWrite.get(0);
        if (read == null || write == null) {
            return read == null ? write : read;
        }
        return read.amount() > write.amount() ? read : write;
    }

    /** What happened between {@code earlier} and this: the counts' differences (the other fields are this one's). */
    public PartitionUsage since(PartitionUsage earlier) {
        Map<Prefix, Counts> difference = new TreeMap<>();
        prefixes.forEach((prefix, counts) -> {
            Counts moved = counts.minus(earlier.counts(prefix));
            if (!moved.equals(Counts.NONE)) {
                difference.put(prefix, moved);
            }
        });
        return new PartitionUsage(second, refused - earlier.refused, difference, readUnits, writeUnits, busiestRead,
                busiestWrite, refusedAt);
    }
}
