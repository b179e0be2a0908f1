package dev.moviegraph.catalog;

import java.util.Locale;

/**
 * A list of movies kept in an index, most popular first: the movies of a genre, of a year, or of both
 * (browse); or the top rated, of all genres or one (IMDb's rule: at least {@value #TOP_RATED_VOTES} votes,
 * rating descending, then votes). {@code genre} is folded to lower case, so "Sci-Fi" and "sci-fi" are one
 * list.
 */
public record MovieList(boolean topRated, String genre, Integer year) {
    /** The votes a movie needs to be in a top-rated list, as on IMDb's Top 250. */
    public static final int TOP_RATED_VOTES = 25_000;

    public MovieList {
        if (genre != null) {
            if (genre.isBlank() || genre.length() > 50) {
                throw new InvalidInputException("genre must be 1..50 characters");
            }
            genre = genre.strip().toLowerCase(Locale.ROOT);
        }
        if (year != null && (year < 1870 || year > 2200)) {
            throw new InvalidInputException("year must be 1870..2200, got " + year);
        }
        if (topRated && year != null) {
            throw new IllegalArgumentException("top-rated lists are by genre only");
        }
        if (!topRated && genre == null && year == null) {
            throw new InvalidInputException("browseMovies needs a genre, a year, or both");
        }
    }

    public static MovieList browse(String genre, Integer year) {
        return new MovieList(false, genre, year);
    }

    public static MovieList topRated(String genre) {
        return new MovieList(true, genre, null);
    }

    /** The list's name, as its index partition is keyed: {@code top}, {@code top#g#drama}, {@code g#drama#y#1994}... */
    public String name() {
        StringBuilder name = new StringBuilder(topRated ? "top" : "");
        if (genre != null) {
            name.append(name.isEmpty() ? "" : "#").append("g#").append(genre);
        }
        if (year != null) {
            name.append(name.isEmpty() ? "" : "#").append("y#").append(year);
        }
        return name.toString();
    }
}
