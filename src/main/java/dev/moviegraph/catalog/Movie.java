package dev.moviegraph.catalog;

import java.time.LocalDate;
import java.util.List;

/**
 * A movie's own details, as held by its movie item. {@code averageRating} and {@code numVotes} come from
 * IMDb's title.ratings (null when the movie has none): imported data, not something clients write.
 * {@code castCount} is how many cast credits it has, kept by every write of a credit (null: not counted).
 * {@code firstCast} copies its first {@link #FIRST_CAST} cast credits in billing order (uncredited last), kept
 * by every write of a cast credit and by renames, so that a page of a movie's first cast is read with the
 * movie, by key, instead of a Query of its credits; empty when its cast is empty or not copied.
 */
public record Movie(MovieId id, String title, Integer year, LocalDate releaseDate, List<String> genres,
                   Integer runtimeMinutes, Double averageRating, Integer numVotes, Integer castCount,
                   List<BilledCast> firstCast) {
    /**
     * How many of its first-billed cast a movie item copies: a card or a list shows the first three to five.
     * Five keep a movie item under 1 KB (one write unit) in the sample; docs/design/writes.md weighs it.
     */
    public static final int FIRST_CAST = 5;

    public Movie {
        genres = genres == null ? List.of() : List.copyOf(genres);
        firstCast = firstCast == null ? List.of() : List.copyOf(firstCast);
    }

    /** A movie with its cast counted and none of it copied. */
    public Movie(MovieId id, String title, Integer year, LocalDate releaseDate, List<String> genres,
                 Integer runtimeMinutes, Double averageRating, Integer numVotes, Integer castCount) {
        this(id, title, year, releaseDate, genres, runtimeMinutes, averageRating, numVotes, castCount, List.of());
    }

    /** A movie whose cast is not counted here (the store keeps the count). */
    public Movie(MovieId id, String title, Integer year, LocalDate releaseDate, List<String> genres,
                 Integer runtimeMinutes, Double averageRating, Integer numVotes) {
        this(id, title, year, releaseDate, genres, runtimeMinutes, averageRating, numVotes, null);
    }

    /** This movie with its cast counted. */
    public Movie withCastCount(Integer count) {
        return new Movie(id, title, year, releaseDate, genres, runtimeMinutes, averageRating, numVotes, count, firstCast);
    }

    /** This movie with {@code cast} as its first-billed cast (cut to {@link #FIRST_CAST}). */
    public Movie withFirstCast(List<BilledCast> cast) {
        return new Movie(id, title, year, releaseDate, genres, runtimeMinutes, averageRating, numVotes, castCount,
                cast.subList(0, Math.min(FIRST_CAST, cast.size())));
    }

    /**
     * Whether {@code firstCast} answers the first {@code first} of the cast: its cast is counted and the copy
     * holds as many as that page shows. A movie written before copies were kept, with a cast, does not.
     */
    public boolean copiesFirstCast(int first) {
        return castCount != null && first <= FIRST_CAST && firstCast.size() >= Math.min(first, castCount);
    }

    /** A movie with no rating (one a client writes). */
    public Movie(MovieId id, String title, Integer year, LocalDate releaseDate, List<String> genres,
                 Integer runtimeMinutes) {
        this(id, title, year, releaseDate, genres, runtimeMinutes, null, null);
    }

    /**
     * This movie with the rating, cast count and first-billed cast of {@code stored}: a client's putMovie keeps
     * what an import wrote and what the credits counted and copied.
     */
    public Movie withRatingOf(Movie stored) {
        return stored == null ? this : new Movie(id, title, year, releaseDate, genres, runtimeMinutes,
                stored.averageRating, stored.numVotes, stored.castCount, stored.firstCast);
    }
}
