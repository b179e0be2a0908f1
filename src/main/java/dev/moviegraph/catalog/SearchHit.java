package dev.moviegraph.catalog;

/**
 * One result of a search, as its search entry holds it: enough to show a result list without reading
 * the movie or person item (id, title or name, year; for a person the best-known title).
 *
 * @param year a movie's year, a person's birth year
 */
public record SearchHit(SearchKind kind, String id, String name, Integer year, KnownFor knownFor) {
}
