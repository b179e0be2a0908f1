package dev.moviegraph.dynamo.write;

import dev.moviegraph.catalog.CallContext;
import dev.moviegraph.catalog.MonthlyStreams;
import dev.moviegraph.catalog.MovieId;
import dev.moviegraph.catalog.TopList;
import dev.moviegraph.dynamo.client.Batches;
import dev.moviegraph.dynamo.client.Queries;
import dev.moviegraph.dynamo.model.Access;
import dev.moviegraph.dynamo.model.Condition;
import dev.moviegraph.dynamo.model.Expression;
import dev.moviegraph.dynamo.model.TableModel;
import dev.moviegraph.dynamo.model.TopShards;
import dev.moviegraph.dynamo.read.RecentReads;

import java.time.Duration;
import java.time.YearMonth;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;

/**
 * A month's top list as one item ({@link TableModel#TOP_LIST}): its best {@value #KEPT} totals, best first
 * ({@link TopShards#BEST_FIRST}), and its floor. Invariant: a total of the month that is not listed has
 * fewer streams than the floor, or as many and ranks after every entry; so the first N entries are the
 * exact top N for N up to the number of entries, and only a total that reaches the floor can enter.
 *
 * <p>Writers tell which totals reach the floor from their conditional updates (see
 * {@link StreamWrites#totalIncrement}) and {@link #merge} those: read the list (consistently), read
 * the totals back (consistently), keep each movie's largest count, cut to {@value #KEPT}, put the list on
 * condition that its version is still the one read, and start over when it is not. Totals only grow, so a
 * merge is idempotent and merges commute; the list is read before the totals so that a deletion racing a
 * merge either deleted the total before the merge read it or changed the list's version under it. Merges
 * of one month in one process are coalesced: while one is in flight the next waits and takes every total
 * offered meanwhile, so a busy month costs this process at most one list write per merge's round trip.
 *
 * <p>A deleted movie leaves its lists ({@link #remove}); once a list that was full has fewer than
 * {@value #REFILL_BELOW} entries it is refilled from the month's totals ({@link #refill}: GSI8, keys only,
 * then the totals), because a total below the floor might now rank among the first {@value #KEPT}.
 */
public final class TopLists {
    /** Totals a list keeps: twice the longest top list a query reads, so deletions leave it exact. */
    public static final int KEPT = 200;
    /** A list that was full is refilled when deletions leave it fewer entries than this (a top 100 stays exact). */
    static final int REFILL_BELOW = 150;
    /** After a refill lowered a floor, writers may use the higher one for as long as they keep it: refill again then. */
    static final Duration SECOND_REFILL_AFTER = Duration.ofSeconds(15);
    private static final int ATTEMPTS = 30;
    private static final String VERSION = TableModel.VERSION;

    /** A list as stored, with the version its next write must find (0: there is none). */
    record Stored(TopList list, long version) {
    }

    private final DynamoDbAsyncClient client;
    private final String table;
    private final Batches consistent;
    private final RecentReads<YearMonth, Long> floors = new RecentReads<>(Duration.ofSeconds(10), 10_000);
    private final Map<YearMonth, Merging> merging = new ConcurrentHashMap<>();
    private final Set<String> refillsQueued = ConcurrentHashMap.newKeySet();
    private final ExecutorService mergers = Executors.newCachedThreadPool(daemon("moviegraph-top-list"));

    public TopLists(DynamoDbAsyncClient client, String table) {
        this.client = client;
        this.table = table;
        this.consistent = new Batches(client, table).consistently();
    }

    /** The month's floor as this process last read or wrote it (at most 10 s old), 0 when the month has no full list. */
    public long floor(YearMonth month, CallContext context) {
        return floors.get(month, () -> read(month, context).list().floor());
    }

    /** The stored list, read consistently. */
    Stored read(YearMonth month, CallContext context) {
        List<Map<String, AttributeValue>> found = consistent.getAll(List.of(key(month)), context).join().items();
        if (found.isEmpty()) {
            return new Stored(new TopList(month, 0, List.of()), 0);
        }
        Map<String, AttributeValue> item = found.get(0);
        return new Stored(TableModel.TOP_LIST.decode(item), Long.parseLong(item.get(VERSION).n()));
    }

