package dev.moviegraph.dynamo.admin;

import dev.moviegraph.catalog.Credit;
import dev.moviegraph.catalog.KnownFor;
import dev.moviegraph.catalog.MonthlyStreams;
import dev.moviegraph.catalog.Movie;
import dev.moviegraph.catalog.MovieId;
import dev.moviegraph.catalog.Person;
import dev.moviegraph.catalog.PersonId;
import dev.moviegraph.catalog.Role;
import dev.moviegraph.catalog.TopList;
import dev.moviegraph.dynamo.client.Batches;
import dev.moviegraph.dynamo.model.Condition;
import dev.moviegraph.dynamo.model.Entity;
import dev.moviegraph.dynamo.model.Expression;
import dev.moviegraph.dynamo.model.Index;
import dev.moviegraph.dynamo.model.ItemUpdate;
import dev.moviegraph.dynamo.model.SearchEntries;
import dev.moviegraph.dynamo.model.TableModel;
import dev.moviegraph.dynamo.model.TopShards;
import dev.moviegraph.dynamo.read.ItemWeights;
import dev.moviegraph.dynamo.write.TopLists;

import java.time.Duration;
import java.time.YearMonth;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.CreateGlobalSecondaryIndexAction;
import software.amazon.awssdk.services.dynamodb.model.DeleteGlobalSecondaryIndexAction;
import software.amazon.awssdk.services.dynamodb.model.DescribeTableRequest;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexDescription;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexUpdate;
import software.amazon.awssdk.services.dynamodb.model.IndexStatus;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughput;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateTableRequest;

/**
 * {@code moviegraph.jar migrate}: upgrades, in place, a table of layout 1 (what the gateway wrote up to
 * commit e55db79) to {@link TableModel#LAYOUT_VERSION}. The only place the gateway Scans: parallel
 * segments read every item once and rewrite the ones layout 1 wrote differently, through the model's
 * own codecs, so a migrated item is byte for byte what the current gateway would have written:
 * <ul>
 * <li>an actor ({@code act#{actorId}}) becomes a person ({@code per#{personId}}, GSI3 keys): the new
 *     item and the old one's delete go in one transaction, so a person is never lost or doubled;</li>
 * <li>a cast item keeps its key and gains its GSI3 keys (role, year descending, title) and its new
 *     credit order; {@code actorId}, {@code actorName}, {@code actorVersion} become {@code personId},
 *     {@code personName}, {@code personVersion} (the name copy stays as true as it was);</li>
 * <li>a movie's credit order key becomes the model's; totals, streams, checkpoints and markers are the
 *     same in both layouts and are left alone, so every recorded stream stays known.</li>
 * </ul>
 * Then the model's person index (GSI3) is created and backfilled by DynamoDB, and only when it serves
 * is layout 2 recorded; layout 1's gsi1 (keyed {@code (sk, pk)}) is deleted last where the engine can.
 *
 * <p>Layouts are a chain: each declares its step from the one before ({@link Step}), and a run does every
 * step the table needs, in order (1 to 2 to 3, or 2 to 3), recording each layout as its step ends. Layout
 * 3's step creates the search and list indexes (gsi4, gsi5, gsi6), then Scans once and writes every movie
 * and person again with its credit counts, and their search and list entries (a person ranked by the best
 * known of the movies they are credited on). Every step is idempotent and a run starts by recording
 * "layout 1" when nothing is recorded, so a run cut short leaves a table servers still refuse, and running
 * the command again finishes it from the step it was in.
 *
 * <p>Layout 5's step (from 4) creates the keys-only gsi8, gives every total its key, rates every movie's list
 * entries and rebuilds each month's top list item from the totals; gateways of layout 4 may count meanwhile,
 * and the run after they are stopped settles: what they counted since is merged, gsi7 is emptied, the floors
 * are deleted. A run from below layout 4 skips layout 4's step (nothing of it survives in 5) and settles at
 * once.
 */
public final class LayoutMigration {
    /** Whether the item is there, as a write's condition. */
    private static final Expression PRESENT = Expression.of(Condition.exists(TableModel.PK));
    private static final Expression ABSENT = Expression.of(Condition.notExists(TableModel.PK));
    /** Layout 1's names, as commit e55db79 wrote them: read here and nowhere else. */
    static final class Layout1 {
        static final String ACTOR_TYPE = "actor";
        static final String ACTOR_ID = "actorId";
        static final String ACTOR_NAME = "actorName";
        static final String ACTOR_VERSION = "actorVersion";
        static final String BILLING = "billing";
        /** Layout 1's GSI1: keyed (sk, pk), the inversion of the table's keys. */
        static final String GSI1 = "gsi1";

        private Layout1() {
        }
    }

    /** Layout 3's top index (up to layout 3 a month was one partition of it): read here and nowhere else. */
    static final class Layout3 {
        static final String GSI2 = "gsi2";
        static final String GSI2_PK = TableModel.GSI2_PK;
        /** The meta item that says layout 3's gsi2 was emptied once no gateway of layout 3 wrote any more. */
        static final String SETTLED = "layout3-settled";

        private Layout3() {
        }
    }

