package dev.moviegraph.imdb;

import java.util.List;
import java.util.Objects;

/** A line of title.basics: startYear and runtimeMinutes are null when IMDb has none. */
public record TitleRow(String id, String type, String primaryTitle, boolean adult, Integer startYear,
        Integer runtimeMinutes, List<String> genres) {
    public TitleRow {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(primaryTitle, "primaryTitle");
        genres = List.copyOf(genres);
    }
}
