package dev.moviegraph.catalog;

import java.util.List;

/**
 * One person in one movie in one role. The credit item carries copies of the person's name and the
 * movie's title and year, so the usual list shapes (a movie's cast or crew, a person's filmography)
 * need no second read.
 *
 * @param characters the characters played (cast only; empty for crew)
 * @param position   the place in the credits: billing for the cast (null when uncredited), the credit
 *                   order for directors and writers
 */
public record Credit(MovieId movieId, PersonId personId, Role role, String movieTitle, Integer movieYear,
                     String personName, List<String> characters, Integer position) {
    public Credit {
        characters = characters == null ? List.of() : List.copyOf(characters);
    }

    /**
     * Where a crew credit of {@code person} goes among the movie's credits in that role: the place it has when
     * it is credited again, else after the last one (at most {@link Writes#MAX_BILLING}).
     */
    public static int crewPosition(java.util.Collection<Credit> sameRole, PersonId person) {
        int last = 0;
        for (Credit credit : sameRole) {
            if (credit.personId().equals(person) && credit.position() != null) {
                return credit.position();
            }
            last = Math.max(last, credit.position() == null ? 0 : credit.position());
        }
        return Math.min(last + 1, Writes.MAX_BILLING);
    }
}