    /** Layout 4's top index and floors (a month's totals by rank in 16 partitions): read here and nowhere else. */
    public static final class Layout4 {
        public static final String GSI7_PK = Index.GSI7.partitionKey();
        public static final String TOP_RANK = Index.GSI7.sortKey();
        /** A month's totals in layout 4's top index were in this many partitions, {@code top#{month}#{shard}}. */
        static final int SHARDS = 16;
        /** Layout 4's floor items, {@code pk = sk = topfloor#{month}}. */
        static final String FLOOR_PREFIX = "topfloor#";
        static final String GSI7 = Index.GSI7.indexName();
        /**
         * The meta item that says layout 4's gsi7 was emptied and its floors deleted once no gateway of layout 4
         * wrote any more.
         */
        static final String SETTLED = "layout4-settled";

        static String partition(dev.moviegraph.catalog.MonthlyStreams total) {
            return "top#" + total.month() + "#" + TopShards.label(TopShards.of(total.movieId(), SHARDS));
        }

        private Layout4() {
        }
    }

    /** What one run did: items scanned, movies, people and credits rewritten, and items layout 3 derived. */
    public record Summary(boolean alreadyCurrent, long scanned, long movies, long people, long credits, long entries,
                          long millis) {
    }

    private static final int SEGMENTS = 8;
    /** Updates or transactions one thread of the migration keeps in flight. */
    private static final int IN_FLIGHT = 16;
    /**
     * Between looks at an index being built: from {@link #FIRST_POLL}, doubling up to {@link #POLL}. DynamoDB
     * takes minutes and the doubling soon reaches 2 s; DynamoDB Local builds an index at once.
     */
    private static final Duration FIRST_POLL = Duration.ofMillis(50);
    private static final Duration POLL = Duration.ofSeconds(2);

    private final DynamoDbAsyncClient client;
    private final String table;
    private final Consumer<String> progress;
    private final boolean dropLayout1Index;
    private final AtomicLong scanned = new AtomicLong();
    private final AtomicLong movies = new AtomicLong();
    private final AtomicLong people = new AtomicLong();
    private final AtomicLong credits = new AtomicLong();
    private final AtomicLong entries = new AtomicLong();
    private final AtomicLong totals = new AtomicLong();
    /** The last layout this run migrates to: the model's, or an earlier one for tests of a later step. */
    private final int upTo;
    private final List<Step> chain = List.of(
            new Step(2, "people, credits and the person index", this::layout1To2),
            new Step(3, "search and list indexes, entries and counts", this::layout2To3),
            new Step(4, "the month's top list in " + Layout4.SHARDS + " partitions (gsi7)", this::layout3To4),
            new Step(5, "the month's top list as one item, gsi8, list entries with ratings", this::layout4To5));

    /**
     * {@code dropLayout1Index}: delete layout 1's gsi1 once the new index serves (on DynamoDB and the engine;
     * DynamoDB Local fails to delete an index and leaves it "DELETING" for good, so there it stays, unused).
     */
    public LayoutMigration(DynamoDbAsyncClient client, String table, boolean dropLayout1Index, Consumer<String> progress) {
        this(client, table, dropLayout1Index, progress, TableModel.LAYOUT_VERSION);
    }

    /** A migration that stops at layout {@code upTo}: a table of an earlier layout, as a test of a later step needs. */
    public LayoutMigration(DynamoDbAsyncClient client, String table, boolean dropLayout1Index, Consumer<String> progress, int upTo) {
        this.upTo = upTo;
        this.client = client;
        this.table = table;
        this.dropLayout1Index = dropLayout1Index;
        this.progress = progress;
    }

