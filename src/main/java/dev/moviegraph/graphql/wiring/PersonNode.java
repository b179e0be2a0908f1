package dev.moviegraph.graphql.wiring;

import dev.moviegraph.catalog.Part;
import dev.moviegraph.catalog.Person;
import dev.moviegraph.catalog.PersonId;

import java.util.Map;

/** What the GraphQL layer knows about a person: see {@link MovieNode}; a credit copies the name. */
record PersonNode(PersonId id, Person person, String copiedName, Map<Part, Prefetched> parts) {
    PersonNode {
        parts = Map.copyOf(parts);
    }

    static PersonNode reference(PersonId id, String copiedName) {
        return new PersonNode(id, null, copiedName, Map.of());
    }

    static PersonNode of(Person person) {
        return new PersonNode(person.id(), person, null, Map.of());
    }
}
