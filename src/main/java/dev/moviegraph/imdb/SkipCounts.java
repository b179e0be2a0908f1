package dev.moviegraph.imdb;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A tally of skipped lines by reason, safe to share between the threads of an import, with the first
 * {@value #EXAMPLES} skips of each reason kept so the report can show where to look without holding
 * millions of them.
 */
public final class SkipCounts {
    public static final int EXAMPLES = 5;
    private static final SkipReason[] REASONS = SkipReason.values();

    private final AtomicLongArray counts = new AtomicLongArray(REASONS.length);
    private final Map<SkipReason, List<Skip>> examples = new EnumMap<>(SkipReason.class);

    public SkipCounts() {
        for (SkipReason reason : REASONS) {
            examples.put(reason, new ArrayList<>(EXAMPLES));
        }
    }

    public void add(Skip skip) {
        // The increment hands each skip a distinct rank, so exactly the first EXAMPLES of a reason are
        // kept and only they take the lock; the rest cost one atomic increment.
        long rank = counts.getAndIncrement(skip.reason().ordinal());
        if (rank < EXAMPLES) {
            List<Skip> kept = examples.get(skip.reason());
            synchronized (kept) {
                kept.add(skip);
            }
        }
    }

    public long count(SkipReason reason) {
        return counts.get(reason.ordinal());
    }

    public long total() {
        long total = 0;
        for (int i = 0; i < REASONS.length; i++) {
            total += counts.get(i);
        }
        return total;
    }

    /** Up to {@value #EXAMPLES} skips of the reason, in the order they were added. */
    public List<Skip> examples(SkipReason reason) {
        List<Skip> kept = examples.get(reason);
        synchronized (kept) {
            return List.copyOf(kept);
        }
    }

    /**
     * {@code no lines skipped}, or the total, each reason's count and its examples:
     * <pre>
     * 3 lines skipped
     *   BAD_ID: 2
     *     title.basics.tsv.gz:17: tconst "x17"
     * </pre>
     */
    public String summary() {
        long total = total();
        if (total == 0) {
            return "no lines skipped";
        }
        StringBuilder out = new StringBuilder().append(total).append(total == 1 ? " line" : " lines")
                .append(" skipped");
        for (SkipReason reason : REASONS) {
            long count = count(reason);
            if (count == 0) {
                continue;
            }
            out.append("\n  ").append(reason).append(": ").append(count);
            for (Skip skip : examples(reason)) {
                out.append("\n    ").append(skip.file()).append(':').append(skip.line()).append(": ")
                        .append(skip.detail());
            }
        }
        return out.toString();
    }

    @Override
    public String toString() {
        return summary();
    }
}
