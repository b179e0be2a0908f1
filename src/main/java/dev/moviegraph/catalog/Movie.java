package dev.moviegraph.catalog;

import java.time.LocalDate;
import java.util.List;

/**
 * A movie's own details, as held by its movie item. {@code averageRating} and {@code numVotes} come from
 * IMDb's title.ratings (null when the movie has none): imported data, not something clients write.
 * {@code castCount} is how many cast credits it has, kept by every write of a credit (null: not counted).
 */
public record Movie(MovieId id, String title, Integer year, LocalDate releaseDate, List<String> genres,
                   Integer runtimeMinutes, Double averageRating, Integer numVotes, Integer castCount) {
    public Movie {
        genres = genres == null ? List.of() : List.copyOf(genres);
    }

    /** A movie whose cast is not counted here (the store keeps the count). */
    public Movie(MovieId id, String title, Integer year, LocalDate releaseDate, List<String> genres,
                 Integer runtimeMinutes, Double averageRating, Integer numVotes) {
        this(id, title, year, releaseDate, genres, runtimeMinutes, averageRating, numVotes, null);
    }

    /** This movie with its cast counted. */
    public Movie withCastCount(Integer count) {
        return new Movie(id, title, year, releaseDate, genres, runtimeMinutes, averageRating, numVotes, count);
    }

    /** A movie with no rating (one a client writes). */
    public Movie(MovieId id, String title, Integer year, LocalDate releaseDate, List<String> genres,
                 Integer runtimeMinutes) {
        this(id, title, year, releaseDate, genres, runtimeMinutes, null, null);
    }

    /**
     * This movie with the rating and cast count of {@code stored}: a client's putMovie keeps what an import
     * wrote and what the credits counted.
     */
    public Movie withRatingOf(Movie stored) {
        return stored == null ? this : new Movie(id, title, year, releaseDate, genres, runtimeMinutes,
                stored.averageRating, stored.numVotes, stored.castCount);
    }
}
