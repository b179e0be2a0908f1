package dev.moviegraph.engine.table;

/**
 * Where tables keep their rows: named {@link RowStore}s, one per table and one per index
 * ({@code store.RowFiles} is the engine's).
 */
public interface Storage {
    /** The store of that name, created empty when new. */
    RowStore open(String name);

    /** Forgets a store and its rows (a deleted table or index). */
    void drop(String name);

    /**
     * Whether an index that projects ALL reads its items from the table rather than keeping a copy: true where
     * rows are memory (a copy would be paid for in heap), false where they are on disk (a copy costs disk, a
     * read through costs a lookup per entry).
     */
    default boolean sharesItems() {
        return true;
    }

    /**
     * Held (shared) by every write from its first row to its journal record, so a checkpoint of the rows can hold
     * writes off for a moment and see whole writes only; null where there are no checkpoints (rows in memory).
     * Take it after the items' locks and never wait for an item's lock while holding it.
     */
    default java.util.concurrent.locks.Lock writeBarrier() {
        return null;
    }

    /** Called before a write takes the {@link #writeBarrier} (the item's lock held): may wait for room for it. */
    default void roomForWrite() {
    }
}
