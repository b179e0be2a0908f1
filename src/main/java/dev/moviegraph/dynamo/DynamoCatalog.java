package dev.moviegraph.dynamo;

import static dev.moviegraph.dynamo.TableModel.LSI1_SK;

import dev.moviegraph.catalog.AccessPattern;
import dev.moviegraph.catalog.Award;
import dev.moviegraph.catalog.AwardWinnersRead;
import dev.moviegraph.catalog.CallContext;
import dev.moviegraph.catalog.CatalogReader;
import dev.moviegraph.catalog.CollectionPage;
import dev.moviegraph.catalog.CollectionRead;
import dev.moviegraph.catalog.Credit;
import dev.moviegraph.catalog.CreditPage;
import dev.moviegraph.catalog.Fetched;
import dev.moviegraph.catalog.ItemRef;
import dev.moviegraph.catalog.ListBounds;
import dev.moviegraph.catalog.ListRead;
import dev.moviegraph.catalog.MonthRange;
import dev.moviegraph.catalog.MonthlyStreams;
import dev.moviegraph.catalog.Movie;
import dev.moviegraph.catalog.Person;
import dev.moviegraph.catalog.Page;
import dev.moviegraph.catalog.Part;
import dev.moviegraph.catalog.PlannedCall;
import dev.moviegraph.catalog.Role;
import dev.moviegraph.catalog.SearchHit;
import dev.moviegraph.catalog.SearchKind;
import dev.moviegraph.catalog.SearchRead;
import dev.moviegraph.catalog.Slice;
import dev.moviegraph.catalog.StoreUnavailableException;

import java.time.YearMonth;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DescribeTableRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;

/**
 * The catalog read port over the single table. A read is first turned into {@link Step}s, each one call
 * of an {@link Access} pattern (GetItem or BatchGetItem for keys, one Query on the table, LSI1, GSI3 or
 * GSI2 for a collection; never a Scan). A real read makes those calls; a planning read hands them to
 * the planner and answers with stand-ins, so the plan is the very decision the read takes. Every call
 * is reported with the capacity DynamoDB says it consumed.
 */
public final class DynamoCatalog implements CatalogReader {
    /** What a movie's first credits Query reads beyond its cast page: the crew sorts before the cast. */
    private static final int CREW_SLACK = 20;
    /** Awards a person's first acting page reads before the person item, in its first request. */
    private static final int AWARDS_SLACK = 10;
    /** Entries a search with narrowing words reads beyond its page, for those the words filter out. */
    private static final int NARROWING_SLACK = 200;

    private final DynamoDbAsyncClient client;
    private final String table;
    private final Batches batches;
    private final CursorCodec cursors;
    private final ItemWeights weights;

    public DynamoCatalog(DynamoDbAsyncClient client, String table, CursorCodec cursors) {
        this(client, table, cursors, ItemWeights.declared());
    }

    /** {@code weights}: what the table's items weigh, for read estimates. */
    public DynamoCatalog(DynamoDbAsyncClient client, String table, CursorCodec cursors, ItemWeights weights) {
        this.weights = weights;
        this.client = client;
        this.table = table;
        this.batches = new Batches(client, table);
        this.cursors = cursors;
    }

    // ---- items by key

    @Override
    public CompletableFuture<Fetched> fetch(Collection<ItemRef<?>> refs, CallContext context) {
        Set<ItemRef<?>> distinct = new HashSet<>(refs);
        if (context.planning()) {
            return planned(context, distinct.isEmpty() ? List.of() : List.of(new PlannedCall(
                    Batches.accessFor(distinct.size()).describe(), Batches.callsFor(distinct.size()),
                    Batches.accessFor(distinct.size()).estimatedReadUnits(distinct.size(), weights.largest()))), () -> {
                Map<ItemRef<?>, Record> found = new HashMap<>();
                distinct.forEach(ref -> found.put(ref, context.planner().standIns().item(ref)));
                return new Fetched(found, Set.of());
            });
        }
        Map<Map<String, AttributeValue>, ItemRef<?>> byKey = new LinkedHashMap<>();
        for (ItemRef<?> ref : refs) {
            byKey.put(TableModel.key(ref), ref);
        }
        return batches.getAll(List.copyOf(byKey.keySet()), context).thenApply(result -> {
            Map<ItemRef<?>, Record> found = new HashMap<>();
            for (Map<String, AttributeValue> item : result.items()) {
                ItemRef<?> ref = byKey.get(TableModel.keyOf(item));
                if (ref != null) {
                    found.put(ref, TableModel.decode(item));
                }
            }
            Set<ItemRef<?>> unavailable = new HashSet<>();
            for (Map<String, AttributeValue> key : result.unprocessed()) {
                unavailable.add(byKey.get(TableModel.keyOf(key)));
            }
            return new Fetched(found, unavailable);
        });
    }

