package dev.moviegraph.graphql;

import dev.moviegraph.catalog.AccessPattern;
import dev.moviegraph.catalog.Actor;
import dev.moviegraph.catalog.ActorId;
import dev.moviegraph.catalog.CallContext;
import dev.moviegraph.catalog.CastMember;
import dev.moviegraph.catalog.CastPage;
import dev.moviegraph.catalog.CatalogReader;
import dev.moviegraph.catalog.EntityRef;
import dev.moviegraph.catalog.EntityRef.ActorRef;
import dev.moviegraph.catalog.EntityRef.MovieRef;
import dev.moviegraph.catalog.EntityRef.TotalRef;
import dev.moviegraph.catalog.Fetched;
import dev.moviegraph.catalog.Filmography;
import dev.moviegraph.catalog.FilmographyRead;
import dev.moviegraph.catalog.MonthRange;
import dev.moviegraph.catalog.MonthlyStreams;
import dev.moviegraph.catalog.Movie;
import dev.moviegraph.catalog.MovieCollection;
import dev.moviegraph.catalog.MovieId;
import dev.moviegraph.catalog.MovieRead;
import dev.moviegraph.catalog.PageRequest;
import dev.moviegraph.catalog.PlannedCall;
import dev.moviegraph.catalog.RequestStoppedException;
import dev.moviegraph.catalog.RequestStoppedException.Reason;

