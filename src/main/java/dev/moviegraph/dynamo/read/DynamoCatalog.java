package dev.moviegraph.dynamo.read;

import dev.moviegraph.catalog.AccessPattern;
import dev.moviegraph.catalog.Award;
import dev.moviegraph.catalog.AwardWinnersRead;
import dev.moviegraph.catalog.CallContext;
import dev.moviegraph.catalog.CatalogReader;
import dev.moviegraph.catalog.CollectionPage;
import dev.moviegraph.catalog.CollectionRead;
import dev.moviegraph.catalog.Fetched;
import dev.moviegraph.catalog.ItemRef;
import dev.moviegraph.catalog.ListBounds;
import dev.moviegraph.catalog.ListRead;
import dev.moviegraph.catalog.Page;
import dev.moviegraph.catalog.PageRequest;
import dev.moviegraph.catalog.Part;
import dev.moviegraph.catalog.SearchHit;
import dev.moviegraph.catalog.SearchRead;
import dev.moviegraph.catalog.Slice;
import dev.moviegraph.catalog.StoreStatus;
import dev.moviegraph.catalog.StoreUnavailableException;
import dev.moviegraph.dynamo.client.Batches;
import dev.moviegraph.dynamo.client.OutageBreaker;
import dev.moviegraph.dynamo.client.Queries;
import dev.moviegraph.dynamo.client.StoreFailures;
import dev.moviegraph.dynamo.model.Access;
import dev.moviegraph.dynamo.model.Condition;
import dev.moviegraph.dynamo.model.CursorCodec;
import dev.moviegraph.dynamo.model.Entity;
import dev.moviegraph.dynamo.model.Expression;
import dev.moviegraph.dynamo.model.Index;
import dev.moviegraph.dynamo.model.IndexList;
import dev.moviegraph.dynamo.model.ItemCollection;
import dev.moviegraph.dynamo.model.TableModel;

import java.util.ArrayList;
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
import java.util.function.Predicate;
import java.util.function.Supplier;

import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DescribeTableRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;

/**
 * The catalog read port over the single table. A read is first turned into calls: GetItem or
 * BatchGetItem for keys, and for a collection the Queries its {@link ItemCollection} declaration plans
 * (never a Scan), and makes those calls. Planning goes through {@link #planning()} instead, which takes
 * the very same decisions and sends nothing. Every call is reported with the capacity DynamoDB says it
 * consumed.
 */
