package dev.moviegraph.imdb;

import java.util.Objects;

/** A line of title.ratings. */
public record RatingRow(String titleId, double averageRating, int numVotes) {
    public RatingRow {
        Objects.requireNonNull(titleId, "titleId");
    }
}