    /** Migrates the table; returns at once when it is already in this layout. */
    public Summary run() {
        long started = System.nanoTime();
        TableAdmin admin = new TableAdmin(client, table);
        switch (admin.layout()) {
            case CURRENT -> {
                dropLayout1Index();
                boolean settled = settle(true, true);
                dropSettledIndexes();
                if (settled) {
                    long millis = (System.nanoTime() - started) / 1_000_000;
                    return new Summary(false, scanned.get(), 0, 0, 0, entries.get(), millis);
                }
                progress.accept("Table " + table + " already has layout " + TableModel.LAYOUT_VERSION + "; nothing to do");
                return new Summary(true, 0, 0, 0, 0, 0, 0);
            }
            case NEWER -> throw new IllegalStateException("Table " + table + " was written by a later layout than "
                    + TableModel.LAYOUT_VERSION + "; this moviegraph cannot migrate it");
            case NEW -> {
                admin.recordLayout();
                progress.accept("Table " + table + " holds nothing of an earlier layout; recorded layout "
                        + TableModel.LAYOUT_VERSION);
                return new Summary(true, 0, 0, 0, 0, 0, 0);
            }
            case OLDER -> { }
        }
        int from = admin.recordedLayout();
        int startedFrom = from;
        if (from == 1) {
            // From here until this step ends, the table says "layout 1" whatever happens to this process.
            client.putItem(PutItemRequest.builder().tableName(table)
                    .item(TableModel.META.encode(new TableModel.Meta(TableModel.LAYOUT, 1, null)))
                    .conditionExpression(ABSENT.condition()).expressionAttributeNames(ABSENT.names())
                    .build()).exceptionally(failure -> {
                        if (failure.getCause() instanceof ConditionalCheckFailedException) {
                            return null;
                        }
                        throw failure instanceof java.util.concurrent.CompletionException completion
                                ? completion : new java.util.concurrent.CompletionException(failure);
                    }).join();
        }
        // Each layout's step from the one before, in order; each records its layout when it is done, so a
        // run cut short starts again at the step it was in, and every step is idempotent.
        for (Step step : chain) {
            if (step.to() > from && step.to() <= upTo) {
                if (step.to() == 4 && upTo > 4) {
                    // Layout 4's gsi7 and ranks are what layout 5's step and settling take away again: on a run
                    // that goes on to 5, building the index (a backfill billed per total) and ranking every total
                    // would be work undone minutes later. The table stays "layout 3" until layout 5 is recorded,
                    // so no gateway of layout 4 can serve it meanwhile, and a run cut short starts from 3 again.
                    progress.accept("Skipping layout 4's step (gsi7, ranks): layout 5 has neither");
                    continue;
                }
                progress.accept("Migrating table " + table + " from layout " + (step.to() - 1) + " to layout " + step.to()
                        + ": " + step.what());
                step.run().run();
                admin.recordLayout(step.to());
                from = step.to();
            }
        }
        if (startedFrom < 4 && from == TableModel.LAYOUT_VERSION) {
            // Gateways of layouts 1 and 2 are stopped before a migration (see requireLayout), and no gateway of
            // layout 4 ever served a table that was below it: nothing they write can have been counted after this
            // run's Scans, so their indexes are emptied now. Gateways of layout 3 may still be counting when the
            // run started from layout 3: its gsi2 waits for the next run.
            settle(startedFrom < 3, true);
        }
        dropLayout1Index();
        dropSettledIndexes();
        long millis = (System.nanoTime() - started) / 1_000_000;
        progress.accept(String.format("Table %s has layout %d (%,d ms)", table, from, millis));
        return new Summary(false, scanned.get(), movies.get(), people.get(), credits.get(), entries.get(), millis);
    }

    /** One layout's step from the one before: what it does, and doing it. */
    private record Step(int to, String what, Runnable run) {
    }

    /** Layout 1 to 2: actors become people, credits get their person index keys; the person index. */
    private void layout1To2() {
        convertItems();
        progress.accept(String.format("Items done: %,d scanned; %,d movies, %,d people, %,d credits rewritten",
                scanned.get(), movies.get(), people.get(), credits.get()));
        buildIndex(Index.GSI3);
    }

    /**
     * Layout 2 to 3: the search and list indexes (gsi4, gsi5, gsi6), then every movie's and person's
     * search and list entries and counts, from one Scan of the table: a movie's entries need only the
     * movie; a person's rank needs the votes of the movies they are credited on, and the counts need
     * every credit, so the Scan collects movies, people and who is credited where, then writes.
     */
    private void layout2To3() {
        for (Index index : List.of(Index.GSI4, Index.GSI5, Index.GSI6)) {
            buildIndex(index);
        }
        Derived derived = new Derived();
        scanAll(derived::collect);
        ItemWeights weights = new ItemWeights(client, table).load();
        List<Map<String, AttributeValue>> items = derived.items();
        weights.observe(items).join();
        new Batches(client, table).putAll(items, SEGMENTS).join();
        entries.addAndGet(items.size());
        progress.accept(String.format("Items done: %,d scanned; %,d movies and people with %,d items written",
                scanned.get(), derived.movies.size() + derived.people.size(), items.size()));
    }

    /**
     * Layout 3 to 4: the top index (gsi7), then every total's partition there and its rank, set from the
     * total's streams in the same update ({@code trank = streams + fraction}), so a stream counted by a
     * gateway of layout 3 at the same moment is neither lost nor counted twice: the update never writes
     * {@code streams}. Totals keep their gsi2 key, so gateways of layout 3 serve their top lists until they
     * are stopped; {@link #settle} then takes it away. A run that goes on to layout 5 skips this step.
     */
    private void layout3To4() {
        buildIndex(Index.GSI7);
        scanAll(this::rankTotals);
        progress.accept(String.format("Totals done: %,d scanned, %,d ranked. Once no gateway of layout 3 runs, run "
                + "migrate again: it ranks the totals they counted since and empties layout 3's gsi2", scanned.get(),
                entries.get()));
    }

    /**
     * Layout 4 to 5: the keys-only index gsi8, then one Scan: every total gets its gsi8 key (an update that
     * never writes {@code streams}, so gateways of layout 4 may count the whole time) and is offered to its
     * month's best {@value TopLists#KEPT}; every movie's list entries that do not copy its rating yet are
     * written again. Then each month's top list is rebuilt from its best totals, read again ({@link
     * TopLists#rebuild}). Totals keep layout 4's gsi7 key and rank and the floors stay, so gateways of layout 4
     * go on serving; {@link #settle} takes them away once they are stopped.
     */
    private void layout4To5() {
        buildIndex(Index.GSI8);
        BestTotals best = new BestTotals();
        RatedEntries rated = new RatedEntries();
        scanAll(page -> {
            keyTotals(page, best, List.of());
            rated.collect(page);
        });
        rateEntries(rated);
        rebuildLists(best);
        progress.accept(String.format("Totals done: %,d scanned, %,d totals keyed, %,d list entries rated, %,d months"
                + " listed. Once no gateway of layout 4 runs, run migrate again: it merges what they counted since into"
                + " the lists, empties gsi7 and deletes the floors", scanned.get(), totals.get(), entries.get(),
                best.months()));
    }