import java.time.YearMonth;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * The catalog a planned request (Moviegraph-Trace: plan) reads through. The real fetchers and
 * DataLoaders run unchanged; each read asks the real store which calls it would make ({@code plan...},
 * the same decision the store's reads take) and answers with stand-in items instead of calling it.
 * Stand-ins are the worst case the arguments allow: every id exists, every page is full ({@code first}
 * entries, {@code limit} totals), each with ids of its own, so the calls counted below them are the
 * most the query can make. An open month range counts as one month. Each call comes with the store's
 * estimate of the read units it consumes at most; once the sum passes {@code stopAbove} the planning
 * stops expanding (the reads below fail), so a query that would fan out without bound is never
 * expanded without bound either.
 */
final class PlanningCatalog implements CatalogReader {
    private static final int MAX_MONTHS = 100;

    private final CatalogReader store;
    private final AtomicInteger ids = new AtomicInteger();
    private final Map<List<Object>, Integer> planned = new LinkedHashMap<>();
    private final Map<List<Object>, AccessPattern> patterns = new HashMap<>();
    private final Map<List<Object>, Double> readUnits = new HashMap<>();
    private final double stopAbove;
    private double totalReadUnits;

    /** @param stopAbove the estimate past which planning stops expanding; 0 for never */
    PlanningCatalog(CatalogReader store, double stopAbove) {
        this.store = store;
        this.stopAbove = stopAbove;
    }

    /** The read units every call planned so far consumes at most, together. */
    synchronized double readUnits() {
        return totalReadUnits;
    }

    /** Whether planning stopped because its estimate passed the bound (it is then a lower bound). */
    synchronized boolean stopped() {
        return stopAbove > 0 && totalReadUnits > stopAbove;
    }

    /** The plan: each access pattern with the paths it serves and at most how many calls of it. */
    synchronized Map<String, Object> describe() {
        List<Map<String, Object>> fields = new ArrayList<>();
        int total = 0;
        for (Map.Entry<List<Object>, Integer> entry : planned.entrySet()) {
            AccessPattern pattern = patterns.get(entry.getKey());
            Map<String, Object> field = new LinkedHashMap<>();
            field.put("paths", entry.getKey().get(1));
            field.put("pattern", pattern.name());
            field.put("operation", pattern.operation());
            field.put("index", pattern.index());
            field.put("keyTemplate", pattern.keyTemplate());
            field.put("calls", entry.getValue());
            field.put("readUnits", readUnits.get(entry.getKey()));
            fields.add(field);
            total += entry.getValue();
        }
        Map<String, Object> plan = new LinkedHashMap<>();
        plan.put("calls", total);
        plan.put("readUnits", totalReadUnits);
        if (stopped()) {
            plan.put("complete", false);
        }
        plan.put("fields", fields);
        return plan;
    }

    /** Records the calls of one read, or refuses it when the estimate has already passed the bound. */
    private synchronized <T> CompletableFuture<T> record(List<PlannedCall> calls, CallContext context,
                                                         Supplier<T> standIn) {
        if (stopped()) {
            return CompletableFuture.failedFuture(new RequestStoppedException(Reason.READ_BUDGET,
                    "Not planned: the reads planned before this one are already estimated at more than "
                            + RequestGuard.format(stopAbove) + " read units (MAX_READ_UNITS)"));
        }
        for (PlannedCall call : calls) {
            List<Object> key = List.of(call.pattern().name(), context.paths());
            patterns.put(key, call.pattern());
            planned.merge(key, call.calls(), Integer::sum);
            readUnits.merge(key, call.readUnits(), Double::sum);
            totalReadUnits += call.readUnits();
        }
        return CompletableFuture.completedFuture(standIn.get());
    }

    @Override
    public CompletableFuture<Fetched> fetch(Collection<EntityRef<?>> refs, CallContext context) {
        Set<EntityRef<?>> distinct = new HashSet<>(refs);
        return record(store.planFetch(distinct.size()), context, () -> {
            Map<EntityRef<?>, Object> found = new HashMap<>();
            for (EntityRef<?> ref : distinct) {
                found.put(ref, standIn(ref));
            }
            return new Fetched(found, Set.of());
        });
    }

    @Override
    public CompletableFuture<MovieCollection> readMovie(MovieRead read, CallContext context) {
        return record(store.planMovie(read), context, () -> {
            List<CastPage.Entry> entries = new ArrayList<>();
            if (read.cast() != null) {
                for (int i = 0; i < read.cast().first(); i++) {
                    entries.add(new CastPage.Entry("planned", new CastMember(read.id(), nextActor(), "Planned", null,
                            "Planned", List.of(), i + 1)));
                }
            }
            List<MonthlyStreams> totals = read.totals() == null ? null : months(read.totals()).stream()
                    .map(month -> new MonthlyStreams(read.id(), "Planned", month, 0)).toList();
            return new MovieCollection(movie(read.id()), read.cast() == null ? null : new CastPage(entries, true),
                    totals);
        });
    }

    @Override
    public CompletableFuture<Filmography> readFilmography(FilmographyRead read, CallContext context) {
        return record(store.planFilmography(read), context, () -> {
            List<CastPage.Entry> entries = new ArrayList<>();
            PageRequest page = read.page();
            for (int i = 0; i < page.first(); i++) {
                entries.add(new CastPage.Entry("planned", new CastMember(nextMovie(), read.id(), "Planned", null,
                        "Planned", List.of(), null)));
            }
            return new Filmography(new Actor(read.id(), "Planned", null), new CastPage(entries, true));
        });
    }

    @Override
    public CompletableFuture<List<MonthlyStreams>> topMovies(YearMonth month, int limit, CallContext context) {
        return record(store.planTopMovies(month, limit), context, () -> {
            List<MonthlyStreams> top = new ArrayList<>();
            for (int i = 0; i < limit; i++) {
                top.add(new MonthlyStreams(nextMovie(), "Planned", month, limit - i));
            }
            return top;
        });
    }

    @Override
    public CompletableFuture<Boolean> ping() {
        return CompletableFuture.completedFuture(true);
    }

    @Override
    public List<PlannedCall> planFetch(int distinctKeys) {
        return store.planFetch(distinctKeys);
    }

    @Override
    public List<PlannedCall> planMovie(MovieRead read) {
        return store.planMovie(read);
    }

    @Override
    public List<PlannedCall> planFilmography(FilmographyRead read) {
        return store.planFilmography(read);
    }

    @Override
    public List<PlannedCall> planTopMovies(YearMonth month, int limit) {
        return store.planTopMovies(month, limit);
    }

    @Override
    public List<AccessPattern> accessPatterns() {
        return store.accessPatterns();
    }

    private Object standIn(EntityRef<?> ref) {
        if (ref instanceof MovieRef movie) {
            return movie(movie.id());
        }
        if (ref instanceof ActorRef actor) {
            return new Actor(actor.id(), "Planned", null);
        }
        TotalRef total = (TotalRef) ref;
        return new MonthlyStreams(total.movieId(), "Planned", total.month(), 0);
    }

    private static Movie movie(MovieId id) {
        return new Movie(id, "Planned", null, null, List.of(), null);
    }

    private MovieId nextMovie() {
        return MovieId.of(String.format("tt%08d", 90_000_000 + ids.incrementAndGet()));
    }

    private ActorId nextActor() {
        return ActorId.of(String.format("nm%08d", 90_000_000 + ids.incrementAndGet()));
    }

    private static List<YearMonth> months(MonthRange range) {
        if (range.from() == null || range.to() == null || range.to().isBefore(range.from())) {
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
