package dev.moviegraph.catalog;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One of a movie's first-billed cast as its movie item copies it ({@link Movie#firstCast}): what a cast
 * credit shows of its person, so that a page of a movie's first cast needs no read of the credits.
 *
 * @param billing the place in the credits, null when uncredited (listed last)
 */
public record BilledCast(PersonId personId, String personName, List<String> characters, Integer billing) {
    public BilledCast {
        characters = characters == null ? List.of() : List.copyOf(characters);
    }

    /**
     * The order of a movie's cast: by billing, uncredited last, then by person id. The same order as the
     * credit-order index's keys ({@code movie#cast#{billing:pad}#{personId}}, {@code BilledCastOrderTest}).
     */
    public static final Comparator<BilledCast> CREDIT_ORDER = Comparator
            .comparingInt((BilledCast billed) -> billed.billing() == null ? Writes.MAX_BILLING + 1 : billed.billing())
            .thenComparing(billed -> billed.personId().value());

    /** The first-billed of {@code cast}: the first {@link Movie#FIRST_CAST} in credit order. */
    public static List<BilledCast> firstBilled(Collection<BilledCast> cast) {
        List<BilledCast> sorted = new ArrayList<>(cast);
        sorted.sort(CREDIT_ORDER);
        return List.copyOf(sorted.subList(0, Math.min(Movie.FIRST_CAST, sorted.size())));
    }

    /** Each movie's first-billed cast, made from its credits (crew ignored): what loaders copy onto movie items. */
    public static Map<MovieId, List<BilledCast>> firstBilledOf(Collection<Credit> credits) {
        Map<MovieId, List<BilledCast>> cast = new HashMap<>();
        for (Credit credit : credits) {
            if (credit.role() == Role.CAST) {
                cast.computeIfAbsent(credit.movieId(), id -> new ArrayList<>()).add(of(credit));
            }
        }
        cast.replaceAll((movie, members) -> firstBilled(members));
        return cast;
    }

    /** What the movie item copies of a cast credit. */
    public static BilledCast of(Credit credit) {
        return new BilledCast(credit.personId(), credit.personName(), credit.characters(), credit.position());
    }

    /** The cast credit this copies, in {@code movie} (whose title and year the credit carries too). */
    public Credit credit(Movie movie) {
        return new Credit(movie.id(), personId, Role.CAST, movie.title(), movie.year(), personName, characters, billing);
    }
}
