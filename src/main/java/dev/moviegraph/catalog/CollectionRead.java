package dev.moviegraph.catalog;

import java.time.YearMonth;
import java.util.EnumMap;
import java.util.Map;

/**
 * A read of one item collection or index partition: its owner item (a movie or a person) when
 * {@code includeOwner}, and any of its {@link Part}s. The store picks the cheapest requests that
 * answer all of it.
 *
 * @param id the owner's id: a movie id, a person id, or a month (yyyy-MM)
 */
public record CollectionRead(Part.Collection collection, String id, boolean includeOwner, Map<Part, Slice> parts) {
    public CollectionRead {
        parts = parts.isEmpty() ? Map.of() : Map.copyOf(new EnumMap<>(parts));
        for (Part part : parts.keySet()) {
            if (part.collection() != collection) {
                throw new IllegalArgumentException(part + " is not a part of a " + collection);
            }
        }
    }

    public static CollectionRead movie(MovieId id, boolean includeMovie, Map<Part, Slice> parts) {
        return new CollectionRead(Part.Collection.MOVIE, id.value(), includeMovie, parts);
    }

    public static CollectionRead person(PersonId id, boolean includePerson, Map<Part, Slice> parts) {
        return new CollectionRead(Part.Collection.PERSON, id.value(), includePerson, parts);
    }

    /**
     * The owner's reference, or null for an owner no read takes by key alone: a collection that belongs
     * to a viewer is read with its lists, its owner item (their counts) in the same Query.
     */
    public ItemRef<?> owner() {
        return switch (collection) {
            case MOVIE -> new ItemRef.MovieRef(MovieId.of(id));
            case PERSON -> new ItemRef.PersonRef(PersonId.of(id));
            default -> null;
        };
    }

    public Slice slice(Part part) {
        return parts.get(part);
    }

    /** The same read without the owner item and with only the given parts. */
    public CollectionRead only(Map<Part, Slice> kept) {
        return new CollectionRead(collection, id, false, kept);
    }
}
