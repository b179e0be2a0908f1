package dev.moviegraph.catalog;

import java.time.LocalDate;
import java.util.List;

/** A movie's own details, as held by its movie item. */
public record Movie(MovieId id, String title, Integer year, LocalDate releaseDate, List<String> genres,
                   Integer runtimeMinutes) {
    public Movie {
        genres = genres == null ? List.of() : List.copyOf(genres);
    }
}
