package dev.moviegraph.graphql.caching;

/**
 * The ages the schema cannot state because they depend on the data: monthly totals of a month that
 * has ended change rarely (a late stream can still arrive) and may be kept longer than those of the
 * current month, which change with every stream. {@code maxAge} caps every answer; 0 switches HTTP
 * caching off.
 *
 * @param currentMonthSeconds  CACHE_CURRENT_MONTH_SECONDS: totals of the current or a future month
 * @param finishedMonthSeconds CACHE_FINISHED_MONTH_SECONDS: totals of a month that has ended (UTC)
 * @param maxAgeSeconds        CACHE_MAX_AGE_SECONDS: the most any answer may be kept
 */
public record CacheSettings(int currentMonthSeconds, int finishedMonthSeconds, int maxAgeSeconds) {
    public static final CacheSettings DEFAULTS = new CacheSettings(10, 3_600, 3_600);
}