    /**
     * Once no gateway of an earlier layout writes (see the callers): takes every total out of the top indexes of
     * layouts 3 ({@code three}: gsi2) and 4 ({@code four}: gsi7), each only while it exists and was not settled,
     * gives the totals that lack it their gsi8 key (one an old gateway created after the step), rebuilds every
     * month's top list from one more Scan (an old gateway may have counted after the step read a total), deletes
     * layout 4's floors, and records each settling. Returns whether there was anything to settle.
     */
    private boolean settle(boolean three, boolean four) {
        TableDescription description = describe();
        TableAdmin admin = new TableAdmin(client, table);
        boolean layout3 = three && globalIndex(description, Layout3.GSI2) != null && !admin.marker(Layout3.SETTLED);
        boolean layout4 = four && globalIndex(description, Layout4.GSI7) != null && !admin.marker(Layout4.SETTLED);
        if (!layout3 && !layout4) {
            return false;
        }
        List<String> removing = new ArrayList<>();
        List<String> indexes = new ArrayList<>();
        if (layout3) {
            removing.add(Layout3.GSI2_PK);
            indexes.add(Layout3.GSI2);
        }
        if (layout4) {
            removing.addAll(List.of(Layout4.GSI7_PK, Layout4.TOP_RANK));
            indexes.add(Layout4.GSI7);
        }
        progress.accept("Settling the top index " + String.join(" and ", indexes)
                + ": every total taken out of it, every month's top list merged again");
        BestTotals best = new BestTotals();
        scanAll(page -> {
            keyTotals(page, best, removing);
            if (layout4) {
                deleteFloors(page);
            }
        });
        rebuildLists(best);
        if (layout3) {
            admin.mark(Layout3.SETTLED);
        }
        if (layout4) {
            admin.mark(Layout4.SETTLED);
        }
        progress.accept(String.format("Settled: %,d items scanned, %,d totals rewritten, %,d months listed",
                scanned.get(), totals.get(), best.months()));
        return true;
    }

    /** Deletes the index of an earlier layout once it was settled (again on every run, until it is gone). */
    private void dropSettledIndexes() {
        TableAdmin admin = new TableAdmin(client, table);
        if (admin.marker(Layout3.SETTLED)) {
            dropIndex(Layout3.GSI2);
        }
        if (admin.marker(Layout4.SETTLED)) {
            dropIndex(Layout4.GSI7);
        }
    }

    /**
     * Offers each total of the page to its month's best, and gives it its gsi8 key and takes {@code removing}
     * away where it needs that: an update that never writes {@code streams}, on condition that the total is
     * still there (one deleted since stays deleted).
     */
    private void keyTotals(List<Map<String, AttributeValue>> page, BestTotals best, List<String> removing) {
        List<UpdateItemRequest> updates = new ArrayList<>();
        for (Map<String, AttributeValue> item : page) {
            if (!TableModel.is(item, TableModel.TOTAL)) {
                continue;
            }
            MonthlyStreams total = TableModel.TOTAL.decode(item);
            best.offer(total);
            List<String> present = removing.stream().filter(item::containsKey).toList();
            if (item.containsKey(TableModel.GSI8_PK) && present.isEmpty()) {
                continue;
            }
            ItemUpdate update = ItemUpdate.create()
                    .setIfAbsent(TableModel.GSI8_PK, TableModel.TOTAL.encode(total).get(TableModel.GSI8_PK));
            for (String old : present) {
                update = update.remove(old);
            }
            Expression expression = Expression.of(update, Condition.exists(TableModel.PK));
            updates.add(UpdateItemRequest.builder().tableName(table).key(TableModel.keyOf(item))
                    .updateExpression(expression.update())
                    .conditionExpression(expression.condition())
                    .expressionAttributeNames(expression.names())
                    .expressionAttributeValues(expression.values())
                    .build());
        }
        // A page holds thousands of totals: a few dozen updates in flight per segment, not all of them at once.
        for (List<UpdateItemRequest> chunk : Batches.chunks(updates, IN_FLIGHT)) {
            CompletableFuture.allOf(chunk.stream().map(update -> client.updateItem(update).handle((done, failure) -> {
                if (failure != null && !(failure.getCause() instanceof ConditionalCheckFailedException)) {
                    throw failure instanceof java.util.concurrent.CompletionException completion
                            ? completion : new java.util.concurrent.CompletionException(failure);
                }
                totals.incrementAndGet();
                return null;
            })).toArray(CompletableFuture[]::new)).join();
        }
    }

