package dev.moviegraph.catalog;

/**
 * What a query needs from one movie's item collection: the movie item, a page of its cast, its monthly
 * totals in a range, in any combination. The store picks the cheapest request that answers all of it.
 *
 * @param includeMovie whether the movie item itself is needed
 * @param cast         the cast page wanted, or null when the cast is not needed
 * @param totals       the months wanted, or null when the totals are not needed
 */
public record MovieRead(MovieId id, boolean includeMovie, PageRequest cast, MonthRange totals) {
}
