package dev.moviegraph.dynamo.model;

import static dev.moviegraph.dynamo.model.TableModel.*;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What a movie's write reads of its collection to keep the copies of it true ({@link TableModel}'s
 * declarations of which entities copy which of the movie's attributes), as sort-key ranges.
 */
public final class MovieCopyRanges {
    private MovieCopyRanges() {
    }

    /** The sort keys from {@code from} to {@code to}, both included, of one partition. */
    public record SortKeyRange(String from, String to) {
    }

    /**
     * What a movie's write reads to derive its entries again: its search and list entries, and its other
     * titles with their search entries (which depend on its own title).
     */
    public static final List<Entity<?>> MOVIE_DERIVED = List.of(MOVIE_WORD, MOVIE_LIST, MOVIE_TITLE, TITLE_WORD);

    /**
     * The sort-key ranges of a movie's collection that {@code putMovie} reads, one Query each: the items
     * that copy one of the movie's {@code changed} attributes, its credits (whose people it re-ranks) and
     * its search and list entries (which it replaces). An entity that copies the movie but none of what
     * changed splits the ranges: a movie's totals, one a month, are not read when its title stays. Other
     * entities between two that are read (the movie item, its awards: few, no copies) are read with them,
     * which costs less than a Query more. Derived from the sort-key templates' prefixes.
     */
    public static List<SortKeyRange> of(Set<String> changed) {
        String partition = MOVIE.template(PK).text();
        List<Entity<?>> collection = ENTITIES.stream()
                .filter(entity -> entity.template(PK) != null && entity.template(PK).text().equals(partition))
                .sorted(java.util.Comparator.comparing((Entity<?> entity) -> entity.template(SK).prefix()))
                .toList();
        List<SortKeyRange> ranges = new ArrayList<>();
        String from = null;
        String to = null;
        for (Entity<?> entity : collection) {
            List<Entity.Copy> copies = entity.copies().stream().filter(copy -> copy.source() == MOVIE).toList();
            boolean read = CREDITS.contains(entity) || MOVIE_DERIVED.contains(entity)
                    || copies.stream().anyMatch(copy -> copy.attributes().values().stream().anyMatch(changed::contains));
            String prefix = entity.template(SK).prefix();
            if (read) {
                from = from == null ? prefix : from;
                to = prefix + "~";
            } else if (!copies.isEmpty() && from != null) {
                ranges.add(new SortKeyRange(from, to));
                from = null;
            }
        }
        if (from != null) {
            ranges.add(new SortKeyRange(from, to));
        }
        return ranges;
    }
}
