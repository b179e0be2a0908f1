package dev.moviegraph.imdb;

import java.util.List;
import java.util.Objects;

/** A line of title.crew: person ids, empty lists when IMDb has none. */
public record CrewRow(String titleId, List<String> directors, List<String> writers) {
    public CrewRow {
        Objects.requireNonNull(titleId, "titleId");
        directors = List.copyOf(directors);
        writers = List.copyOf(writers);
    }
}
