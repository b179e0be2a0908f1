package dev.moviegraph.dynamo.model;

import dev.moviegraph.catalog.AccessPattern;
import dev.moviegraph.catalog.CatalogAccess;
import dev.moviegraph.catalog.CollectionRead;
import dev.moviegraph.catalog.ListBounds;
import dev.moviegraph.catalog.MovieId;
import dev.moviegraph.catalog.Part;
import dev.moviegraph.catalog.PersonId;
import dev.moviegraph.catalog.Role;
import dev.moviegraph.catalog.Slice;

import java.time.YearMonth;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;

/**
 * An item collection declared as data, as ElectroDB declares its collections: whose it is (the owner
 * entity, and the key values its id gives), and the lists it holds (a {@link Part} each, made of items
 * of these entities, read whole, by page, by a range or as a top list). Which indexes hold the
 * collection, and in what order each one's sort key puts the lists, is derived from the entities' key
 * templates; so are the Queries that answer a read ({@link #plan}), their key conditions, cursors and
 * estimates. The read path knows no collection by name: a new list is a new {@link Segment} here.
 *
 * <p>A {@link Visibility#PRIVATE} collection belongs to one signed-in viewer, its owner: its reads are
 * strongly consistent (a viewer sees their own writes at once), its owner item is created by the first
 * entry written ({@link #ownerCreation}: no count is missing before, it is zero), its counted lists are
 * written an entry at a time ({@link EntryWrite}), and a change of any of its items reaches the owner's
 * subscriptions alone ({@link #privateOwnerOf}).
 */
public final class ItemCollection {
    /** Who reads a collection: anyone (the catalog's), or only the viewer who owns it. */
    enum Visibility {
        CATALOG,
        PRIVATE
    }

    /** How a list is read. */
    enum Shape {
        /** Short and bounded (a movie's crew, a person's awards): read whole; a Query may read past it. */
        WHOLE,
        /** Paged in the order of its list index: a page is first + 1 items after a cursor. */
        PAGE,
        /** Whole between two values of {@link Segment#rangeAttribute} (a movie's months). */
        RANGE
    }

    /**
     * One list of the collection, or its owner item ({@code part} null).
     *
     * @param listIndex      the index whose sort key is the list's order (and its cursors' keys)
     * @param rangeAttribute for {@link Shape#RANGE}, the key attribute the slice's range bounds
     * @param countAttribute the owner item's attribute that counts the list (its totalCount), or null
     */
    public record Segment(Part part, List<Entity<?>> entities, Shape shape, Index listIndex, String rangeAttribute,
                   String countAttribute) {
        public Segment(Part part, List<Entity<?>> entities, Shape shape, Index listIndex) {
            this(part, entities, shape, listIndex, null, null);
        }

        public boolean isOwner() {
            return part == null;
        }

        // Each segment is declared once: identity is equality, and hashing one per item read (grouping a
        // Query's items by list) need not hash its entities' declarations.
        @Override
        public boolean equals(Object other) {
            return this == other;
        }

        @Override
        public int hashCode() {
            return System.identityHashCode(this);
        }

        /** Whether a Query may read through it when it is not asked for: one item, or a short list. */
        boolean skippable() {
            return isOwner() || shape == Shape.WHOLE;
        }

        String label(ItemCollection collection) {
            return isOwner() ? collection.kind.name() : part.name();
        }
    }

    /** The declared collections. */
    static final ItemCollection MOVIE = new ItemCollection(Part.Collection.MOVIE, CatalogAccess.MOVIE_COLLECTION,
            Visibility.CATALOG, "movieId", MovieId::of, List.of(
            owner(TableModel.MOVIE),
            new Segment(Part.MOVIE_AWARDS, List.of(TableModel.MOVIE_AWARD), Shape.WHOLE, Index.LSI1),
            new Segment(Part.DIRECTORS, List.of(TableModel.DIRECTOR), Shape.WHOLE, Index.LSI1),
            new Segment(Part.WRITERS, List.of(TableModel.WRITER), Shape.WHOLE, Index.LSI1),
            new Segment(Part.CAST, List.of(TableModel.CAST), Shape.PAGE, Index.LSI1, null, TableModel.CAST_COUNT),
            new Segment(Part.TOTALS, List.of(TableModel.TOTAL), Shape.RANGE, Index.TABLE, "month", null),
            new Segment(Part.TITLES, List.of(TableModel.MOVIE_TITLE), Shape.WHOLE, Index.TABLE)));