    /** Deletes layout 4's floor items of the page. */
    private void deleteFloors(List<Map<String, AttributeValue>> page) {
        List<CompletableFuture<?>> deletes = new ArrayList<>();
        for (Map<String, AttributeValue> item : page) {
            if (item.get(TableModel.PK).s().startsWith(Layout4.FLOOR_PREFIX)) {
                deletes.add(client.deleteItem(delete -> delete.tableName(table).key(TableModel.keyOf(item))));
            }
        }
        CompletableFuture.allOf(deletes.toArray(CompletableFuture[]::new)).join();
    }

    /** Each month's list rebuilt from the best totals a Scan found (and what the list holds), a few months at once. */
    private void rebuildLists(BestTotals best) {
        TopLists lists = new TopLists(client, table);
        ExecutorService months = Executors.newFixedThreadPool(SEGMENTS, daemon("moviegraph-migrate-lists"));
        try {
            List<CompletableFuture<Void>> rebuilt = best.lists().stream().map(list -> CompletableFuture.runAsync(
                    () -> lists.rebuild(list, dev.moviegraph.catalog.CallContext.NONE), months)).toList();
            CompletableFuture.allOf(rebuilt.toArray(CompletableFuture[]::new)).join();
        } finally {
            months.shutdownNow();
        }
    }

    /** Each month's best {@value TopLists#KEPT} totals a Scan offered (best first, ties by the lower movie id). */
    private static final class BestTotals {
        private final Map<YearMonth, PriorityQueue<MonthlyStreams>> byMonth = new HashMap<>();

        synchronized void offer(MonthlyStreams total) {
            if (total.streams() <= 0) {
                return;
            }
            PriorityQueue<MonthlyStreams> best = byMonth.computeIfAbsent(total.month(),
                    month -> new PriorityQueue<>(TopShards.BEST_FIRST.reversed()));
            best.add(total);
            if (best.size() > TopLists.KEPT) {
                best.poll(); // the worst of them
            }
        }

        synchronized int months() {
            return byMonth.size();
        }

        /** Each month's best as a list: its floor the last one's streams when it holds all it keeps, else 0. */
        synchronized List<TopList> lists() {
            List<TopList> lists = new ArrayList<>();
            byMonth.forEach((month, best) -> {
                List<MonthlyStreams> entries = best.stream().sorted(TopShards.BEST_FIRST).toList();
                long floor = entries.size() == TopLists.KEPT ? entries.get(entries.size() - 1).streams() : 0;
                lists.add(new TopList(month, floor, entries));
            });
            return lists;
        }
    }

    /** Movies and their list entries as a Scan found them, to give the entries their movie's rating. */
    private static final class RatedEntries {
        private final Map<MovieId, Map<String, AttributeValue>> movies = new ConcurrentHashMap<>();
        private final Map<Map<String, AttributeValue>, Map<String, AttributeValue>> entries = new ConcurrentHashMap<>();

        void collect(List<Map<String, AttributeValue>> page) {
            for (Map<String, AttributeValue> item : page) {
                if (TableModel.is(item, TableModel.MOVIE)) {
                    movies.put(TableModel.MOVIE.decode(item).id(), item);
                } else if (TableModel.is(item, TableModel.MOVIE_LIST)) {
                    entries.put(TableModel.keyOf(item), item);
                }
            }
        }
    }

    /**
     * Writes again each movie's list entries that differ from what the movie gives ({@link SearchEntries#of}, the
     * rating copied), in one transaction per movie on condition that the movie is still the one the Scan read (its
     * version): a gateway of layout 4 that wrote the movie since wrote its entries too.
     */
    private void rateEntries(RatedEntries rated) {
        List<TransactWriteItemsRequest> writes = new ArrayList<>();
        rated.movies.forEach((id, movieItem) -> {
            List<TransactWriteItem> puts = new ArrayList<>();
            for (Map<String, AttributeValue> entry : SearchEntries.of(TableModel.MOVIE.decode(movieItem))) {
                if (TableModel.is(entry, TableModel.MOVIE_LIST) && !entry.equals(rated.entries.get(TableModel.keyOf(entry)))) {
                    puts.add(TransactWriteItem.builder().put(put -> put.tableName(table).item(entry)).build());
                }
            }
            if (puts.isEmpty()) {
                return;
            }
            AttributeValue version = movieItem.get(TableModel.VERSION);
            Expression unchanged = Expression.of(version == null
                    ? Condition.exists(TableModel.PK).and(Condition.notExists(TableModel.VERSION))
                    : Condition.equal(TableModel.VERSION, version));
            puts.add(TransactWriteItem.builder().conditionCheck(check -> check.tableName(table)
                    .key(TableModel.keyOf(movieItem))
                    .conditionExpression(unchanged.condition())
                    .expressionAttributeNames(unchanged.names())
                    .expressionAttributeValues(unchanged.values())).build());
            writes.add(TransactWriteItemsRequest.builder().transactItems(puts).build());
        });
        for (List<TransactWriteItemsRequest> chunk : Batches.chunks(writes, IN_FLIGHT)) {
            CompletableFuture.allOf(chunk.stream().map(write -> client.transactWriteItems(write)
                    .handle((done, failure) -> {
                        if (failure == null) {
                            entries.addAndGet(write.transactItems().size() - 1);
                        } else if (!(failure.getCause() instanceof TransactionCanceledException canceled)
                                || canceled.cancellationReasons().stream()
                                        .noneMatch(reason -> "ConditionalCheckFailed".equals(reason.code()))) {
                            throw failure instanceof java.util.concurrent.CompletionException completion
                                    ? completion : new java.util.concurrent.CompletionException(failure);
                        }
                        return null;
                    })).toArray(CompletableFuture[]::new)).join();
        }
    }

