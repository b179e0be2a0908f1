package dev.moviegraph.catalog;

import java.util.List;

/**
 * A person's own details (an actor, director or writer alike), as held by the person item.
 * {@code professions} is IMDb's primaryProfession (e.g. actor, director, writer), empty when unknown:
 * imported data, not something clients write.
 */
public record Person(PersonId id, String name, Integer birthYear, Integer deathYear, List<String> professions,
                     Integer actedCount, Integer directedCount, Integer wroteCount) {
    public Person {
        professions = professions == null ? List.of() : List.copyOf(professions);
    }

    /** A person whose credits are not counted here (the store keeps the counts). */
    public Person(PersonId id, String name, Integer birthYear, Integer deathYear, List<String> professions) {
        this(id, name, birthYear, deathYear, professions, null, null, null);
    }

    /** This person with their credits in each role counted. */
    public Person withCounts(Integer acted, Integer directed, Integer wrote) {
        return new Person(id, name, birthYear, deathYear, professions, acted, directed, wrote);
    }

    /** How many credits the person has in {@code role}, or null when not counted. */
    public Integer count(Role role) {
        return switch (role) {
            case CAST -> actedCount;
            case DIRECTOR -> directedCount;
            case WRITER -> wroteCount;
        };
    }

    /** A person with no professions on record (one a client writes). */
    public Person(PersonId id, String name, Integer birthYear, Integer deathYear) {
        this(id, name, birthYear, deathYear, List.of());
    }

    /**
     * This person with the professions and credit counts of {@code stored}: a client's putPerson keeps what
     * an import wrote and what the credits counted.
     */
    public Person withProfessionsOf(Person stored) {
        return stored == null ? this : new Person(id, name, birthYear, deathYear, stored.professions,
                stored.actedCount, stored.directedCount, stored.wroteCount);
    }
}
