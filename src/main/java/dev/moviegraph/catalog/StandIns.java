package dev.moviegraph.catalog;

import java.lang.reflect.RecordComponent;
import java.time.YearMonth;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The items a planning run answers with instead of reading: the worst case the arguments allow. Every
 * id exists, every page is full ({@code first} entries, {@code limit} totals), each entry with ids of
 * its own, so the calls planned below them are the most the query can make. An open month range counts
 * as one month. Built from the record type each {@link Part} declares, so a new list needs no code here.
 */
public final class StandIns {
    private static final String TEXT = "Planned";
    private static final int MAX_MONTHS = 100;

    private final AtomicInteger ids = new AtomicInteger();

    /** A stand-in for the item {@code ref} names: its key fields as given, text "Planned", the rest empty. */
    public <T extends Record> T item(ItemRef<T> ref) {
        return Records.construct(ref.type(), Records.components((Record) ref), StandIns::placeholder);
    }

    /** The answer to a whole collection read, each list as long as its slice allows. */
    public CollectionPage page(CollectionRead read) {
        return page(read, ListBounds.SLICES);
    }

    /** The same with each list as long as the store's {@code bounds} allow: no longer than its longest. */
    public CollectionPage page(CollectionRead read, ListBounds bounds) {
        Record owner = read.includeOwner() && read.owner() != null ? item(read.owner()) : null;
        Map<Part, Page<?>> lists = new EnumMap<>(Part.class);
        read.parts().forEach((part, slice) -> {
            List<Record> items = items(part, slice, read.id(), bounds.mostItems(part, slice));
            List<Page.Entry<Record>> entries = items.stream().map(item -> new Page.Entry<>(() -> TEXT, item)).toList();
            // As long as the list could be: a count the planning run can give without a store.
            lists.put(part, new Page<>(entries, true, items.size()));
        });
        return new CollectionPage(owner, lists);
    }

    /** The stand-in items of one list of an owner: one a month of a month range, else as many as the bounds allow. */
    private List<Record> items(Part part, Slice slice, String ownerId, int most) {
        if (slice.months() != null) {
            return months(slice.months()).stream().map(month -> standIn(part, ownerId, 0, month)).toList();
        }
        List<Record> items = new ArrayList<>();
        for (int i = 0; i < most; i++) {
            items.add(standIn(part, ownerId, most - i, null));
        }
        return items;
    }

    /**
     * One item of a list, built from its record type: the owner's id where it names its owner, a fresh id
     * for every other movie or person it names (so the calls planned below it are real), the list's role,
     * and {@code rank} for its numbers (a place, a count, a year), so that any new list needs no code here.
     */
    private Record standIn(Part part, String ownerId, int rank, YearMonth month) {
        return Records.construct(part.itemType(), Map.of(), component -> {
            Class<?> type = component.getType();
            if (type == MovieId.class) {
                return part.collection() == Part.Collection.MOVIE ? MovieId.of(ownerId) : nextMovie();
            }
            if (type == PersonId.class) {
                return part.collection() == Part.Collection.PERSON ? PersonId.of(ownerId) : nextPerson();
            }
            if (type == YearMonth.class) {
                return part.collection() == Part.Collection.MONTH ? YearMonth.parse(ownerId) : month;
            }
            if (type == Role.class) {
                return part.role();
            }
            if (type == int.class || type == Integer.class) {
                return rank;
            }
            if (type == long.class || type == Long.class) {
                return (long) rank;
            }
            return placeholder(component);
        });
    }

    /**
     * A full page of a search of each kind asked for: a real page may be all movies or all people, so
     * the plan reads the fields of both as if the whole page were of that kind (at most one kind's worth
     * too many, which keeps the estimate an upper bound and within twice the reads).
     */
    public Page<SearchHit> search(SearchRead read) {
        List<Page.Entry<SearchHit>> entries = new ArrayList<>();
        for (SearchKind kind : new java.util.TreeSet<>(read.kinds())) {
            for (int i = 0; i < read.page().first(); i++) {
                String id = kind == SearchKind.MOVIE ? nextMovie().value() : nextPerson().value();
                entries.add(new Page.Entry<>(() -> TEXT, new SearchHit(kind, id, TEXT, null,
                        kind == SearchKind.PERSON ? new KnownFor(nextMovie(), TEXT, null, 0) : null)));
            }
        }
        return new Page<>(entries, true);
    }

    /** A full page of an award's winners, each naming a person and a movie. */
    public Page<Award> winners(AwardWinnersRead read) {
        List<Page.Entry<Award>> entries = new ArrayList<>();
        for (int i = 0; i < read.page().first(); i++) {
            entries.add(new Page.Entry<>(() -> TEXT, new Award(TEXT, TEXT, 2000, true, nextPerson(), nextMovie())));
        }
        return new Page<>(entries, true);
    }

    /** A full page of a movie list. */
    public Page<SearchHit> list(ListRead read) {
        List<Page.Entry<SearchHit>> entries = new ArrayList<>();
        for (int i = 0; i < read.page().first(); i++) {
            entries.add(new Page.Entry<>(() -> TEXT, new SearchHit(SearchKind.MOVIE, nextMovie().value(), TEXT, null, null)));
        }
        return new Page<>(entries, true);
    }

    private MovieId nextMovie() {
        return MovieId.of(String.format("tt%08d", 90_000_000 + ids.incrementAndGet()));
    }

    private PersonId nextPerson() {
        return PersonId.of(String.format("nm%08d", 90_000_000 + ids.incrementAndGet()));
    }

    private static Object placeholder(RecordComponent component) {
        Class<?> type = component.getType();
        if (type == String.class) {
            return TEXT;
        }
        if (type == List.class) {
            return List.of();
        }
        if (type == long.class) {
            return 0L;
        }
        if (type == int.class) {
            return 0;
        }
        if (type == boolean.class) {
            return false;
        }
        return null;
    }

    private static List<YearMonth> months(MonthRange range) {
        if (range.from() == null || range.to() == null) {
            return List.of(range.from() != null ? range.from() : range.to() != null ? range.to() : YearMonth.of(2000, 1));
        }
        long count = Math.min(MAX_MONTHS, ChronoUnit.MONTHS.between(range.from(), range.to()) + 1);
        List<YearMonth> months = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            months.add(range.from().plusMonths(i));
        }
        return months;
    }
}
