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
}