    /** Gives each total of the page layout 4's top-index key and rank. */
    private void rankTotals(List<Map<String, AttributeValue>> page) {
        List<CompletableFuture<?>> updates = new ArrayList<>();
        for (Map<String, AttributeValue> item : page) {
            if (!TableModel.is(item, TableModel.TOTAL)) {
                continue;
            }
            dev.moviegraph.catalog.MonthlyStreams total = TableModel.TOTAL.decode(item);
            Expression expression = Expression.of(ItemUpdate.create()
                    .set(Layout4.GSI7_PK, AttributeValue.fromS(Layout4.partition(total)))
                    .setSum(Layout4.TOP_RANK, TableModel.STREAMS, AttributeValue.fromN("0"),
                            AttributeValue.fromN(TopShards.fraction(total.movieId()).toPlainString())),
                    Condition.exists(TableModel.PK)); // a total deleted since stays deleted
            updates.add(client.updateItem(UpdateItemRequest.builder().tableName(table).key(TableModel.keyOf(item))
                    .updateExpression(expression.update())
                    .conditionExpression(expression.condition())
                    .expressionAttributeNames(expression.names())
                    .expressionAttributeValues(expression.values())
                    .build()).handle((done, failure) -> {
                        if (failure != null && !(failure.getCause() instanceof ConditionalCheckFailedException)) {
                            throw failure instanceof java.util.concurrent.CompletionException completion
                                    ? completion : new java.util.concurrent.CompletionException(failure);
                        }
                        entries.incrementAndGet();
                        return null;
                    }));
        }
        CompletableFuture.allOf(updates.toArray(CompletableFuture[]::new)).join();
    }

    /** What layout 3 derives from a table's movies, people and credits. */
    private static final class Derived {
        private final Map<MovieId, Map<String, AttributeValue>> movies = new ConcurrentHashMap<>();
        private final Map<PersonId, Map<String, AttributeValue>> people = new ConcurrentHashMap<>();
        private final List<Credit> credits = java.util.Collections.synchronizedList(new ArrayList<>());

        void collect(List<Map<String, AttributeValue>> page) {
            for (Map<String, AttributeValue> item : page) {
                if (TableModel.is(item, TableModel.MOVIE)) {
                    movies.put(TableModel.MOVIE.decode(item).id(), item);
                } else if (TableModel.is(item, TableModel.PERSON)) {
                    people.put(TableModel.PERSON.decode(item).id(), item);
                } else {
                    for (Entity<Credit> entity : TableModel.CREDITS) {
                        if (TableModel.is(item, entity)) {
                            credits.add(entity.decode(item));
                        }
                    }
                }
            }
        }

        /** Every movie and person with its counts (its version kept), and their search and list entries. */
        List<Map<String, AttributeValue>> items() {
            Map<MovieId, Integer> cast = new HashMap<>();
            Map<PersonId, int[]> counts = new HashMap<>();
            Map<PersonId, KnownFor> knownFor = new HashMap<>();
            for (Credit credit : credits) {
                if (credit.role() == Role.CAST) {
                    cast.merge(credit.movieId(), 1, Integer::sum);
                }
                counts.computeIfAbsent(credit.personId(), id -> new int[Role.values().length])[credit.role().ordinal()]++;
                Map<String, AttributeValue> movieItem = movies.get(credit.movieId());
                Movie movie = movieItem == null ? null : TableModel.MOVIE.decode(movieItem);
                if (movie != null && movie.numVotes() != null) {
                    knownFor.merge(credit.personId(), new KnownFor(movie.id(), movie.title(), movie.year(),
                            movie.numVotes()), KnownFor::better);
                }
            }
            List<Map<String, AttributeValue>> items = new ArrayList<>();
            movies.forEach((id, item) -> {
                Movie movie = TableModel.MOVIE.decode(item).withCastCount(cast.getOrDefault(id, 0));
                items.add(withVersion(TableModel.MOVIE.encode(movie), item));
                items.addAll(SearchEntries.of(movie));
            });
            people.forEach((id, item) -> {
                int[] of = counts.getOrDefault(id, new int[Role.values().length]);
                Person person = TableModel.PERSON.decode(item).withCounts(of[Role.CAST.ordinal()],
                        of[Role.DIRECTOR.ordinal()], of[Role.WRITER.ordinal()]);
                items.add(withVersion(TableModel.PERSON.encode(person), item));
                items.addAll(SearchEntries.of(person, knownFor.get(id)));
            });
            return items;
        }
    }

    // ---- items

    private void convertItems() {
        scanAll(this::convert);
    }