    /**
     * Merges the current totals of {@code movies} in {@code month} into its list, returning once they are in
     * (or known below it). Coalesced with the other merges of the month in this process.
     */
    public void merge(YearMonth month, Collection<MovieId> movies, CallContext context) {
        if (movies.isEmpty()) {
            return;
        }
        Merging state = merging.computeIfAbsent(month, m -> new Merging());
        CompletableFuture<Void> done;
        boolean start;
        synchronized (state) {
            state.waiting.addAll(movies);
            done = state.next;
            start = !state.running;
            state.running = true;
        }
        if (start) {
            mergers.execute(() -> mergeWhileWaiting(month, state, context));
        }
        try {
            done.join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException runtime ? runtime : e;
        }
    }

    /** Totals waiting to be merged into one month's list, and who waits for the next merge. */
    private static final class Merging {
        private final Set<MovieId> waiting = new HashSet<>();
        private CompletableFuture<Void> next = new CompletableFuture<>();
        private boolean running;
    }

    private void mergeWhileWaiting(YearMonth month, Merging state, CallContext context) {
        while (true) {
            Set<MovieId> movies;
            CompletableFuture<Void> done;
            synchronized (state) {
                if (state.waiting.isEmpty()) {
                    state.running = false;
                    return;
                }
                movies = new HashSet<>(state.waiting);
                state.waiting.clear();
                done = state.next;
                state.next = new CompletableFuture<>();
            }
            try {
                mergeNow(month, movies, context);
                done.complete(null);
            } catch (RuntimeException | Error e) {
                done.completeExceptionally(e);
            }
        }
    }

    private void mergeNow(YearMonth month, Set<MovieId> movies, CallContext context) {
        List<Map<String, AttributeValue>> keys = movies.stream().map(movie -> TableModel.totalKey(movie, month)).toList();
        update(month, context, stored -> {
            List<MonthlyStreams> totals = totals(consistent, keys, context);
            return merged(stored.list(), totals, stored.list().floor());
        });
    }

    /**
     * The list with {@code totals} merged in: each movie at its larger count and with the total's title, only
     * totals at or above {@code floor} added, cut to {@value #KEPT}; the floor rises to the last entry's
     * streams once the list is full, and never falls here.
     */
    static TopList merged(TopList list, Collection<MonthlyStreams> totals, long floor) {
        Map<MovieId, MonthlyStreams> byMovie = new LinkedHashMap<>();
        list.entries().forEach(entry -> byMovie.put(entry.movieId(), entry));
        for (MonthlyStreams total : totals) {
            MonthlyStreams listed = byMovie.get(total.movieId());
            if (listed != null ? total.streams() >= listed.streams() : total.streams() >= floor && total.streams() > 0) {
                byMovie.put(total.movieId(), entry(total));
            }
        }
        return cut(list.month(), byMovie.values(), floor);
    }

    /** The best {@value #KEPT} of {@code entries}, and the floor: the last one's streams once full, else {@code floor}. */
    private static TopList cut(YearMonth month, Collection<MonthlyStreams> entries, long floor) {
        List<MonthlyStreams> kept = entries.stream().sorted(TopShards.BEST_FIRST).limit(KEPT).toList();
        long raised = kept.size() == KEPT ? Math.max(floor, kept.get(KEPT - 1).streams()) : floor;
        return new TopList(month, raised, kept);
    }

    /**
     * Takes a deleted movie out of the month's list. The list is written even when the movie was not in it, so
     * that a merge that read the list before and the movie's total before it was deleted fails its condition
     * and reads again. Returns whether the list now wants a {@link #refill}.
     */
    boolean remove(YearMonth month, MovieId movie, CallContext context) {
        TopList after = update(month, context, stored -> new TopList(month, stored.list().floor(),
                stored.list().entries().stream().filter(entry -> !entry.movieId().equals(movie)).toList()), true);
        return after != null && wantsRefill(after);
    }

    /** Whether deletions left a list that was full too short to stay exact for a top 100 (see {@link #refill}). */
    static boolean wantsRefill(TopList list) {
        return list.floor() > 0 && list.entries().size() < REFILL_BELOW;
    }

