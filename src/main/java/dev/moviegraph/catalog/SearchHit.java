package dev.moviegraph.catalog;

/**
 * One result of a search or one entry of a movie list, as its entry holds it: enough to show a result
 * list without reading the movie or person item (id, title or name, year; for a person the best-known
 * title; for a list entry the movie's rating).
 *
 * @param year   a movie's year, a person's birth year
 * @param rating the movie's rating as the entry copies it; null when the entry carries no copy (search
 *               entries never do, list entries written before they did neither), so it must be read
 */
public record SearchHit(SearchKind kind, String id, String name, Integer year, KnownFor knownFor, Rating rating) {
    /** A movie's rating and votes, each null when the movie has none. */
    public record Rating(Double averageRating, Integer numVotes) {
    }

    public SearchHit(SearchKind kind, String id, String name, Integer year, KnownFor knownFor) {
        this(kind, id, name, year, knownFor, null);
    }
}