    static final ItemCollection PERSON = new ItemCollection(Part.Collection.PERSON, CatalogAccess.PERSON_CREDITS,
            Visibility.CATALOG, "personId", PersonId::of, List.of(
            owner(TableModel.PERSON),
            new Segment(Part.PERSON_AWARDS, List.of(TableModel.MOVIE_AWARD, TableModel.PERSON_AWARD), Shape.WHOLE,
                    Index.GSI3),
            new Segment(Part.ACTED, List.of(TableModel.CAST), Shape.PAGE, Index.GSI3, null, TableModel.counter(Role.CAST)),
            new Segment(Part.DIRECTED, List.of(TableModel.DIRECTOR), Shape.PAGE, Index.GSI3, null,
                    TableModel.counter(Role.DIRECTOR)),
            new Segment(Part.WROTE, List.of(TableModel.WRITER), Shape.PAGE, Index.GSI3, null,
                    TableModel.counter(Role.WRITER))));

    /** A signed-in viewer's own: their watchlist, newest first in LSI1 after the viewer item that counts it. */
    static final ItemCollection VIEWER = new ItemCollection(Part.Collection.VIEWER, CatalogAccess.OWNED_COLLECTION,
            Visibility.PRIVATE, "viewerId", id -> id, List.of(
            owner(TableModel.VIEWER),
            new Segment(Part.WATCHLIST, List.of(TableModel.WATCH_ENTRY), Shape.PAGE, Index.LSI1, null,
                    TableModel.WATCH_COUNT)));

    static final List<ItemCollection> ALL = List.of(MOVIE, PERSON, VIEWER);

    private static Segment owner(Entity<?> entity) {
        return new Segment(null, List.of(entity), Shape.WHOLE, Index.TABLE);
    }

    /**
     * The longest list of each part read whole ({@code WHOLE}: a movie's crew, awards) among {@code items}, by
     * owner: what a loader records for read estimates ({@code ItemWeights.observeList}) of the lists it wrote.
     */
    public static Map<Part, Integer> longestWholeLists(Collection<Map<String, AttributeValue>> items) {
        Map<Part, Map<String, Integer>> byOwner = new java.util.EnumMap<>(Part.class);
        for (ItemCollection collection : ALL) {
            for (Map<String, AttributeValue> item : items) {
                Segment segment = collection.segmentOf(item);
                if (segment != null && !segment.isOwner() && segment.shape() == Shape.WHOLE) {
                    AttributeValue owner = item.get(segment.listIndex().partitionKey());
                    if (owner == null) {
                        continue; // sparse: an award without a person is in no person's list
                    }
                    byOwner.computeIfAbsent(segment.part(), part -> new HashMap<>()).merge(owner.s(), 1, Integer::sum);
                }
            }
        }
        Map<Part, Integer> longest = new java.util.EnumMap<>(Part.class);
        byOwner.forEach((part, counts) -> longest.put(part, java.util.Collections.max(counts.values())));
        return longest;
    }

    public static ItemCollection of(Part.Collection kind) {
        return ALL.stream().filter(collection -> collection.kind == kind).findFirst().orElseThrow(
                () -> new IllegalStateException("No item collection is declared for " + kind));
    }

    private final Part.Collection kind;
    private final CatalogAccess serves;
    private final Visibility visibility;
    /** The key attribute the owner's id is, and its typed value from the id. */
    private final String idAttribute;
    private final Function<String, Object> idValue;
    private final List<Segment> segments;
    /** Each index that holds the whole collection or part of it, with its segments in its sort-key order. */
    private final Map<Index, List<Segment>> orderings = new LinkedHashMap<>();
    /** The segment each entity's items belong to. */
    private final Map<String, Segment> byType = new HashMap<>();
    /** The owner's partition-key template in each index that holds the collection. */
    private final Map<Index, KeyTemplate> partitions = new java.util.EnumMap<>(Index.class);

