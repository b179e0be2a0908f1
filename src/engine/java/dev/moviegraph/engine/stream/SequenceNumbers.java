package dev.moviegraph.engine.stream;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The one counter every stream's sequence numbers come from. A single counter keeps numbers increasing
 * across a stream's shards (a child's numbers above its parent's) without any coordination between
 * streams; numbers need not be dense, so a closing shard may use one up as its end.
 */
final class SequenceNumbers {
    /** DynamoDB's numbers are decimal strings; a fixed width makes them sort as text the way they do as numbers. */
    static final int WIDTH = 21;

    private final AtomicLong next = new AtomicLong(1);

    /** The number the next record would get (not taken). */
    long peek() {
        return next.get();
    }

    /** Takes a number above {@code floor}: a stream's numbers keep increasing even after the counter was set back. */
    long takeAbove(long floor) {
        while (true) {
            long current = next.get();
            long taken = Math.max(current, floor + 1);
            if (next.compareAndSet(current, taken + 1)) {
                return taken;
            }
        }
    }

    /** Replay sets the next number to what the record had before a restart. */
    void set(long nextNumber) {
        next.set(nextNumber);
    }

    static String format(long number) {
        String digits = Long.toString(number);
        return digits.length() >= WIDTH ? digits : "0".repeat(WIDTH - digits.length()) + digits;
    }
}
