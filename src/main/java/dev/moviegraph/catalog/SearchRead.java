package dev.moviegraph.catalog;

import java.util.EnumSet;
import java.util.Set;

/** A page of a search, over the kinds asked for (both: one ranking of movies and people together). */
public record SearchRead(SearchQuery query, Set<SearchKind> kinds, PageRequest page) {
    public SearchRead {
        if (kinds.isEmpty()) {
            throw new InvalidInputException("types must name at least one of MOVIE, PERSON");
        }
        kinds = Set.copyOf(EnumSet.copyOf(kinds));
    }
}