public final class DynamoCatalog implements CatalogReader {
    private final DynamoDbAsyncClient client;
    private final String table;
    private final Batches batches;
    private final CursorCodec cursors;
    private final DynamoReadPlans plans;
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
        this.plans = new DynamoReadPlans(weights);
    }

    // ---- items by key

    @Override
    public CompletableFuture<Fetched> fetch(Collection<ItemRef<?>> refs, CallContext context) {
        Set<ItemRef<?>> distinct = new HashSet<>(refs);
        refuse(context);
        Map<Map<String, AttributeValue>, ItemRef<?>> byKey = new LinkedHashMap<>();
        for (ItemRef<?> ref : refs) {
            byKey.put(TableModel.key(ref), ref);
        }
        return batches.getAll(List.copyOf(byKey.keySet()), context).thenApply(result -> {
            Map<ItemRef<?>, Record> found = new HashMap<>();
            for (Map<String, AttributeValue> item : result.items()) {
                ItemRef<?> ref = byKey.get(TableModel.keyOf(item));
                if (ref != null) {
                    // an item of a newer version's type at the key: not what the reference names
                    TableModel.decode(item).ifPresent(record -> found.put(ref, record));
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
     * The calls that answer a read, as its {@link ItemCollection} plans them: each a Query of a run of
     * lists next to each other in one index, or the owner's GetItem.
     */
    public static List<ItemCollection.Run> steps(CollectionRead read, ListBounds bounds) {
        return ItemCollection.of(read.collection()).plan(read, bounds);
    }

    @Override
    public CompletableFuture<CollectionPage> read(CollectionRead read, CallContext context) {
        refuse(context);
        ItemCollection collection = ItemCollection.of(read.collection());
        List<ItemCollection.Run> runs = collection.plan(read, weights::mostItems);
        List<CompletableFuture<List<Map<String, AttributeValue>>>> started = new ArrayList<>();
        for (ItemCollection.Run run : runs) {
            try {
                started.add(run(collection, run, read, context));
            } catch (RuntimeException e) {
                // A bad cursor, say: the calls already started finish first, so the receipt has every request.
                return CompletableFuture.allOf(started.toArray(CompletableFuture[]::new))
                        .handle((ignored, failure) -> {
                            throw e;
                        });
            }
        }
        return CompletableFuture.allOf(started.toArray(CompletableFuture[]::new)).thenApply(ignored -> {
            Map<ItemCollection.Segment, List<Map<String, AttributeValue>>> bySegment = new HashMap<>();
            Map<ItemCollection.Segment, Index> readThrough = new HashMap<>();
            for (int i = 0; i < runs.size(); i++) {
                Set<ItemCollection.Segment> wanted = Set.copyOf(runs.get(i).wanted());
                for (ItemCollection.Segment segment : wanted) {
                    readThrough.put(segment, runs.get(i).index());
                }
                for (Map<String, AttributeValue> item : started.get(i).join()) {
                    ItemCollection.Segment segment = collection.segmentOf(item);
                    // null: an item of a type this version does not know, a newer gateway's (skipped)
                    if (segment != null && wanted.contains(segment)) {
                        bySegment.computeIfAbsent(segment, s -> new ArrayList<>()).add(item);
                    }
                }
            }
            return page(collection, read, bySegment, readThrough);
        });
    }

    /**
     * A planning context never reaches the reads that send: planning goes through {@link #planning()},
     * which has no client. One that gets here is a bug in the caller, not a request to make.
     */
    private static void refuse(CallContext context) {
        if (context.planning()) {
            throw new IllegalStateException("a planning run reached the reads that send requests; plan through planning()");
        }
    }

    /** The same reads planned, never sent ({@link DynamoReadPlans}: it holds no client). */
    @Override
    public CatalogReader planning() {
        return plans;
    }

    /** The items one run reads: a Query from its first list's lowest key to its last one's highest. */
    private CompletableFuture<List<Map<String, AttributeValue>>> run(ItemCollection collection, ItemCollection.Run run,
                                                                     CollectionRead read, CallContext context) {
        if (run.ownerOnly()) {
            // The owner's key as its collection declares it: any collection's, a viewer's too (no reference of its
            // own); a private collection's strongly consistent, as its Queries are (its count with a later page).
            return (collection.isPrivate() ? batches.consistently() : batches)
                    .getAll(List.of(collection.ownerKey(read.id())), context).thenApply(result -> {
                if (!result.unprocessed().isEmpty()) {
                    throw new StoreUnavailableException("The item " + read.id() + " could not be read in time");
                }
                return result.items();
            });
        }
        QueryRequest.Builder query = run.query(table, read);
        ItemCollection.Segment paged = run.paged();
        Slice slice = paged == null ? null : read.slice(paged.part());
        if (slice == null || slice.page() == null) {
            return Queries.all(client, context, run, query.build());
        }
        if (slice.page().after() != null) {
            query.exclusiveStartKey(cursors.decode(paged.part(), run.index(), slice.page().after(),
                    collection.partition(run.index(), read.id())));
        }
        // Only the paged list's items count towards its page; the lists before it come in the first request.
        return Queries.until(client, context, run, query.build(), item -> collection.segmentOf(item) == paged,
                slice.page().first() + 1, run.itemsBeforePage(read, weights::mostItems));
    }

    /**
     * The page of a read from the items of each list it asked for. A list read through another index
     * than its own is put in its own index's order here, after its cursor; so its cursors are the same
     * whichever index read it. Items a Query read past the slice's range (earlier months) are left out.
     */
    private CollectionPage page(ItemCollection collection, CollectionRead read,
                                Map<ItemCollection.Segment, List<Map<String, AttributeValue>>> bySegment,
                                Map<ItemCollection.Segment, Index> readThrough) {
        Map<String, AttributeValue> owner = null;
        Map<Part, Page<?>> lists = new EnumMap<>(Part.class);
        for (ItemCollection.Segment segment : collection.segments()) {
            List<Map<String, AttributeValue>> found = bySegment.getOrDefault(segment, List.of());
            if (segment.isOwner()) {
                owner = found.isEmpty() ? null : found.get(0);
            }
        }
        for (ItemCollection.Segment segment : collection.segments()) {
            if (segment.isOwner() || !read.parts().containsKey(segment.part())) {
                continue;
            }
            Part part = segment.part();
            Slice slice = read.slice(part);
            List<Map<String, AttributeValue>> found = bySegment.getOrDefault(segment, List.of());
            List<Map<String, AttributeValue>> items = (readThrough.get(segment) == segment.listIndex() ? found
                    : inListOrder(collection, segment, read, found)).stream()
                    .filter(item -> collection.inSlice(segment, read, item)).toList();
            boolean paged = slice.page() != null;
            int first = paged ? slice.page().first() : items.size();
            List<Page.Entry<Record>> entries = new ArrayList<>();
            for (Map<String, AttributeValue> item : items.subList(0, Math.min(first, items.size()))) {
                Supplier<String> cursor = paged ? () -> cursors.encode(part, segment.listIndex(), item) : null;
                // grouped by segment, so of a known type
                entries.add(new Page.Entry<>(cursor, TableModel.decode(item).orElseThrow()));
            }
            Integer count = count(owner, segment.countAttribute());
            if (count == null && owner == null && read.includeOwner() && collection.isPrivate()
                    && segment.countAttribute() != null) {
                count = 0; // a private collection's owner item comes with its first entry: none yet, none counted
            }
            lists.put(part, new Page<>(entries, items.size() > first, count));
        }
        return new CollectionPage(read.includeOwner() && owner != null ? TableModel.decode(owner).orElseThrow() : null, lists);
    }

    @Override
    public String cursor(Part part, Record entry) {
        ItemCollection.Segment segment = ItemCollection.of(part.collection()).segment(part);
        return cursors.encode(part, segment.listIndex(), encoded(segment, entry));
    }

    /** An entry as the list's own entity stores it: a credit is one of three entities, the list names which. */
    @SuppressWarnings("unchecked")
    private static <T extends Record> Map<String, AttributeValue> encoded(ItemCollection.Segment segment, T record) {
        Entity<T> entity = segment.entities().size() == 1 ? (Entity<T>) segment.entities().get(0)
                : TableModel.entityFor((Class<T>) record.getClass());
        return entity.encode(record);
    }

    /** A list's whole length as its owner item counts it, when the read has the owner and the list a count. */
    private static Integer count(Map<String, AttributeValue> owner, String attribute) {
        AttributeValue value = owner == null || attribute == null ? null : owner.get(attribute);
        return value == null || value.n() == null ? null : Integer.valueOf(value.n());
    }

    /** A list's items in its own index's order, after its cursor, when another index read them. */
    private List<Map<String, AttributeValue>> inListOrder(ItemCollection collection, ItemCollection.Segment segment,
                                                          CollectionRead read, List<Map<String, AttributeValue>> items) {
        String sortKey = segment.listIndex().sortKey();
        Slice slice = read.slice(segment.part());
        String after = slice.page() == null || slice.page().after() == null ? null
                : cursors.decode(segment.part(), segment.listIndex(), slice.page().after(),
                        collection.partition(segment.listIndex(), read.id())).get(sortKey).s();
        return items.stream()
                .filter(item -> after == null || item.get(sortKey).s().compareTo(after) > 0)
                .sorted(Comparator.comparing(item -> item.get(sortKey).s()))
                .toList();
    }

    // ---- search

    /** One Query of a search index: the partition of the query's key prefix, best ranked first ({@link IndexRead}). */
    @Override
    public CompletableFuture<Page<SearchHit>> search(SearchRead read, CallContext context) {
        return indexPage(IndexRead.of(read), context);
    }

    /** Words that narrow a search: a filter on the entries' word lists, all of them. */
    private static void narrow(QueryRequest.Builder query, List<String> narrowing) {
        Condition filter = null;
        for (String word : narrowing) {
            Condition holds = Condition.contains(TableModel.MOVIE_WORD.attribute("words"), AttributeValue.fromS(" " + word));
            filter = filter == null ? holds : filter.and(holds);
        }
        if (filter != null) {
            Expression expression = Expression.of(filter);
            Map<String, AttributeValue> values = new LinkedHashMap<>(query.build().expressionAttributeValues());
            values.putAll(expression.values());
            query.filterExpression(expression.condition()).expressionAttributeNames(expression.names())
                    .expressionAttributeValues(values);
        }
    }

    /** One Query of gsi6: a page of a movie list in its order. */
    @Override
    public CompletableFuture<Page<SearchHit>> list(ListRead read, CallContext context) {
        return indexPage(IndexRead.of(read), context);
    }

    /** One Query of a winners' index (only winners carry its keys): newest first. */
    @Override
    public CompletableFuture<Page<Award>> awardWinners(AwardWinnersRead read, CallContext context) {
        return indexPage(IndexRead.of(read), context);
    }

    /**
     * One page of an index list: one Query of its partition (pages beyond DynamoDB's 1 MB follow until
     * the page is full), with the read's slack for the entries its narrowing words filter out.
     */
    private <T> CompletableFuture<Page<T>> indexPage(IndexRead<T> read, CallContext context) {
        refuse(context);
        IndexList<T> list = read.list();
        Access access = list.access();
        PageRequest page = read.page();
        String cursorName = read.cursorName();
        int wanted = page.first() + 1;
        QueryRequest.Builder query = access.query(table, list.template(), read.partition());
        String key = query.build().expressionAttributeValues().get(":pk").s();
        if (page.after() != null) {
            query.exclusiveStartKey(cursors.decode(cursorName, access.index(), page.after(), key));
        }
        narrow(query, read.narrowing());
        return known(Queries.until(client, context, access, query.build(), list::holds, wanted, read.slack()), list::holds)
                .thenApply(items -> {
                    List<Page.Entry<T>> entries = new ArrayList<>();
                    for (Map<String, AttributeValue> item : items.subList(0, Math.min(items.size(), page.first()))) {
                        entries.add(new Page.Entry<>(() -> cursors.encode(cursorName, access.index(), item),
                                list.shown().apply(item)));
                    }
                    return new Page<>(entries, items.size() > page.first());
                });
    }

    /**
     * The items of an index read that are of {@code kinds}: a newer version may put items of a type this
     * one does not know under the same index keys (a rolling upgrade); they neither count towards a page
     * nor show in it.
     */
    private static CompletableFuture<List<Map<String, AttributeValue>>> known(
            CompletableFuture<List<Map<String, AttributeValue>>> read, Predicate<Map<String, AttributeValue>> kinds) {
        return read.thenApply(items -> items.stream().filter(kinds).toList());
    }

    @Override
    public List<AccessPattern> accessPatterns() {
        return TableModel.accessPatterns();
    }

    @Override
    public CompletableFuture<StoreStatus> ping() {
        return client.describeTable(DescribeTableRequest.builder().tableName(table).build())
                .handle((response, failure) -> status(failure));
    }

    /**
     * What /health says after its DescribeTable. Answered, it closed the outage breaker before this runs,
     * so the next query is sent; refused by the open breaker, queries are refused too and the reason says
     * so: /health and queries never disagree.
     */
    private StoreStatus status(Throwable failure) {
        if (failure != null && OutageBreaker.refused(failure)) {
            return StoreStatus.down("DynamoDB did not answer a recent call: queries fail at once until a probe"
                    + " (this check, or a query) gets an answer, one every " + OutageBreaker.COOL_DOWN.toSeconds() + " s");
        }
        if (failure != null) {
            // The error code only: AWS's message may name the table or a request id.
            return StoreStatus.down(StoreFailures.translate(failure).getCause() instanceof AwsServiceException service
                    ? "DynamoDB answered DescribeTable with " + service.awsErrorDetails().errorCode()
                    : "DynamoDB did not answer DescribeTable (no connection, or timed out)");
        }
        return StoreStatus.SERVING;
    }
}
