package dev.moviegraph.engine.table;

/**
 * A secondary index as declared: global or local, its key, what it projects, and (global ones) its
 * provisioned throughput; {@code status} is ACTIVE, or CREATING while a backfill runs.
 */
public record IndexSpec(String name, boolean global, KeySchema key, Projection projection, long readUnits,
                        long writeUnits, String status) {

    public IndexSpec withStatus(String newStatus) {
        return new IndexSpec(name, global, key, projection, readUnits, writeUnits, newStatus);
    }
}
