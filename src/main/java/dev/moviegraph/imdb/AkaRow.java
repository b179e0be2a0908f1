package dev.moviegraph.imdb;

import java.util.List;
import java.util.Objects;

/** A line of title.akas: region and language are null when IMDb has none. */
public record AkaRow(String titleId, int ordering, String title, String region, String language, List<String> types,
                     List<String> attributes, boolean original) {
    public AkaRow {
        Objects.requireNonNull(titleId, "titleId");
        Objects.requireNonNull(title, "title");
        types = List.copyOf(types);
        attributes = List.copyOf(attributes);
    }
}