    private ItemCollection(Part.Collection kind, CatalogAccess serves, Visibility visibility, String idAttribute,
                           Function<String, Object> idValue, List<Segment> segments) {
        this.kind = kind;
        this.serves = serves;
        this.visibility = visibility;
        this.idAttribute = idAttribute;
        this.idValue = idValue;
        this.segments = List.copyOf(segments);
        for (Segment segment : segments) {
            if (segment.part() != null && segment.part().collection() != kind) {
                throw new IllegalStateException(segment.part() + " is not a part of a " + kind);
            }
            segment.entities().forEach(entity -> {
                if (byType.put(entity.type(), segment) != null) {
                    throw new IllegalStateException(entity.type() + " is in two lists of the " + kind + " collection");
                }
            });
        }
        for (Index index : Index.values()) {
            String template = partitionTemplate(segments.get(0), index);
            if (template == null || !Set.of(idAttribute).containsAll(new KeyTemplate(template).boundAttributes())) {
                continue; // not partitioned by the owner's id in this index
            }
            List<Segment> held = segments.stream().filter(segment -> holds(index, template, segment))
                    .sorted(Comparator.comparing(segment -> low(segment, index, Map.of(), null)))
                    .toList();
            if (held.stream().anyMatch(segment -> !segment.isOwner())) { // the owner alone is a GetItem
                for (int i = 1; i < held.size(); i++) {
                    if (high(held.get(i - 1), index, Map.of(), null).compareTo(low(held.get(i), index, Map.of(), null)) >= 0) {
                        throw new IllegalStateException("In " + index.label() + ", the keys of " + held.get(i - 1)
                                .label(this) + " and " + held.get(i).label(this) + " overlap");
                    }
                }
                orderings.put(index, held);
                partitions.put(index, new KeyTemplate(template));
            }
        }
        if (orderings.isEmpty()) {
            throw new IllegalStateException("No index holds the " + kind + " collection");
        }
    }

    /** The partition-key template of {@code segment}'s entities on {@code index}, if they all have the same one. */
    private static String partitionTemplate(Segment segment, Index index) {
        List<String> templates = segment.entities().stream().map(entity -> entity.template(index.partitionKey()))
                .map(template -> template == null ? null : template.text()).distinct().toList();
        return templates.size() == 1 ? templates.get(0) : null;
    }

    /** Whether every item of the segment is in the index, in the collection's partition there. */
    private static boolean holds(Index index, String partition, Segment segment) {
        if (partition == null || !partition.equals(partitionTemplate(segment, index))) {
            return false;
        }
        boolean templatedSort = segment.entities().stream().allMatch(entity -> entity.template(index.sortKey()) != null);
        return templatedSort;
    }

    Part.Collection kind() {
        return kind;
    }

    /** The key values of the owner whose id this is ({@code movieId}, {@code personId}, {@code month}). */
    Map<String, Object> keyValues(String id) {
        return Map.of(idAttribute, idValue.apply(id));
    }

    /** The owner's partition key value in {@code index}: what a cursor of a list read there must carry. */
    public String partition(Index index, String id) {
        return partitions.get(index).render(keyValues(id));
    }

    /** The segment an item belongs to, or null for an item of no list of this collection. */
    public Segment segmentOf(Map<String, AttributeValue> item) {
        return byType.get(TableModel.type(item));
    }

    /** Whether an item of a list is within the read's slice of it (a range of months), as its sort key says. */
    public boolean inSlice(Segment segment, CollectionRead read, Map<String, AttributeValue> item) {
        if (segment.rangeAttribute() == null) {
            return true;
        }
        Index index = segment.listIndex();
        Slice slice = read.slice(segment.part());
        String key = item.get(index.sortKey()).s();
        return key.compareTo(low(segment, index, keyValues(read.id()), slice)) >= 0
                && key.compareTo(high(segment, index, keyValues(read.id()), slice)) <= 0;
    }

