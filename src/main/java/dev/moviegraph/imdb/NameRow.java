package dev.moviegraph.imdb;

import java.util.List;
import java.util.Objects;

/** A line of name.basics: the years are null when IMDb has none. */
public record NameRow(String id, String name, Integer birthYear, Integer deathYear, List<String> professions) {
    public NameRow {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(name, "name");
        professions = List.copyOf(professions);
    }
}
