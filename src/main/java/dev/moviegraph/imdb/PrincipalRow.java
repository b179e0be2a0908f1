package dev.moviegraph.imdb;

import java.util.List;
import java.util.Objects;

/** A line of title.principals: who is credited on a title, in what category, playing whom. */
public record PrincipalRow(String titleId, int ordering, String personId, String category, List<String> characters) {
    public PrincipalRow {
        Objects.requireNonNull(titleId, "titleId");
        Objects.requireNonNull(personId, "personId");
        Objects.requireNonNull(category, "category");
        characters = List.copyOf(characters);
    }
}