    /** The one Query that reads a whole list in its own order (what writers count). */
    public Run wholeList(Part part) {
        Segment segment = segments.stream().filter(s -> part == s.part()).findFirst()
                .orElseThrow(() -> new IllegalArgumentException(part + " is not a list of the " + kind + " collection"));
        return new Run(this, segment.listIndex(), List.of(segment), List.of(segment));
    }

    /** The owner and the lists, as declared. */
    public List<Segment> segments() {
        return segments;
    }

    /** Whether it belongs to one viewer ({@link Visibility#PRIVATE}). */
    public boolean isPrivate() {
        return visibility == Visibility.PRIVATE;
    }

    /** The declared list {@code part}. */
    public Segment segment(Part part) {
        return segments.stream().filter(s -> part == s.part()).findFirst()
                .orElseThrow(() -> new IllegalArgumentException(part + " is not a list of the " + kind + " collection"));
    }

    private Entity<?> ownerEntity() {
        return segments.get(0).entities().get(0);
    }

    /** The owner item's primary key. */
    public Map<String, AttributeValue> ownerKey(String id) {
        return ownerEntity().key(keyValues(id));
    }

    /**
     * What makes the owner item of a private collection, set by the same update that counts its first
     * entry (an ADD creates the item): its type, its id and its keys in the indexes that hold it, so it
     * decodes and sorts before its lists there as a declared item does.
     */
    public ItemUpdate ownerCreation(String id) {
        Entity<?> owner = ownerEntity();
        Map<String, Object> values = keyValues(id);
        ItemUpdate update = ItemUpdate.create().set(TableModel.TYPE, AttributeValue.fromS(owner.type()))
                .set(idAttribute, Entity.encodeValue(values.get(idAttribute)));
        for (Map.Entry<String, KeyTemplate> key : owner.keys().entrySet()) {
            if (!key.getKey().equals(TableModel.PK) && !key.getKey().equals(TableModel.SK)) {
                update = update.set(key.getKey(), AttributeValue.fromS(key.getValue().render(values)));
            }
        }
        return update;
    }

    /**
     * The owner of the private collection whose table partition is {@code pk}, if it is one: what the
     * change feed names so that only that owner's subscriptions read again.
     */
    public static java.util.Optional<dev.moviegraph.catalog.CatalogChanges.Owner> privateOwnerOf(String pk) {
        for (ItemCollection collection : ALL) {
            if (!collection.isPrivate()) {
                continue;
            }
            KeyTemplate partition = collection.ownerEntity().template(TableModel.PK);
            String prefix = partition.prefix();
            if (pk.startsWith(prefix) && pk.length() > prefix.length()) {
                String id = pk.substring(prefix.length());
                if (partition.render(collection.keyValues(id)).equals(pk)) {
                    return java.util.Optional.of(new dev.moviegraph.catalog.CatalogChanges.Owner(collection.kind, id));
                }
            }
        }
        return java.util.Optional.empty();
    }

    /** The write of one entry of a counted list: added or taken out with its owner's count, in one transaction. */
    public EntryWrite entryWrite(Part part, boolean adds) {
        Segment segment = segment(part);
        if (!isPrivate() || segment.shape() != Shape.PAGE || segment.countAttribute() == null
                || segment.entities().size() != 1) {
            throw new IllegalArgumentException(part + " is not a counted list of one entity of a private collection");
        }
        return new EntryWrite(this, segment, adds);
    }

    /**
     * One entry of a counted list of a private collection written with its owner's count, in one
     * TransactWriteItems: put on condition it is new (or deleted on condition it is there) and the count
     * moved by one, so the count stays exact and a repeat changes nothing.
     */
    public record EntryWrite(ItemCollection collection, Segment segment, boolean adds) implements CallPattern {
        @Override
        public String name() {
            return (adds ? "ADD_" : "REMOVE_") + segment.part().name();
        }

        @Override
        public String operation() {
            return "TransactWriteItems";
        }

        @Override
        public String indexLabel() {
            return Index.TABLE.label();
        }

        @Override
        public boolean writes() {
            return true;
        }

        @Override
        public String render(Map<String, AttributeValue> values) {
            return describe();
        }