    /** A renamed movie's title in the month's list, where it is listed. */
    public void retitle(YearMonth month, MovieId movie, String title, CallContext context) {
        update(month, context, stored -> new TopList(month, stored.list().floor(), stored.list().entries().stream()
                .map(entry -> entry.movieId().equals(movie) ? new MonthlyStreams(movie, title, null, entry.streams()) : entry)
                .toList()));
    }

    /**
     * Rebuilds the month's list from all its totals: GSI8's {@value TopShards#COUNT} partitions of keys, read at
     * once, then every total (eventually consistent, half a read unit each), the best {@value #KEPT} kept with
     * what the list holds now (merges meanwhile), the floor set to the last one's streams (lower than before,
     * if deletions took the best). Writers that still use the higher floor skip totals between the two for
     * up to their floor's age, so it runs again {@link #SECOND_REFILL_AFTER} later. Costs a read of every
     * total of the month: about half a read unit per movie streamed that month.
     */
    TopList refill(YearMonth month, CallContext context) {
        List<CompletableFuture<List<Map<String, AttributeValue>>>> shards = new ArrayList<>();
        for (int shard = 0; shard < TopShards.COUNT; shard++) {
            QueryRequest query = Access.TOP_REFILL_KEYS.queryShard(table, shard, Map.of("month", month)).build();
            shards.add(Queries.all(client, context, Access.TOP_REFILL_KEYS, query));
        }
        List<Map<String, AttributeValue>> keys = shards.stream().flatMap(shard -> shard.join().stream())
                .map(TableModel::keyOf).toList();
        TopList best = cut(month, totals(new Batches(client, table), keys, context).stream().map(TopLists::entry).toList(), 0);
        return rebuilt(best, context, true);
    }

    /**
     * Writes the month's list anew from {@code best}, the month's best totals as a read of all of them found
     * them (its floor the last one's streams when it holds {@value #KEPT}, else 0), with what the list holds
     * now: every one of their totals read again, the best {@value #KEPT} kept. Creates the list when there is
     * none; writes nothing when it is already that. For the migration, whose Scan found {@code best}.
     */
    public TopList rebuild(TopList best, CallContext context) {
        return rebuilt(best, context, false);
    }

    private TopList rebuilt(TopList best, CallContext context, boolean always) {
        YearMonth month = best.month();
        // The list is read before its totals are read again, as a merge does: a movie deleted before that read has
        // no total any more, one deleted after it changes the list's version and this starts over.
        return update(month, context, stored -> {
            Set<MovieId> movies = new HashSet<>();
            best.entries().forEach(entry -> movies.add(entry.movieId()));
            stored.list().entries().forEach(entry -> movies.add(entry.movieId()));
            List<Map<String, AttributeValue>> again = movies.stream().map(movie -> TableModel.totalKey(movie, month)).toList();
            return cut(month, totals(consistent, again, context).stream().map(TopLists::entry).toList(), best.floor());
        }, always);
    }

    /** Each month's top list of {@code totals} (a bulk load's: nothing else is counted yet), as first items. */
    public static List<Map<String, AttributeValue>> built(Collection<MonthlyStreams> totals) {
        Map<YearMonth, List<MonthlyStreams>> byMonth = new java.util.TreeMap<>();
        totals.forEach(total -> byMonth.computeIfAbsent(total.month(), month -> new ArrayList<>()).add(entry(total)));
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        byMonth.forEach((month, entries) -> items.add(item(cut(month, entries.stream().filter(e -> e.streams() > 0).toList(), 0), 0)));
        return items;
    }

    /** The item of a list whose next version is {@code version} + 1. */
    private static Map<String, AttributeValue> item(TopList list, long version) {
        Map<String, AttributeValue> item = new HashMap<>(TableModel.TOP_LIST.encode(list));
        item.put(VERSION, AttributeValue.fromN(Long.toString(version + 1)));
        return item;
    }