    // ---- collections

    /**
     * One call of a read: its pattern, the parts it answers, whether it answers the owner item, and at
     * most how many items it reads (for the estimate).
     */
    private record Step(Access access, Set<Part> parts, boolean owner, int items) {
    }

    /** The requests that answer a read, cheapest first: the one decision reads and plans both follow. */
    static List<Step> steps(CollectionRead read, ListBounds bounds) {
        Map<Part, Slice> parts = read.parts();
        List<Step> steps = new ArrayList<>();
        switch (read.collection()) {
            case MONTH -> steps.add(new Step(Access.TOP_OF_MONTH, Set.of(Part.TOP), false, read.slice(Part.TOP).limit()));
            case PERSON -> {
                // GSI3 holds a person's awards, then the person, then each role's credits: the awards and
                // the person come with the first acting page, or together in a Query of their own.
                Slice awards = parts.get(Part.PERSON_AWARDS);
                boolean ownerCovered = false;
                boolean awardsCovered = awards == null;
                for (Part part : parts.keySet()) {
                    Slice slice = parts.get(part);
                    boolean first = slice.page() == null || slice.page().after() == null;
                    if (part.isAwards()) {
                        continue;
                    }
                    if (part == Part.ACTED && (read.includeOwner() || awards != null) && first) {
                        steps.add(new Step(Access.PERSON_WITH_ACTED, awards == null ? Set.of(part) : Set.of(part, Part.PERSON_AWARDS),
                                true, bounds.mostItems(part, slice) + 2 + bounds.mostItems(Part.PERSON_AWARDS, Slice.all())));
                        ownerCovered = true;
                        awardsCovered = true;
                    } else {
                        steps.add(new Step(Access.PERSON_CREDITS, Set.of(part), false, bounds.mostItems(part, slice) + 1));
                    }
                }
                if (!awardsCovered) {
                    boolean withOwner = read.includeOwner() && !ownerCovered;
                    steps.add(0, new Step(withOwner ? Access.PERSON_WITH_AWARDS : Access.PERSON_AWARDS,
                            Set.of(Part.PERSON_AWARDS), withOwner, bounds.mostItems(Part.PERSON_AWARDS, awards) + (withOwner ? 1 : 0)));
                    ownerCovered |= withOwner;
                }
                if (read.includeOwner() && !ownerCovered) {
                    steps.add(0, new Step(Access.GET_ITEM, Set.of(), true, 1));
                }
            }
            case MOVIE -> movieSteps(read, steps, bounds);
        }
        return steps;
    }