        /** The entity of the entries. */
        public Entity<?> entity() {
            return segment.entities().get(0);
        }

        /** The keys it writes, as templates: the entry's and its owner's. */
        public String describe() {
            Entity<?> entry = entity();
            Entity<?> owner = collection.ownerEntity();
            return KeyMatch.substitute(KeyMatch.EQUALS.on(Index.TABLE), Map.of(
                    ":pk", entry.template(TableModel.PK).text(),
                    ":sk", entry.template(TableModel.SK).text() + " | " + owner.template(TableModel.SK).text())::get);
        }

        AccessPattern pattern() {
            return new AccessPattern(name(), CatalogAccess.LIST_ENTRY, operation(), indexLabel(), describe());
        }
    }

    // ---- key conditions, derived from the templates

    /** The lowest sort key of the segment's items for these values (a range's start, or the type prefix). */
    private static String low(Segment segment, Index index, Map<String, ?> values, Slice slice) {
        return segment.entities().stream().map(entity -> entity.template(index.sortKey()))
                .map(template -> template == null ? "" : template.renderPrefix(withRange(segment, values, slice, true)))
                .min(Comparator.naturalOrder()).orElseThrow();
    }

    /** The highest: a whole key, or a prefix followed by '~' (after every digit and letter). */
    private static String high(Segment segment, Index index, Map<String, ?> values, Slice slice) {
        return segment.entities().stream().map(entity -> entity.template(index.sortKey()))
                .map(template -> {
                    if (template == null) {
                        return "~";
                    }
                    Map<String, ?> bound = withRange(segment, values, slice, false);
                    return template.completeFor(bound) ? template.render(bound) : template.renderPrefix(bound) + "~";
                })
                .max(Comparator.naturalOrder()).orElseThrow();
    }

    private static Map<String, ?> withRange(Segment segment, Map<String, ?> values, Slice slice, boolean from) {
        if (segment.rangeAttribute() == null || slice == null || slice.months() == null) {
            return values;
        }
        Object end = from ? slice.months().from() : slice.months().to();
        if (end == null) {
            return values;
        }
        Map<String, Object> bounded = new HashMap<>(values);
        bounded.put(segment.rangeAttribute(), end);
        return bounded;
    }

    // ---- plans

    /**
     * One Query of the collection: a run of segments next to each other in one index's order, from the
     * first one's lowest key to the last one's highest. {@code wanted} are those the read asked for; the
     * others are read through and dropped (a movie's writers between its directors and the movie).
     */
    public record Run(ItemCollection collection, Index index, List<Segment> segments, List<Segment> wanted) implements CallPattern {
        @Override
        public String operation() {
            return ownerOnly() ? "GetItem" : "Query";
        }

        @Override
        public String indexLabel() {
            return index.label();
        }

        @Override
        public boolean writes() {
            return false;
        }

        @Override
        public String render(Map<String, AttributeValue> values) {
            return KeyMatch.substitute(KeyMatch.of(values).on(index), placeholder -> values.get(placeholder).s());
        }

        /** How many of its lists are read outside their own order (and ordered in memory). */
        int outOfOrder() {
            return (int) wanted.stream().filter(segment -> !segment.isOwner() && segment.listIndex() != index).count();
        }

        /** How many of those are paged lists, read whole because of it. */
        int pagedOutOfOrder() {
            return (int) wanted.stream().filter(segment -> segment.shape() == Shape.PAGE && segment.listIndex() != index)
                    .count();
        }

        /** The one segment read by page in this index's order, if the run ends with one. */
        public Segment paged() {
            Segment last = segments.get(segments.size() - 1);
            return last.shape() == Shape.PAGE && last.listIndex() == index ? last : null;
        }

        public boolean ownerOnly() {
            return segments.size() == 1 && segments.get(0).isOwner();
        }

        @Override
        public String name() {
            return segments.stream().map(segment -> segment.label(collection)).collect(Collectors.joining("+"));
        }

