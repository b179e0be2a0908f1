package dev.moviegraph.engine.table;

import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Locks by item, striped: an item's writers queue on its stripe; a transaction takes the stripes of all
 * its items in one global order, so two transactions never wait on each other in a cycle.
 */
public final class ItemLocks {
    private static final int STRIPES = 4096;
    private final ReentrantLock[] stripes = new ReentrantLock[STRIPES];

    public ItemLocks() {
        for (int i = 0; i < STRIPES; i++) {
            stripes[i] = new ReentrantLock();
        }
    }

    public ReentrantLock lockFor(String table, RowKey key) {
        return stripes[stripe(table, key)];
    }

    private static int stripe(String table, RowKey key) {
        int h = table.hashCode() * 31 + key.hash();
        h = h * 31 + (key.sort() == null ? 0 : key.sort().hashCode());
        return Math.floorMod(h ^ (h >>> 16), STRIPES);
    }

    /** Locks the stripes of all the items, in order; returns what to unlock. */
    public List<ReentrantLock> lockAll(List<String> tables, List<RowKey> keys) {
        TreeSet<Integer> wanted = new TreeSet<>();
        for (int i = 0; i < keys.size(); i++) {
            wanted.add(stripe(tables.get(i), keys.get(i)));
        }
        List<ReentrantLock> held = wanted.stream().map(i -> stripes[i]).toList();
        held.forEach(ReentrantLock::lock);
        return held;
    }
}
