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

    /**
     * How to read a root movie: {@code read} covers the movie with a first cast page and its totals in
     * one request (null when the movie item alone is enough); {@code laterCast} is a cast page after a
     * cursor, which cannot come with the movie item (it sorts first) and so is read beside it, at once.
     */
    record MoviePlan(MovieRead read, PageRequest laterCast) {
    }

    /** How to read a root actor; see {@link MoviePlan}. */
    record ActorPlan(FilmographyRead read, PageRequest laterMovies) {
    }

    static MoviePlan movie(MovieId id, DataFetchingFieldSelectionSet selection) {
        PageRequest cast = single(selection, "cast", args -> castPage(args, DEFAULT_CAST_FIRST));
        MonthRange totals = single(selection, "streamTotals", ReadPlans::monthRange);
        PageRequest firstCast = isFirst(cast) ? cast : null;
        MovieRead read = firstCast == null && totals == null ? null : new MovieRead(id, true, firstCast, totals);
        return new MoviePlan(read, isFirst(cast) ? null : cast);
    }

    static ActorPlan actor(ActorId id, DataFetchingFieldSelectionSet selection) {
        PageRequest movies = single(selection, "movies", args -> castPage(args, DEFAULT_FILMOGRAPHY_FIRST));
        return new ActorPlan(isFirst(movies) ? new FilmographyRead(id, true, movies) : null,
                isFirst(movies) ? null : movies);
    }

    private static boolean isFirst(PageRequest page) {
        return page != null && page.after() == null;
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
