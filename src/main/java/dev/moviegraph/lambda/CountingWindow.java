package dev.moviegraph.lambda;

import dev.moviegraph.catalog.MovieId;
import dev.moviegraph.dynamo.streams.ShardCounter;

import java.math.BigInteger;
import java.time.YearMonth;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What a shard's tumbling window has read so far and not yet written: the streams per total of its
 * records, {@code first} to {@code to}, which began after {@code from} (the shard's checkpoint when the
 * window began; null: the shard's start). Lambda keeps it between the window's invocations as the
 * function's state (a map of strings, at most 1 MB a shard), and hands a retried batch the state from
 * before it. Empty: no record read, which fits any checkpoint.
 */
record CountingWindow(String from, String first, String to, Map<ShardCounter.Counted, Long> sums) {
    static final CountingWindow EMPTY = new CountingWindow(null, null, null, Map.of());
    /** The state's estimated size at which the window is written early: Lambda ends a window past 1 MB. */
    static final int MAX_STATE_CHARS = 700_000;

    private static final String FROM = "from";
    private static final String FIRST = "first";
    private static final String TO = "to";
    /** A sum's entry: its key is this prefix, the movie id, "|" and the month; its value the streams. */
    private static final String SUM = "s:";

    CountingWindow {
        sums = Map.copyOf(sums);
    }

    boolean isEmpty() {
        return first == null;
    }

    /** The window read back from Lambda's state; an empty or absent state is an empty window. */
    static CountingWindow decode(Map<String, String> state) {
        if (state == null || state.isEmpty()) {
            return EMPTY;
        }
        Map<ShardCounter.Counted, Long> sums = new HashMap<>();
        state.forEach((key, value) -> {
            if (key.startsWith(SUM)) {
                int bar = key.lastIndexOf('|');
                sums.put(new ShardCounter.Counted(MovieId.of(key.substring(SUM.length(), bar)),
                        YearMonth.parse(key.substring(bar + 1))), Long.parseLong(value));
            }
        });
        return state.get(FIRST) == null ? EMPTY : new CountingWindow(state.get(FROM), state.get(FIRST), state.get(TO), sums);
    }

    Map<String, String> encode() {
        Map<String, String> state = new HashMap<>();
        if (isEmpty()) {
            return state;
        }
        if (from != null) {
            state.put(FROM, from);
        }
        state.put(FIRST, first);
        state.put(TO, to);
        sums.forEach((total, streams) -> state.put(SUM + total.movieId().value() + "|" + total.month(), Long.toString(streams)));
        return state;
    }

    /**
     * This window with the records after {@code to}, {@code next} to {@code last}, added: their
     * {@code streams}. A window that was empty begins after {@code checkpoint}, with {@code next}.
     */
    CountingWindow plus(List<ShardCounter.Counted> streams, String next, String last, String checkpoint) {
        Map<ShardCounter.Counted, Long> added = new HashMap<>(sums);
        ShardCounter.sum(streams).forEach((total, count) -> added.merge(total, count, Long::sum));
        return isEmpty() ? new CountingWindow(checkpoint, next, last, added) : new CountingWindow(from, first, last, added);
    }

    /** Written already, by this window's own write whose answer Lambda never had, or by another reader. */
    boolean countedAt(String checkpoint) {
        return !isEmpty() && checkpoint != null && new BigInteger(checkpoint).compareTo(new BigInteger(to)) >= 0;
    }

    /** Begun at {@code checkpoint}, so its sums are exactly the records after it up to {@code to}. */
    boolean beganAt(String checkpoint) {
        return isEmpty() || Objects.equals(from, checkpoint);
    }

    /** Near the largest state Lambda keeps. */
    boolean full() {
        long chars = 0; // as JSON: "s:{movie}|{yyyy-MM}":"{streams}", with "from" and "to" beside
        for (Map.Entry<ShardCounter.Counted, Long> sum : sums.entrySet()) {
            chars += SUM.length() + sum.getKey().movieId().value().length() + 8 + Long.toString(sum.getValue()).length() + 6;
        }
        return chars > MAX_STATE_CHARS;
    }
}