    private static void movieSteps(CollectionRead read, List<Step> steps, ListBounds bounds) {
        Map<Part, Slice> parts = read.parts();
        Slice cast = parts.get(Part.CAST);
        Slice totals = parts.get(Part.TOTALS);
        // The crew and the awards: every part that sorts before the movie item in LSI1.
        Set<Part> crew = new HashSet<>(parts.keySet());
        crew.removeIf(part -> !(part.isCredits() || part.isAwards()) || part == Part.CAST);
        // A Query of the crew reads the awards, directors and writers whichever it was asked for.
        int crewItems = crew.isEmpty() ? 0 : bounds.mostItems(Part.MOVIE_AWARDS, Slice.all())
                + bounds.mostItems(Part.DIRECTORS, Slice.all()) + bounds.mostItems(Part.WRITERS, Slice.all());
        int castItems = cast == null ? 0 : bounds.mostItems(Part.CAST, cast);
        if (totals != null && (cast != null || !crew.isEmpty())) {
            // the whole collection: every item is read, as many cast items as asked for at least
            steps.add(new Step(Access.WHOLE_COLLECTION, parts.keySet(), true,
                    1 + castItems + 1 + crewItems + totals.mostItems()));
        } else if (totals != null) {
            steps.add(new Step(read.includeOwner() ? Access.MOVIE_AND_TOTALS : Access.TOTALS, Set.of(Part.TOTALS),
                    read.includeOwner(), (read.includeOwner() ? 1 : 0) + totals.mostItems()));
        } else if (cast == null && crew.isEmpty()) {
            steps.add(new Step(Access.GET_ITEM, Set.of(), true, 1));
        } else if (cast == null) {
            steps.add(new Step(Access.CREW, crew, true, crewItems + 1));
        } else if (cast.page().after() == null && !crew.isEmpty()) {
            Set<Part> all = new HashSet<>(crew);
            all.add(Part.CAST);
            steps.add(new Step(Access.MOVIE_CREDITS, all, true, crewItems + 1 + castItems + 1));
        } else if (cast.page().after() == null) {
            steps.add(read.includeOwner() ? new Step(Access.MOVIE_WITH_CAST, Set.of(Part.CAST), true, castItems + 2)
                    : new Step(Access.CAST_PAGE, Set.of(Part.CAST), false, castItems + 1));
        } else {
            // A later page does not reach the movie item or the crew (they sort first): read them beside it.
            if (!crew.isEmpty()) {
                steps.add(new Step(Access.CREW, crew, true, crewItems + 1));
            } else if (read.includeOwner()) {
                steps.add(new Step(Access.GET_ITEM, Set.of(), true, 1));
            }
            steps.add(new Step(Access.CAST_PAGE, Set.of(Part.CAST), false, castItems + 1));
        }
    }

    @Override
    public CompletableFuture<CollectionPage> read(CollectionRead read, CallContext context) {
        List<Step> steps = steps(read, weights::mostItems);
        if (context.planning()) {
            return planned(context, steps.stream().map(step -> new PlannedCall(step.access().describe(), 1,
                    step.access().estimatedReadUnits(step.items(), weights.largest()))).toList(),
                    () -> context.planner().standIns().page(read, weights::mostItems));
        }
        List<CompletableFuture<CollectionPage>> started = new ArrayList<>();
        for (Step step : steps) {
            try {
                started.add(run(read, step, context));
            } catch (RuntimeException e) {
                // A bad cursor, say: the calls already started finish first, so the receipt has every request.
                return CompletableFuture.allOf(started.toArray(CompletableFuture[]::new))
                        .handle((ignored, failure) -> {
                            throw e;
                        });
            }
        }
        return CompletableFuture.allOf(started.toArray(CompletableFuture[]::new)).thenApply(ignored -> {
            Record owner = null;
            Map<Part, CreditPage> credits = new EnumMap<>(Part.class);
            List<MonthlyStreams> totals = null;
            List<Award> awards = null;
            for (CompletableFuture<CollectionPage> future : started) {
                CollectionPage page = future.join();
                owner = owner != null ? owner : page.owner();
                credits.putAll(page.credits());
                totals = totals != null ? totals : page.totals();
                awards = awards != null ? awards : page.awards();
            }
            // Each credit list's length, as its owner item counts it, when a step read the owner.
            for (Map.Entry<Part, CreditPage> entry : credits.entrySet()) {
                Role role = entry.getKey().role();
                Integer count = owner instanceof Person person ? person.count(role)
                        : owner instanceof Movie movie && role == Role.CAST ? movie.castCount() : null;
                entry.setValue(entry.getValue().withTotalCount(count));
            }
            return new CollectionPage(read.includeOwner() ? owner : null, credits, totals, awards);
        });
    }

