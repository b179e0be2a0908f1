package dev.moviegraph.engine.stream;

import java.util.Iterator;

/**
 * One shard's records by sequence number, oldest first. Only the shard's stream adds and trims (under its
 * lock); readers walk it without locks and see it as it stood when their read began.
 */
public interface RecordLog {
    void add(ChangeRecord record);

    /** The oldest record held, or null. */
    ChangeRecord first();

    void remove(long sequence);

    /** The records from that number on, in order. */
    Iterator<ChangeRecord> from(long sequence);

    /** Where shards keep their logs ({@code store.RowFiles} is the engine's). */
    interface Logs {
        RecordLog open(String name);

        /** Forgets a log (its shard expired). */
        void drop(String name);
    }
}
