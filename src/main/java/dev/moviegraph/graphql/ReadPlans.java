package dev.moviegraph.graphql;

import dev.moviegraph.catalog.ActorId;
import dev.moviegraph.catalog.FilmographyRead;
import dev.moviegraph.catalog.InvalidInputException;
import dev.moviegraph.catalog.MonthRange;
import dev.moviegraph.catalog.MovieId;
import dev.moviegraph.catalog.MovieRead;
import dev.moviegraph.catalog.PageRequest;

import graphql.schema.DataFetchingFieldSelectionSet;
import graphql.schema.SelectedField;

import java.time.YearMonth;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Looks at what a query selects under a movie or an actor and decides which single DynamoDB request
 * answers it: the item alone (BatchGetItem), the item with its cast (LSI1 Query), with its totals
 * (table Query on a sort-key range), or everything (one table Query of the item collection).
 */
final class ReadPlans {
    private ReadPlans() {
    }

    static final int DEFAULT_CAST_FIRST = 50;
    static final int DEFAULT_FILMOGRAPHY_FIRST = 20;

    /** The read for a root movie field; null means the movie item alone is enough. */
    static MovieRead movie(MovieId id, DataFetchingFieldSelectionSet selection) {
        PageRequest cast = firstPage(single(selection, "cast", args -> castPage(args, DEFAULT_CAST_FIRST)));
        MonthRange totals = single(selection, "streamTotals", ReadPlans::monthRange);
        if (cast == null && totals == null) {
            return null;
        }
        return new MovieRead(id, true, cast, totals);
    }

    /** The read for a root actor field; null means the actor item alone is enough. */
    static FilmographyRead actor(ActorId id, DataFetchingFieldSelectionSet selection) {
        PageRequest movies = firstPage(single(selection, "movies", args -> castPage(args, DEFAULT_FILMOGRAPHY_FIRST)));
        return movies == null ? null : new FilmographyRead(id, true, movies);
    }

    /**
     * Only first pages are read together with their parent: a later page cannot reach the parent item
     * anyway, and a bad cursor or page size must fail the list field itself, not its parent.
     */
    private static PageRequest firstPage(PageRequest page) {
        return page == null || page.after() != null ? null : page;
    }

    static PageRequest castPage(Map<String, Object> arguments, int defaultFirst) {
        Integer first = arguments.containsKey("first") ? (Integer) arguments.get("first") : defaultFirst;
        return PageRequest.of(first, (String) arguments.get("after"));
    }

    static MonthRange monthRange(Map<String, Object> arguments) {
        return new MonthRange((YearMonth) arguments.get("from"), (YearMonth) arguments.get("to"));
    }

    /**
     * The one request a field's arguments make, when the field is selected exactly once (aliases with
     * different arguments are each read on their own later, which stays correct, just not prefetched).
     */
    private static <T> T single(DataFetchingFieldSelectionSet selection, String field,
                                Function<Map<String, Object>, T> toRequest) {
        List<SelectedField> fields = selection.getImmediateFields().stream()
                .filter(f -> f.getName().equals(field)).toList();
        if (fields.isEmpty()) {
            return null;
        }
        Set<Map<String, Object>> distinct = Set.copyOf(fields.stream().map(SelectedField::getArguments).toList());
        if (distinct.size() != 1) {
            return null;
        }
        try {
            return toRequest.apply(fields.get(0).getArguments());
        } catch (InvalidInputException e) {
            return null; // the field's own fetcher reports it, at its own path
        }
    }
}
