package dev.moviegraph.catalog;

import java.util.List;

/**
 * One logical call to the store, as it really happened: every page of a Query and every retry of a
 * batch belongs to the call that needed it, so the figures add up to what the store billed.
 *
 * @param pattern    the access pattern that built the call
 * @param operation  the store's operation (GetItem, BatchGetItem, Query)
 * @param index      the index queried, or "table"
 * @param key        the key condition with its values, or null for reads by key
 * @param keys       the number of keys read by key (0 for a Query)
 * @param items      the items returned
 * @param pages      the responses it took (Query pages, batch rounds of unprocessed keys)
 * @param requests   the HTTP requests sent, SDK retries included
 * @param readUnits  the read capacity the store reported as consumed
 * @param writeUnits the write capacity the store reported as consumed
 * @param startNanos {@link System#nanoTime()} when the call started
 * @param durationNanos how long it took, all pages and retries included
 * @param paths      the GraphQL paths it served
 * @param failed     whether it ended in an error
 */
public record StoreCall(String pattern, String operation, String index, String key, int keys, int items, int pages,
                        int requests, double readUnits, double writeUnits, long startNanos, long durationNanos,
                        List<String> paths, boolean failed) {
    public StoreCall {
        paths = List.copyOf(paths);
    }
}