        /** The Query's key condition and values for the read's owner and slices. */
        public QueryRequest.Builder query(String table, CollectionRead read) {
            Map<String, Object> values = collection.keyValues(read.id());
            Map<String, AttributeValue> rendered = new LinkedHashMap<>();
            rendered.put(":pk", AttributeValue.fromS(collection.partitions.get(index).render(values)));
            KeyMatch match = sortCondition(values, read, rendered);
            return QueryRequest.builder().tableName(table).indexName(index.indexName())
                    .keyConditionExpression(match.on(index))
                    .expressionAttributeValues(rendered)
                    .scanIndexForward(true)
                    // A viewer reads their own writes: strongly consistent where DynamoDB allows it (not a GSI).
                    .consistentRead(collection.isPrivate() && (index == Index.TABLE || index.isLocal()) ? Boolean.TRUE : null);
        }

        /** How the Query matches the sort key; its values go into {@code rendered}. */
        private KeyMatch sortCondition(Map<String, ?> values, CollectionRead read, Map<String, AttributeValue> rendered) {
            Segment first = segments.get(0);
            Segment last = segments.get(segments.size() - 1);
            if (first.entities().get(0).template(index.sortKey()) == null) {
                return KeyMatch.NONE;
            }
            String low = low(first, index, values, first.isOwner() ? null : read.slice(first.part()));
            String high = high(last, index, values, last.isOwner() ? null : read.slice(last.part()));
            if (high.equals(low + "~")) {
                rendered.put(":sk", AttributeValue.fromS(low));
                return KeyMatch.BEGINS_WITH;
            }
            rendered.put(":from", AttributeValue.fromS(low));
            rendered.put(":to", AttributeValue.fromS(high));
            return KeyMatch.BETWEEN;
        }

        /** The key condition as plans and the docs show it: templates, not values. */
        public String describe() {
            Segment first = segments.get(0);
            Segment last = segments.get(segments.size() - 1);
            Map<String, String> shown = new HashMap<>(Map.of(":pk", partitionTemplate(first, index)));
            KeyMatch match = KeyMatch.NONE;
            if (first.entities().get(0).template(index.sortKey()) != null) {
                String low = templateBound(first, false);
                String high = templateBound(last, true);
                match = high.equals(low + "~") ? KeyMatch.BEGINS_WITH : KeyMatch.BETWEEN;
                shown.putAll(match == KeyMatch.BEGINS_WITH ? Map.of(":sk", low) : Map.of(":from", low, ":to", high));
            }
            return KeyMatch.substitute(match.on(index), shown::get);
        }

        /**
         * A segment's lowest or highest sort key as a template: whole where the owner's id gives every
         * attribute of it, else its prefix (followed by '~' for the highest).
         */
        private String templateBound(Segment segment, boolean upper) {
            Comparator<String> order = Comparator.naturalOrder();
            return segment.entities().stream().map(entity -> entity.template(index.sortKey()))
                    .map(template -> collection.keyAttributes().containsAll(template.attributes()) ? template.text()
                            : template.prefix() + (upper ? "~" : ""))
                    .max(upper ? order : order.reversed()).orElseThrow();
        }

        /** At most how many items the Query reads. */
        public int mostItems(CollectionRead read, ListBounds bounds) {
            return segments.stream().mapToInt(segment -> items(segment, read, bounds)).sum();
        }

        /** At most how many items come before the paged segment: the slack of its first request. */
        public int itemsBeforePage(CollectionRead read, ListBounds bounds) {
            return segments.subList(0, segments.size() - 1).stream().mapToInt(segment -> items(segment, read, bounds)).sum();
        }

        private int items(Segment segment, CollectionRead read, ListBounds bounds) {
            if (segment.isOwner()) {
                return 1;
            }
            Slice slice = wanted.contains(segment) ? read.slice(segment.part()) : Slice.all();
            return switch (segment.shape()) {
                case WHOLE -> bounds.mostItems(segment.part(), Slice.all());
                case PAGE -> segment.listIndex() == index ? bounds.mostItems(segment.part(), slice) + 1
                        : bounds.mostItems(segment.part(), Slice.all());
                case RANGE -> slice.mostItems();
            };
        }
    }

