package dev.moviegraph.catalog;

/** How monthly totals follow recorded streams. */
public enum TotalsMode {
    /** Each stream adds one to its total in the same transaction that stores it. */
    TRANSACTIONAL,
    /** Streams are stored alone; an aggregator reads the table's change stream and adds them up in batches. */
    STREAM
}
