package dev.moviegraph.bench.capacity;

/**
 * Units one request takes from one partition: a partition key value of the table, or of one of its
 * global secondary indexes ({@code resource} is the table's name, or {@code table/index/name} as in
 * DynamoDB's resource ARNs). A local index's writes are the table partition's.
 */
public record Charge(String resource, String partition, Kind kind, double units) {
    /** What a partition's limit a charge counts against. */
    public enum Kind {
        READ, WRITE
    }
}