    /** The attributes the owner's id gives: those a key condition has values for. */
    private Set<String> keyAttributes() {
        return Set.of(idAttribute);
    }

    /**
     * The calls that answer {@code read}: the index whose order answers it in the fewest Queries (then
     * the fewest items), each Query a run of segments next to each other there. A run that is the owner
     * alone is a GetItem ({@link Run#ownerOnly()}). The one decision reads and plans both follow.
     */
    public List<Run> plan(CollectionRead read, ListBounds bounds) {
        List<Run> best = null;
        int[] bestCost = null;
        for (Map.Entry<Index, List<Segment>> ordering : orderings.entrySet()) {
            List<Run> runs = runs(ordering.getKey(), ordering.getValue(), read);
            if (runs == null) {
                continue;
            }
            // A paged list read whole (out of its order) only when nothing else can; then the fewest
            // calls; then lists read in their own order (no sorting in memory); then the fewest items.
            int[] cost = {runs.stream().mapToInt(Run::pagedOutOfOrder).sum(), runs.size(),
                    runs.stream().mapToInt(Run::outOfOrder).sum(), runs.stream().mapToInt(run -> run.mostItems(read, bounds)).sum()};
            if (best == null || java.util.Arrays.compare(cost, bestCost) < 0) {
                best = runs;
                bestCost = cost;
            }
        }
        if (best == null) {
            throw new IllegalStateException("No index holds every list of " + read);
        }
        return best;
    }

    /** The runs that read the wanted segments in this index, or null when it lacks one of them. */
    private List<Run> runs(Index index, List<Segment> ordered, CollectionRead read) {
        List<Segment> wanted = segments.stream().filter(segment -> wants(read, segment)).toList();
        if (!ordered.containsAll(wanted)) {
            return null;
        }
        List<Run> runs = new ArrayList<>();
        List<Segment> current = new ArrayList<>();
        for (Segment segment : ordered) {
            if (wanted.contains(segment)) {
                Slice slice = segment.isOwner() ? null : read.slice(segment.part());
                boolean pagedHere = segment.shape() == Shape.PAGE && segment.listIndex() == index;
                if (pagedHere && slice.page() != null && slice.page().after() != null) {
                    // A later page starts at its cursor: a Query of its own.
                    close(runs, index, current, wanted);
                    current.add(segment);
                    close(runs, index, current, wanted);
                    continue;
                }
                current.add(segment);
                if (pagedHere) {
                    close(runs, index, current, wanted); // the page ends the Query
                }
            } else if (!current.isEmpty() && segment.skippable()) {
                current.add(segment);
            } else {
                close(runs, index, current, wanted);
            }
        }
        close(runs, index, current, wanted);
        return runs;
    }

    private void close(List<Run> runs, Index index, List<Segment> current, List<Segment> wanted) {
        while (!current.isEmpty() && !wanted.contains(current.get(current.size() - 1))) {
            current.remove(current.size() - 1);
        }
        if (!current.isEmpty()) {
            runs.add(new Run(this, index, List.copyOf(current),
                    current.stream().filter(wanted::contains).toList()));
            current.clear();
        }
    }

    private static boolean wants(CollectionRead read, Segment segment) {
        return segment.isOwner() ? read.includeOwner() : read.parts().containsKey(segment.part());
    }

    /** Each index that holds the collection, with the lists in its order: the docs' and the start-up check's view. */
    public List<AccessPattern> describe() {
        List<AccessPattern> patterns = new ArrayList<>();
        orderings.forEach((index, ordered) -> {
            Run whole = new Run(this, index, ordered, ordered);
            patterns.add(new AccessPattern(kind.name() + "_COLLECTION_" + index.label().toUpperCase(), serves, "Query",
                    index.label(), whole.describe() + " (" + whole.name().replace("+", ", ") + ")"));
        });
        if (isPrivate()) {
            for (Segment segment : segments) {
                if (!segment.isOwner() && segment.shape() == Shape.PAGE && segment.countAttribute() != null) {
                    patterns.add(entryWrite(segment.part(), true).pattern());
                    patterns.add(entryWrite(segment.part(), false).pattern());
                }
            }
        }
        return patterns;
    }
}