    /** The totals at {@code keys} that exist; a key DynamoDB left unread fails the merge (unread is not absent). */
    private static List<MonthlyStreams> totals(Batches batches, List<Map<String, AttributeValue>> keys, CallContext context) {
        Batches.GetResult read = batches.getAll(keys, context).join();
        if (!read.unprocessed().isEmpty()) {
            throw new IllegalStateException(read.unprocessed().size() + " totals could not be read for a top list");
        }
        return read.items().stream().map(TableModel.TOTAL::decode).toList();
    }

    /** A total as a list entry: the list's month is not repeated in it. */
    private static MonthlyStreams entry(MonthlyStreams total) {
        return new MonthlyStreams(total.movieId(), total.movieTitle(), null, total.streams());
    }

    /**
     * Refills the month's list now, in the background, and once more {@link #SECOND_REFILL_AFTER} later; a refill
     * already waiting to start takes in any asked for meanwhile (each deletion past the mark asks for one).
     */
    void refillSoon(YearMonth month, CallContext context) {
        queueRefill(month, context, Duration.ZERO);
        queueRefill(month, context, SECOND_REFILL_AFTER);
    }

    private void queueRefill(YearMonth month, CallContext context, Duration after) {
        String key = month + "+" + after;
        if (!refillsQueued.add(key)) {
            return;
        }
        java.util.concurrent.Executor start = after.isZero() ? mergers
                : CompletableFuture.delayedExecutor(after.toMillis(), TimeUnit.MILLISECONDS, mergers);
        start.execute(() -> {
            refillsQueued.remove(key);
            refillQuietly(month, context);
        });
    }

    private void refillQuietly(YearMonth month, CallContext context) {
        try {
            refill(month, context);
        } catch (RuntimeException e) {
            org.slf4j.LoggerFactory.getLogger(TopLists.class).warn("Refilling the top list of {} failed; the next "
                    + "deletion or merge that finds it short refills it again", month, e);
        }
    }

    private TopList update(YearMonth month, CallContext context, java.util.function.Function<Stored, TopList> change) {
        return update(month, context, change, false);
    }

    /**
     * Reads the list, changes it and puts it on condition of the version read, again while another writer
     * got there first. Writes nothing when the change leaves the list as it was, unless {@code always}.
     * Returns the list written (or found unchanged), null when there is none and {@code always} made none.
     */
    private TopList update(YearMonth month, CallContext context, java.util.function.Function<Stored, TopList> change,
                           boolean always) {
        for (int attempt = 1; ; attempt++) {
            Stored stored = read(month, context);
            if (always && stored.version() == 0 && stored.list().entries().isEmpty()) {
                return null;
            }
            TopList next = change.apply(stored);
            if (!always && next.equals(stored.list())) {
                floors.put(month, next.floor());
                return next;
            }
            if (put(next, stored.version(), context)) {
                floors.put(month, next.floor());
                if (!always && wantsRefill(next)) {
                    refillSoon(month, context); // a deletion's own refill was lost: this list is short
                }
                return next;
            }
            if (attempt == ATTEMPTS) {
                throw new IllegalStateException("The top list of " + month + " changed under " + ATTEMPTS
                        + " writes in a row; the write is retried with its batch");
            }
            try {
                Thread.sleep(ThreadLocalRandom.current().nextLong(1, 5L * Math.min(attempt, 10)));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted while writing the top list of " + month, e);
            }
        }
    }

    /** Puts the list if its version is still {@code version} (0: there is none yet). */
    private boolean put(TopList list, long version, CallContext context) {
        Expression unchanged = Expression.of(version == 0 ? Condition.notExists(TableModel.PK)
                : Condition.equal(VERSION, AttributeValue.fromN(Long.toString(version))));
        PutItemRequest.Builder put = PutItemRequest.builder().tableName(table).item(item(list, version))
                .conditionExpression(unchanged.condition()).expressionAttributeNames(unchanged.names())
                .expressionAttributeValues(unchanged.values());
        return ConditionalWrites.putIf(client, context, Access.TOP_LIST_WRITE, put);
    }

    static Map<String, AttributeValue> key(YearMonth month) {
        return TableModel.TOP_LIST.key(Map.of("month", month));
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        return runnable -> {
            Thread thread = new Thread(runnable, name);
            thread.setDaemon(true);
            return thread;
        };
    }
}
