package dev.moviegraph.engine.table;

/** DynamoDB's capacity units: reads per 4 KB (eventually consistent at half), writes per 1 KB, at least one unit. */
public final class Capacity {
    private Capacity() {
    }

    /** Read units of {@code bytes} read at once (a Query sums its items before rounding). */
    public static double read(long bytes, boolean consistent) {
        long units = Math.max(1, (bytes + 4095) / 4096);
        return consistent ? units : units / 2.0;
    }

    public static double write(long bytes) {
        return Math.max(1, (bytes + 1023) / 1024);
    }
}
