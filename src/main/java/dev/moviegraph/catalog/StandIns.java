package dev.moviegraph.catalog;

import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.time.LocalDate;
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
 * as one month. Built from the record type each {@link Part} declares, so a new list needs no code here;
 * a component type it has no value for stops the start ({@link #requireBuildable()}), never a request.
 */
public final class StandIns {
    private static final String TEXT = "Planned";
    private static final int MAX_MONTHS = 100;
    /** Records an item lists inside itself (a month's top list) in a stand-in: the most a read takes of them. */
    private static final int MOST_NESTED = 100;
    /** The month (and the day, its first) of a stand-in that names none of its own. */
    private static final YearMonth SOME_MONTH = YearMonth.of(2000, 1);

    private final AtomicInteger ids = new AtomicInteger();

    /** A stand-in for the item {@code ref} names: its key fields as given, text "Planned", the rest made up. */
    public <T extends Record> T item(ItemRef<T> ref) {
        return Records.construct(ref.type(), Records.components((Record) ref), component -> value(ref.type(), component, Place.NONE));
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

    /** One item of a list, built from its record type (see {@link #value}), so that any new list needs no code here. */
    private Record standIn(Part part, String ownerId, int rank, YearMonth month) {
        return build(part.itemType(), new Place(part, ownerId, rank, month));
    }

    private <T extends Record> T build(Class<T> type, Place place) {
        return Records.construct(type, Map.of(), component -> value(type, component, place));
    }

    /**
     * Where a stand-in stands: in a list ({@code part} of the owner {@code ownerId}, at {@code rank}, in
     * {@code month} of a month range) or, {@link #NONE}, read by key.
     */
    private record Place(Part part, String ownerId, int rank, YearMonth month) {
        static final Place NONE = new Place(null, null, 0, null);

        Part.Collection collection() {
            return part == null ? null : part.collection();
        }
    }

    /**
     * The value of one component of a stand-in: the owner's id where it names its owner, a fresh id for
     * every other movie or person it names (so the calls planned below it are real), the list's role, the
     * place for its numbers (a position, a count, a year), "Planned" for text, no entries in a list of
     * values but the most a read takes of a list of records, a nested record built the same way. Never null: a field a real item may lack is present
     * in a stand-in, the most a query can follow. A type with no case here is refused
     * ({@link #requireBuildable()} at start-up), never planned as null.
     */
    private Object value(Class<? extends Record> record, RecordComponent component, Place place) {
        Class<?> type = component.getType();
        if (type == String.class) {
            return TEXT;
        }
        if (type == List.class) {
            Type element = component.getGenericType() instanceof ParameterizedType list
                    ? list.getActualTypeArguments()[0] : null;
            if (element instanceof Class<?> nested && nested.isRecord()) {
                // Records listed inside an item (a month's top list): as many as a read can take, each of its own.
                List<Record> entries = new ArrayList<>();
                for (int i = 0; i < MOST_NESTED; i++) {
                    entries.add(build(nested.asSubclass(Record.class), new Place(null, null, MOST_NESTED - i, null)));
                }
                return List.copyOf(entries);
            }
            return List.of();
        }
        if (type == MovieId.class) {
            return place.collection() == Part.Collection.MOVIE ? MovieId.of(place.ownerId()) : nextMovie();
        }
        if (type == PersonId.class) {
            return place.collection() == Part.Collection.PERSON ? PersonId.of(place.ownerId()) : nextPerson();
        }
        if (type == YearMonth.class) {
            return place.month() != null ? place.month() : SOME_MONTH;
        }
        if (type == LocalDate.class) {
            return SOME_MONTH.atDay(1);
        }
        if (type == java.time.Instant.class) {
            return SOME_MONTH.atDay(1).atStartOfDay(java.time.ZoneOffset.UTC).toInstant().plusSeconds(place.rank());
        }
        if (type == Role.class && place.part() != null && place.part().role() != null) {
            return place.part().role();
        }
        if (type == int.class || type == Integer.class) {
            return place.rank();
        }
        if (type == long.class || type == Long.class) {
            return (long) place.rank();
        }
        if (type == double.class || type == Double.class) {
            return (double) place.rank();
        }
        if (type == boolean.class || type == Boolean.class) {
            return false;
        }
        if (type.isRecord()) {
            return build(type.asSubclass(Record.class), Place.NONE);
        }
        throw new IllegalStateException("A planning run cannot stand in for " + record.getSimpleName() + "."
                + component.getName() + ": StandIns has no value for its type " + type.getSimpleName()
                + (type == Role.class ? " outside a list of credits" : "") + "; give it one in StandIns.value");
    }

    /**
     * Builds one stand-in of every record type planning builds generically (the items every
     * {@link ItemRef} names, the items of every {@link Part}), so a component it has no value for stops
     * the start naming the record and the component, rather than a planning run answering null for it.
     *
     * @throws IllegalStateException naming the first record component it cannot make
     */
    public static void requireBuildable() {
        StandIns standIns = new StandIns();
        for (Class<? extends Record> type : referencedTypes()) {
            standIns.build(type, Place.NONE);
        }
        for (Part part : Part.values()) {
            String owner = switch (part.collection()) {
                case MOVIE -> standIns.nextMovie().value();
                case PERSON -> standIns.nextPerson().value();
                default -> TEXT; // an owner known by text alone (a viewer's subject)
            };
            standIns.standIn(part, owner, 1, SOME_MONTH);
        }
    }

    /** The same for one record type read by key (a model test's throwaway record). */
    static void requireBuildable(Class<? extends Record> type) {
        new StandIns().build(type, Place.NONE);
    }

    /** The type each kind of {@link ItemRef} names: the {@code T} of its {@code ItemRef<T>}. */
    static List<Class<? extends Record>> referencedTypes() {
        List<Class<? extends Record>> types = new ArrayList<>();
        for (Class<?> ref : ItemRef.class.getPermittedSubclasses()) {
            for (Type implemented : ref.getGenericInterfaces()) {
                if (implemented instanceof ParameterizedType generic && generic.getRawType() == ItemRef.class) {
                    types.add(((Class<?>) generic.getActualTypeArguments()[0]).asSubclass(Record.class));
                }
            }
        }
        return types;
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

    private static List<YearMonth> months(MonthRange range) {
        if (range.from() == null || range.to() == null) {
            return List.of(range.from() != null ? range.from() : range.to() != null ? range.to() : SOME_MONTH);
        }
        long count = Math.min(MAX_MONTHS, ChronoUnit.MONTHS.between(range.from(), range.to()) + 1);
        List<YearMonth> months = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            months.add(range.from().plusMonths(i));
        }
        return months;
    }
}