    private <T> CompletableFuture<T> planned(CallContext context, List<PlannedCall> calls,
                                             java.util.function.Supplier<T> standIn) {
        try {
            context.planner().record(calls, context);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        return CompletableFuture.completedFuture(standIn.get());
    }

    private CompletableFuture<CollectionPage> run(CollectionRead read, Step step, CallContext context) {
        if (step.access() == Access.GET_ITEM) {
            ItemRef<?> ref = read.owner();
            return fetch(List.of(ref), context).thenApply(fetched -> {
                if (fetched.unavailable().contains(ref)) {
                    throw new StoreUnavailableException("The item " + read.id() + " could not be read in time");
                }
                return new CollectionPage(fetched.found().get(ref), Map.of(), null);
            });
        }
        Map<String, Object> owner = switch (read.collection()) {
            case MOVIE -> Map.of("movieId", dev.moviegraph.catalog.MovieId.of(read.id()));
            case PERSON -> Map.of("personId", dev.moviegraph.catalog.PersonId.of(read.id()));
            case MONTH -> Map.of("month", YearMonth.parse(read.id()));
        };
        return switch (step.access()) {
            case TOP_OF_MONTH -> {
                QueryRequest query = Access.TOP_OF_MONTH.query(table, Map.of(":month", owner)).scanIndexForward(false).build();
                yield Queries.upTo(client, context, step.access(), query, read.slice(Part.TOP).limit())
                        .thenApply(items -> new CollectionPage(null, Map.of(),
                                items.stream().map(item -> TableModel.TOTAL.decode(item)).toList()));
            }
            case PERSON_WITH_ACTED, PERSON_CREDITS -> personCredits(read, step, owner, context);
            case PERSON_WITH_AWARDS, PERSON_AWARDS -> {
                QueryRequest query = step.access().query(table, Map.of(":person", owner, ":awards", owner, ":item", owner))
                        .build();
                yield Queries.all(client, context, step.access(), query).thenApply(items -> {
                    Record person = null;
                    List<Award> awards = new ArrayList<>();
                    for (Map<String, AttributeValue> item : items) {
                        if (TableModel.is(item, TableModel.PERSON)) {
                            person = TableModel.PERSON.decode(item);
                        } else if (isAward(item)) {
                            awards.add((Award) TableModel.decode(item));
                        }
                    }
                    return new CollectionPage(person, Map.of(), null, awards);
                });
            }
            case WHOLE_COLLECTION -> wholeCollection(read, owner, context);
            case MOVIE_AND_TOTALS, TOTALS -> movieAndTotals(read, step.access(), owner, context);
            default -> movieCredits(read, step, owner, context);
        };
    }

    /** GSI3: a person's credits in one role, newest first, after the person item for PERSON_WITH_ACTED. */
    private CompletableFuture<CollectionPage> personCredits(CollectionRead read, Step step, Map<String, Object> owner,
                                                            CallContext context) {
        Part part = step.parts().stream().filter(Part::isCredits).findFirst().orElseThrow();
        Slice slice = read.slice(part);
        QueryRequest.Builder query = step.access().query(table, part.role().ordinal(),
                Map.of(":person", owner, ":awards", owner, ":acted", owner, ":role", owner));
        String partition = TableModel.render(TableModel.PERSON, TableModel.GSI3_PK, owner);
        if (slice.page().after() != null) {
            query.exclusiveStartKey(cursors.decode(part, Index.GSI3, slice.page().after(), partition));
        }
        Entity<Credit> credits = TableModel.credits(part.role());
        // The awards and the person item sort before the credits: only credits count towards the page.
        return Queries.until(client, context, step.access(), query.build(), item -> TableModel.is(item, credits),
                slice.page().first() + 1, step.owner() ? 1 + AWARDS_SLACK : 0).thenApply(items -> {
            Record person = null;
            List<Map<String, AttributeValue>> found = new ArrayList<>();
            List<Award> awards = new ArrayList<>();
            for (Map<String, AttributeValue> item : items) {
                if (TableModel.is(item, TableModel.PERSON)) {
                    person = TableModel.PERSON.decode(item);
                } else if (TableModel.is(item, credits)) {
                    found.add(item);
                } else if (isAward(item)) {
                    awards.add((Award) TableModel.decode(item));
                }
            }
            return new CollectionPage(person, Map.of(part, page(part, Index.GSI3, found, slice.page().first())), null,
                    step.parts().contains(Part.PERSON_AWARDS) ? awards : null);
        });
    }

    /** LSI1: crew, the movie, then the cast, as far as the step needs. */
    private CompletableFuture<CollectionPage> movieCredits(CollectionRead read, Step step, Map<String, Object> owner,
                                                           CallContext context) {
        Slice cast = read.slice(Part.CAST);
        String partition = TableModel.render(TableModel.MOVIE, TableModel.PK, owner);
        QueryRequest.Builder query = step.access().query(table, Map.of(":pk", owner, ":movie", owner));
        CompletableFuture<List<Map<String, AttributeValue>>> items;
        if (step.access() == Access.CREW) {
            items = Queries.all(client, context, step.access(), query.build());
        } else {
            if (step.access() == Access.CAST_PAGE && cast.page().after() != null) {
                query.exclusiveStartKey(cursors.decode(Part.CAST, Index.LSI1, cast.page().after(), partition));
            }
            boolean everythingBefore = step.access() == Access.MOVIE_CREDITS;
            items = Queries.until(client, context, step.access(), query.build(),
                    item -> TableModel.is(item, TableModel.CAST), cast.page().first() + 1,
                    (step.owner() ? 1 : 0) + (everythingBefore ? CREW_SLACK : 0));
        }
        return items.thenApply(found -> collection(read, step.parts(), found, Index.LSI1));
    }

    /** Base-table Query of the whole item collection: movie, credits and totals in one request (plus pages). */
    private CompletableFuture<CollectionPage> wholeCollection(CollectionRead read, Map<String, Object> owner,
                                                              CallContext context) {
        QueryRequest query = Access.WHOLE_COLLECTION.query(table, Map.of(":pk", owner, ":entries", Map.of())).build();
        Slice cast = read.slice(Part.CAST);
        String partition = TableModel.render(TableModel.MOVIE, TableModel.PK, owner);
        String after = cast == null || cast.page().after() == null ? null
                : cursors.decode(Part.CAST, Index.LSI1, cast.page().after(), partition).get(LSI1_SK).s();
        return Queries.all(client, context, Access.WHOLE_COLLECTION, query).thenApply(items -> {
            // The order LSI1 keeps, so cursors from here and from LSI1 pages are interchangeable.
            List<Map<String, AttributeValue>> ordered = items.stream()
                    .filter(item -> item.containsKey(LSI1_SK) || TableModel.is(item, TableModel.TOTAL))
                    .filter(item -> after == null || !TableModel.is(item, TableModel.CAST)
                            || item.get(LSI1_SK).s().compareTo(after) > 0)
                    .sorted(Comparator.comparing(item -> item.containsKey(LSI1_SK) ? item.get(LSI1_SK).s() : ""))
                    .toList();
            return collection(read, read.parts().keySet(), ordered, Index.LSI1);
        });
    }

    /** Base-table Query: sk from the movie item (or the first month) to the last month skips the credits. */
    private CompletableFuture<CollectionPage> movieAndTotals(CollectionRead read, Access access, Map<String, Object> owner,
                                                             CallContext context) {
        MonthRange range = read.slice(Part.TOTALS).months();
        Map<String, Object> from = new HashMap<>(owner);
        Map<String, Object> to = new HashMap<>(owner);
        from.put("month", range.from());
        to.put("month", range.to());
        QueryRequest query = access.query(table, Map.of(":pk", owner, ":low", access == Access.TOTALS ? from : owner,
                ":high", to)).build();
        return Queries.all(client, context, access, query)
                .thenApply(items -> collection(read, Set.of(Part.TOTALS), items, Index.TABLE));
    }

    /** Sorts the items of a movie's collection into the parts asked for. */
    private CollectionPage collection(CollectionRead read, Set<Part> parts, List<Map<String, AttributeValue>> items,
                                      Index index) {
        Record movie = null;
        Map<Role, List<Map<String, AttributeValue>>> byRole = new EnumMap<>(Role.class);
        List<MonthlyStreams> totals = new ArrayList<>();
        List<Award> awards = new ArrayList<>();
        for (Map<String, AttributeValue> item : items) {
            Record decoded = null;
            if (TableModel.is(item, TableModel.MOVIE)) {
                movie = TableModel.MOVIE.decode(item);
            } else if (isAward(item)) {
                awards.add((Award) TableModel.decode(item));
            } else if (TableModel.is(item, TableModel.TOTAL)) {
                decoded = TableModel.TOTAL.decode(item);
                if (read.slice(Part.TOTALS) != null && read.slice(Part.TOTALS).months()
                        .contains(((MonthlyStreams) decoded).month())) {
                    totals.add((MonthlyStreams) decoded);
                }
            } else {
                for (Role role : Role.values()) {
                    if (TableModel.is(item, TableModel.credits(role))) {
                        byRole.computeIfAbsent(role, r -> new ArrayList<>()).add(item);
                    }
                }
            }
        }
        Map<Part, CreditPage> credits = new EnumMap<>(Part.class);
        for (Part part : parts) {
            if (part.isCredits()) {
                List<Map<String, AttributeValue>> found = byRole.getOrDefault(part.role(), List.of());
                Slice slice = read.slice(part);
                credits.put(part, slice.page() == null ? page(part, index, found, found.size())
                        : page(part, index, found.subList(0, Math.min(found.size(), slice.page().first() + 1)),
                                slice.page().first()));
            }
        }
        // Awards in LSI1 order (newest first), whichever index the items came from.
        awards.sort(java.util.Comparator.comparing((Award award) -> -award.year()).thenComparing(Award::award)
                .thenComparing(Award::category).thenComparing(award -> award.personId() == null ? "" : award.personId().value()));
        return new CollectionPage(movie, credits, parts.contains(Part.TOTALS) ? totals : null,
                parts.contains(Part.MOVIE_AWARDS) ? awards : null);
    }

    /** Builds a page from up to first + 1 credit items: the extra one only says that there is a next page. */
    private CreditPage page(Part part, Index index, List<Map<String, AttributeValue>> items, int first) {
        List<CreditPage.Entry> entries = new ArrayList<>();
        for (Map<String, AttributeValue> item : items.subList(0, Math.min(first, items.size()))) {
            Credit credit = TableModel.credits(part.role()).decode(item);
            entries.add(new CreditPage.Entry(cursors.encode(part, index, item), credit));
        }
        return new CreditPage(entries, items.size() > first);
    }

    // ---- search

    /**
     * One Query of a search index: the partition of the query's key prefix, best ranked first. Words
     * that narrow the search are a filter on the entries' word lists, so the first page asks for
     * {@value #NARROWING_SLACK} entries more than it shows: the key prefix's partition holds every match,
     * and the usual page is still one request (further pages follow LastEvaluatedKey until full).
     */
    @Override
    public CompletableFuture<Page<SearchHit>> search(SearchRead read, CallContext context) {
        boolean oneKind = read.kinds().size() == 1;
        Access access = oneKind ? Access.SEARCH_KIND : Access.SEARCH;
        int wanted = read.page().first() + 1;
        int slack = read.query().narrowing().isEmpty() ? 0 : NARROWING_SLACK;
        if (context.planning()) {
            return planned(context, List.of(new PlannedCall(access.describe(), 1,
                    access.estimatedReadUnits(wanted + slack, weights.largest()))),
                    () -> context.planner().standIns().search(read));
        }
        int which = oneKind && read.kinds().contains(SearchKind.PERSON) ? 1 : 0;
        Map<String, Object> prefix = Map.of("prefix", read.query().key());
        QueryRequest.Builder query = access.query(table, which, Map.of(":prefix", prefix));
        String partition = query.build().expressionAttributeValues().get(":prefix").s();
        String list = "search:" + (oneKind ? read.kinds().iterator().next().name() : "ALL");
        if (read.page().after() != null) {
            query.exclusiveStartKey(cursors.decode(list, access.index(), read.page().after(), partition));
        }
        List<String> narrowing = read.query().narrowing();
        if (!narrowing.isEmpty()) {
            Map<String, AttributeValue> values = new LinkedHashMap<>(query.build().expressionAttributeValues());
            List<String> conditions = new ArrayList<>();
            for (int i = 0; i < narrowing.size(); i++) {
                values.put(":w" + i, AttributeValue.fromS(" " + narrowing.get(i)));
                conditions.add("contains(#words, :w" + i + ")");
            }
            query.filterExpression(String.join(" AND ", conditions))
                    .expressionAttributeNames(Map.of("#words", "words"))
                    .expressionAttributeValues(values);
        }
        return Queries.until(client, context, access, query.build(), item -> true, wanted, slack).thenApply(items -> {
            List<Page.Entry<SearchHit>> entries = new ArrayList<>();
            for (Map<String, AttributeValue> item : items.subList(0, Math.min(items.size(), read.page().first()))) {
                entries.add(new Page.Entry<>(cursors.encode(list, access.index(), item), SearchEntries.hit(item)));
            }
            return new Page<>(entries, items.size() > read.page().first());
        });
    }

    /** One Query of gsi6: a page of a movie list in its order (no filter: the list holds only its movies). */
    @Override
    public CompletableFuture<Page<SearchHit>> list(ListRead read, CallContext context) {
        Access access = Access.MOVIE_LIST_PAGE;
        int wanted = read.page().first() + 1;
        if (context.planning()) {
            return planned(context, List.of(new PlannedCall(access.describe(), 1,
                    access.estimatedReadUnits(wanted, weights.largest()))), () -> context.planner().standIns().list(read));
        }
        QueryRequest.Builder query = access.query(table, Map.of(":list", Map.of("list", read.list().name())));
        String partition = query.build().expressionAttributeValues().get(":list").s();
        String list = "list:" + read.list().name();
        if (read.page().after() != null) {
            query.exclusiveStartKey(cursors.decode(list, access.index(), read.page().after(), partition));
        }
        return Queries.upTo(client, context, access, query.build(), wanted).thenApply(items -> {
            List<Page.Entry<SearchHit>> entries = new ArrayList<>();
            for (Map<String, AttributeValue> item : items.subList(0, Math.min(items.size(), read.page().first()))) {
                entries.add(new Page.Entry<>(cursors.encode(list, access.index(), item), SearchEntries.listed(item)));
            }
            return new Page<>(entries, items.size() > read.page().first());
        });
    }

    private static boolean isAward(Map<String, AttributeValue> item) {
        return TableModel.is(item, TableModel.MOVIE_AWARD) || TableModel.is(item, TableModel.PERSON_AWARD);
    }

    /** One Query of a winners' index (only winners carry its keys): newest first. */
    @Override
    public CompletableFuture<Page<Award>> awardWinners(AwardWinnersRead read, CallContext context) {
        Access access = read.category() == null ? Access.AWARD_WINNERS : Access.AWARD_WINNERS_IN_CATEGORY;
        int wanted = read.page().first() + 1;
        if (context.planning()) {
            return planned(context, List.of(new PlannedCall(access.describe(), 1,
                    access.estimatedReadUnits(wanted, weights.largest()))), () -> context.planner().standIns().winners(read));
        }
        Map<String, Object> values = new HashMap<>();
        values.put("award", read.award());
        values.put("category", read.category());
        QueryRequest.Builder query = access.query(table, Map.of(":award", values, ":category", values));
        String partition = query.build().expressionAttributeValues().values().iterator().next().s();
        String list = "winners:" + partition;
        if (read.page().after() != null) {
            query.exclusiveStartKey(cursors.decode(list, access.index(), read.page().after(), partition));
        }
        return Queries.upTo(client, context, access, query.build(), wanted).thenApply(items -> {
            List<Page.Entry<Award>> entries = new ArrayList<>();
            for (Map<String, AttributeValue> item : items.subList(0, Math.min(items.size(), read.page().first()))) {
                entries.add(new Page.Entry<>(cursors.encode(list, access.index(), item), (Award) TableModel.decode(item)));
            }
            return new Page<>(entries, items.size() > read.page().first());
        });
    }

    @Override
    public List<AccessPattern> accessPatterns() {
        return Arrays.stream(Access.values()).map(Access::describe).toList();
    }

    @Override
    public CompletableFuture<Boolean> ping() {
        return client.describeTable(DescribeTableRequest.builder().tableName(table).build())
                .handle((response, failure) -> failure == null);
    }
}
