package dev.moviegraph.catalog;

import java.time.LocalDate;
import java.util.List;

/**
 * A movie's own details, as held by its movie item. {@code averageRating} and {@code numVotes} come from
 * IMDb's title.ratings (null when the movie has none): imported data, not something clients write.
 */
public record Movie(MovieId id, String title, Integer year, LocalDate releaseDate, List<String> genres,
                   Integer runtimeMinutes, Double averageRating, Integer numVotes) {
    public Movie {
        genres = genres == null ? List.of() : List.copyOf(genres);
    }

    /** A movie with no rating (one a client writes). */
    public Movie(MovieId id, String title, Integer year, LocalDate releaseDate, List<String> genres,
                 Integer runtimeMinutes) {
        this(id, title, year, releaseDate, genres, runtimeMinutes, null, null);
    }

    /** This movie with the rating of {@code stored}: a client's putMovie keeps what an import wrote. */
    public Movie withRatingOf(Movie stored) {
        return stored == null ? this
                : new Movie(id, title, year, releaseDate, genres, runtimeMinutes, stored.averageRating, stored.numVotes);
    }
}