    /** Every item of the table, page by page, to {@code pages}, in parallel segments. */
    private void scanAll(Consumer<List<Map<String, AttributeValue>>> pages) {
        ExecutorService segments = Executors.newFixedThreadPool(SEGMENTS, daemon("moviegraph-migrate"));
        try {
            List<Future<?>> running = new ArrayList<>();
            for (int segment = 0; segment < SEGMENTS; segment++) {
                int which = segment;
                running.add(segments.submit(() -> scanSegment(which, pages)));
            }
            long lastReport = System.nanoTime();
            for (Future<?> segment : running) {
                while (true) {
                    try {
                        segment.get(POLL.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
                        break;
                    } catch (java.util.concurrent.TimeoutException stillRunning) {
                        if (System.nanoTime() - lastReport >= POLL.toNanos()) {
                            lastReport = System.nanoTime();
                            progress.accept(String.format("  %,d items scanned", scanned.get()));
                        }
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Migration interrupted; run it again to finish", e);
        } catch (java.util.concurrent.ExecutionException e) {
            throw e.getCause() instanceof RuntimeException runtime ? runtime : new IllegalStateException(e.getCause());
        } finally {
            segments.shutdownNow();
        }
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        return runnable -> {
            Thread thread = new Thread(runnable, name);
            thread.setDaemon(true);
            return thread;
        };
    }

    private void scanSegment(int segment, Consumer<List<Map<String, AttributeValue>>> pages) {
        Map<String, AttributeValue> from = null;
        do {
            ScanRequest.Builder scan = ScanRequest.builder().tableName(table).segment(segment).totalSegments(SEGMENTS)
                    .consistentRead(true);
            if (from != null) {
                scan.exclusiveStartKey(from);
            }
            ScanResponse page = client.scan(scan.build()).join();
            scanned.addAndGet(page.count());
            pages.accept(page.items());
            from = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
        } while (from != null);
    }

    /** Rewrites the items of one page that layout 1 wrote differently, and waits until they are written. */
    private void convert(List<Map<String, AttributeValue>> items) {
        List<Map<String, AttributeValue>> puts = new ArrayList<>();
        List<CompletableFuture<?>> moves = new ArrayList<>();
        for (Map<String, AttributeValue> item : items) {
            String type = TableModel.type(item);
            if (type.equals(Layout1.ACTOR_TYPE)) {
                moves.add(movePerson(item));
            } else if (TableModel.is(item, TableModel.MOVIE) && !isCurrent(item, TableModel.MOVIE)) {
                puts.add(withVersion(TableModel.MOVIE.encode(TableModel.MOVIE.decode(item)), item));
                movies.incrementAndGet();
            } else if (TableModel.is(item, TableModel.CAST) && item.containsKey(Layout1.ACTOR_ID)) {
                puts.add(castCredit(item));
                credits.incrementAndGet();
            }
        }
        moves.add(new Batches(client, table).putAll(puts, 4));
        CompletableFuture.allOf(moves.toArray(CompletableFuture[]::new)).join();
    }

    /** Whether an item's keys are already what the model renders for it. */
    private static <T extends Record> boolean isCurrent(Map<String, AttributeValue> item, Entity<T> entity) {
        Map<String, AttributeValue> current = entity.encode(entity.decode(item));
        return entity.keys().keySet().stream().allMatch(key -> current.get(key).equals(item.get(key)));
    }

    private CompletableFuture<?> movePerson(Map<String, AttributeValue> actor) {
        Person person = new Person(PersonId.of(actor.get(Layout1.ACTOR_ID).s()), string(actor, "name"),
                number(actor, "birthYear"), null);
        Map<String, AttributeValue> personItem = withVersion(TableModel.PERSON.encode(person), actor);
        // Both or neither: the old item goes only if it is still there, so a rerun never deletes twice.
        TransactWriteItemsRequest move = TransactWriteItemsRequest.builder().transactItems(
                TransactWriteItem.builder().put(put -> put.tableName(table).item(personItem)).build(),
                TransactWriteItem.builder().delete(delete -> delete.tableName(table).key(TableModel.keyOf(actor))
                        .conditionExpression(PRESENT.condition()).expressionAttributeNames(PRESENT.names())).build()).build();
        return client.transactWriteItems(move).thenRun(people::incrementAndGet);
    }

    private static Map<String, AttributeValue> castCredit(Map<String, AttributeValue> cast) {
        Credit credit = new Credit(MovieId.of(cast.get("movieId").s()), PersonId.of(cast.get(Layout1.ACTOR_ID).s()),
                Role.CAST, string(cast, "movieTitle"), number(cast, "movieYear"), string(cast, Layout1.ACTOR_NAME),
                cast.containsKey("characters") && cast.get("characters").hasL()
                        ? cast.get("characters").l().stream().map(AttributeValue::s).toList() : List.of(),
                number(cast, Layout1.BILLING));
        Map<String, AttributeValue> item = new HashMap<>(TableModel.CAST.encode(credit));
        for (Entity.Copy copy : TableModel.CAST.copies()) {
            String old = copy.source() == TableModel.PERSON ? Layout1.ACTOR_VERSION : copy.versionAttribute();
            if (cast.containsKey(old)) {
                item.put(copy.versionAttribute(), cast.get(old));
            }
        }
        return item;
    }

    private static Map<String, AttributeValue> withVersion(Map<String, AttributeValue> item, Map<String, AttributeValue> old) {
        Map<String, AttributeValue> versioned = new HashMap<>(item);
        if (old.containsKey(TableModel.VERSION)) {
            versioned.put(TableModel.VERSION, old.get(TableModel.VERSION));
        }
        return versioned;
    }

    private static String string(Map<String, AttributeValue> item, String name) {
        AttributeValue value = item.get(name);
        return value == null ? null : value.s();
    }

    private static Integer number(Map<String, AttributeValue> item, String name) {
        AttributeValue value = item.get(name);
        return value == null || value.n() == null ? null : Integer.valueOf(value.n());
    }

    // ---- indexes

    /** Creates one of the model's indexes unless it exists, which DynamoDB backfills, and waits until it serves. */
    private void buildIndex(Index model) {
        String name = model.indexName();
        for (long wait = FIRST_POLL.toMillis(); ; wait = Math.min(POLL.toMillis(), wait * 2)) {
            TableDescription description = describe();
            GlobalSecondaryIndexDescription index = globalIndex(description, name);
            if (index == null) {
                progress.accept("Creating index " + name + " on (" + model.partitionKey()
                        + (model.sortKey() == null ? "" : ", " + model.sortKey()) + "); DynamoDB backfills it from the items");
                createIndex(description, model);
            } else if (index.indexStatus() == IndexStatus.ACTIVE && !Boolean.TRUE.equals(index.backfilling())) {
                return;
            } else {
                progress.accept("  index " + name + " is " + index.indexStatusAsString().toLowerCase()
                        + (Boolean.TRUE.equals(index.backfilling()) ? ", backfilling" : ""));
            }
            sleep(wait);
        }
    }

    private void dropLayout1Index() {
        dropIndex(Layout1.GSI1);
    }

    /** Deletes an index of an earlier layout that nothing reads any more, where the engine can. */
    private void dropIndex(String name) {
        GlobalSecondaryIndexDescription old = globalIndex(describe(), name);
        if (old == null || old.indexStatus() == IndexStatus.DELETING) {
            return;
        }
        if (!dropLayout1Index) {
            progress.accept("The earlier layout's index " + name + " is left in place, unused (the endpoint may be"
                    + " DynamoDB Local, which cannot delete an index); on DynamoDB: aws dynamodb update-table --table-name " + table
                    + " --global-secondary-index-updates '[{\"Delete\":{\"IndexName\":\"" + name + "\"}}]'");
            return;
        }
        progress.accept("Deleting the earlier layout's index " + name + " (DynamoDB removes it in the background)");
        client.updateTable(UpdateTableRequest.builder().tableName(table).globalSecondaryIndexUpdates(
                GlobalSecondaryIndexUpdate.builder().delete(DeleteGlobalSecondaryIndexAction.builder()
                        .indexName(name).build()).build()).build()).join();
    }

    private static GlobalSecondaryIndexDescription globalIndex(TableDescription description, String name) {
        return !description.hasGlobalSecondaryIndexes() ? null : description.globalSecondaryIndexes().stream()
                .filter(index -> index.indexName().equals(name)).findFirst().orElse(null);
    }

    private void createIndex(TableDescription description, Index index) {
        GlobalSecondaryIndex model = TableModel.globalIndex(index);
        CreateGlobalSecondaryIndexAction.Builder create = CreateGlobalSecondaryIndexAction.builder()
                .indexName(model.indexName()).keySchema(model.keySchema()).projection(model.projection());
        boolean provisioned = description.billingModeSummary() != null
                ? description.billingModeSummary().billingMode() == BillingMode.PROVISIONED
                : description.provisionedThroughput() != null && description.provisionedThroughput().readCapacityUnits() != null
                        && description.provisionedThroughput().readCapacityUnits() > 0;
        if (provisioned) {
            // A provisioned table's index needs capacity of its own: the table's is the best guess.
            create.provisionedThroughput(ProvisionedThroughput.builder()
                    .readCapacityUnits(description.provisionedThroughput().readCapacityUnits())
                    .writeCapacityUnits(description.provisionedThroughput().writeCapacityUnits()).build());
        }
        // The index's own key attributes (a hash-only index has no sort key): a retired index's are no longer
        // among the table's.
        List<AttributeDefinition> definitions = new ArrayList<>();
        definitions.add(AttributeDefinition.builder().attributeName(index.partitionKey())
                .attributeType(ScalarAttributeType.S).build());
        if (index.sortKey() != null) {
            definitions.add(AttributeDefinition.builder().attributeName(index.sortKey())
                    .attributeType(index.sortType()).build());
        }
        client.updateTable(UpdateTableRequest.builder().tableName(table).attributeDefinitions(definitions)
                .globalSecondaryIndexUpdates(GlobalSecondaryIndexUpdate.builder().create(create.build()).build())
                .build()).join();
    }

    private TableDescription describe() {
        return client.describeTable(DescribeTableRequest.builder().tableName(table).build()).join().table();
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Migration interrupted; run it again to finish", e);
        }
    }
}
