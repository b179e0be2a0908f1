package dev.moviegraph.catalog;

/**
 * A person's best-known title: of the movies they are credited on, the one with the most votes (ties:
 * the lower id). Its votes are the person's popularity in search.
 */
public record KnownFor(MovieId movieId, String title, Integer year, int votes) {
    /** The better known of two titles (either may be null). */
    public static KnownFor better(KnownFor a, KnownFor b) {
        if (a == null) {
            return b;
        }
        if (b == null) {
            return a;
        }
        if (a.votes != b.votes) {
            return a.votes > b.votes ? a : b;
        }
        return a.movieId.value().compareTo(b.movieId.value()) <= 0 ? a : b;
    }
}
