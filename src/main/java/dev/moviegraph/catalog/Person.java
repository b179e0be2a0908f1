package dev.moviegraph.catalog;

import java.util.List;

/**
 * A person's own details (an actor, director or writer alike), as held by the person item.
 * {@code professions} is IMDb's primaryProfession (e.g. actor, director, writer), empty when unknown:
 * imported data, not something clients write.
 */
public record Person(PersonId id, String name, Integer birthYear, Integer deathYear, List<String> professions) {
    public Person {
        professions = professions == null ? List.of() : List.copyOf(professions);
    }

    /** A person with no professions on record (one a client writes). */
    public Person(PersonId id, String name, Integer birthYear, Integer deathYear) {
        this(id, name, birthYear, deathYear, List.of());
    }

    /** This person with the professions of {@code stored}: a client's putPerson keeps what an import wrote. */
    public Person withProfessionsOf(Person stored) {
        return stored == null ? this : new Person(id, name, birthYear, deathYear, stored.professions);
    }
}
