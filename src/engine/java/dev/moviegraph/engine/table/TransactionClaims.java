package dev.moviegraph.engine.table;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The items a write transaction has claimed while it runs. DynamoDB does not queue a second transaction, or a
 * single write, behind one in flight on the same item: it refuses it (TransactionCanceledException with reason
 * TransactionConflict, TransactionConflictException for a single write), and every DynamoDB client is written to
 * retry that. Claims give the engine the same answer, where the item locks alone would make it wait.
 */
public final class TransactionClaims {
    /** One item of one table. */
    public record Item(String table, RowKey key) {
    }

    private final ConcurrentHashMap<Item, Object> claimed = new ConcurrentHashMap<>();

    /**
     * Claims every item for {@code owner}, or none: the index of the first item another transaction holds, or -1
     * when all are now claimed.
     */
    public int claimAll(List<Item> items, Object owner) {
        List<Item> taken = new ArrayList<>(items.size());
        for (int i = 0; i < items.size(); i++) {
            Object holder = claimed.putIfAbsent(items.get(i), owner);
            if (holder != null && holder != owner) {
                taken.forEach(item -> claimed.remove(item, owner));
                return i;
            }
            taken.add(items.get(i));
        }
        return -1;
    }

    /** Lets go of what {@code owner} claimed. */
    public void releaseAll(List<Item> items, Object owner) {
        items.forEach(item -> claimed.remove(item, owner));
    }

    /** Whether a transaction in flight holds the item. */
    public boolean isClaimed(String table, RowKey key) {
        return !claimed.isEmpty() && claimed.containsKey(new Item(table, key));
    }

    /** The index of the first item a transaction in flight holds, or -1. */
    public int firstClaimed(List<Item> items) {
        if (claimed.isEmpty()) {
            return -1;
        }
        for (int i = 0; i < items.size(); i++) {
            if (claimed.containsKey(items.get(i))) {
                return i;
            }
        }
        return -1;
    }
}
