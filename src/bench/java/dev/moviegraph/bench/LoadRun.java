package dev.moviegraph.bench;

import dev.moviegraph.Moviegraph;
import dev.moviegraph.bench.Benchmark.Options;
import dev.moviegraph.bench.Benchmark.Shape;
import dev.moviegraph.config.AppConfig;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;

import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.YearMonth;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/**
 * {@code moviegraph.jar benchmark load [--clients N] [--seconds S] [--warmup S]}: one embedded server
 * (default configuration, batching on) driven over loopback HTTP by N closed-loop clients at once with a
 * weighted mix of {@link Benchmark}'s query shapes and a small share of writes, for S seconds after a
 * warm-up. Prints throughput, latency percentiles and DynamoDB requests per GraphQL request, per shape and
 * overall, every error, and the heap after GC before and after the measured run. Exits 1 when any request
 * of the measured run failed or the heap grew by more than {@value #HEAP_GROWTH_PERCENT}%; errors in the
 * warm-up (clients join one by one over its first half) are listed and warned about.
 *
 * <p>The heap is the whole JVM's: clients, gateway and the embedded engine, whose tables are in this heap
 * too: each write adds an item there (a stream item, a few hundred bytes), so part of any growth is the
 * data written, not a leak; the run reports how many items it wrote and the process's resident memory
 * beside the heap. (Runs before the engine used DynamoDB Local, whose SQLite data was outside the heap.)
 */
public final class LoadRun {
    private static final String USAGE = "usage: moviegraph.jar benchmark load [--clients N] [--seconds S] [--warmup S]"
            + "\n  N clients (default 64) send a mix of requests back to back for S seconds (default 60) to one"
            + "\n  server, after a warm-up of S seconds (default 10, clients joining over its first half) whose"
            + "\n  latencies are discarded";
    private static final Options DEFAULTS = new Options(64, 60, 10);
    static final int HEAP_GROWTH_PERCENT = 20;
    private static final String RECORD_STREAM = "recordStream";
    /**
     * Shares of the mix in percent, by shape name. Reads dominate; the writes record streams with ids never
     * used before, so each one adds a stream item and updates a monthly total.
     */
    private static final Map<String, Integer> WEIGHTS = weights();
    /** The writes go to months the sample (2023 and 2024) and the tests do not use: read shapes see no change. */
    private static final int WRITE_YEAR = 2022;
    /** Clients start at different places of the schedule, this far apart. */
    private static final int STRIDE = 37;
    private static final int ERRORS_SHOWN = 10;

    /** What one client saw, per shape; only its own thread writes it, so recording takes no lock. */
    static final class Recorder {
        final LatencyHistogram[] latencies;
        final long[] dynamoRequests;
        /** Per shape, failed requests by kind: "HTTP 503", "GraphQL UNAVAILABLE", "timeout" and so on. */
        final List<Map<String, Long>> failures;

        Recorder(int shapes) {
            latencies = Stream.generate(LatencyHistogram::new).limit(shapes).toArray(LatencyHistogram[]::new);
            dynamoRequests = new long[shapes];
            failures = Stream.<Map<String, Long>>generate(TreeMap::new).limit(shapes).toList();
        }

        void reset() {
            for (int shape = 0; shape < latencies.length; shape++) {
                latencies[shape].reset();
                dynamoRequests[shape] = 0;
                failures.get(shape).clear();
            }
        }

        void add(Recorder other) {
            for (int shape = 0; shape < latencies.length; shape++) {
                latencies[shape].add(other.latencies[shape]);
                dynamoRequests[shape] += other.dynamoRequests[shape];
                Map<String, Long> mine = failures.get(shape);
                other.failures.get(shape).forEach((kind, count) -> mine.merge(kind, count, Long::sum));
            }
        }

        long failures(int shape) {
            return failures.get(shape).values().stream().mapToLong(Long::longValue).sum();
        }
    }

    private final Options options;
    private final GraphQLHttp http = new GraphQLHttp();
    private final AtomicLong streamIds = new AtomicLong();
    private final List<String> errorsShown = Collections.synchronizedList(new ArrayList<>());
    private volatile String phase = "warm-up";

    private LoadRun(Options options) {
        this.options = options;
    }

    public static void main(String[] args) {
        Benchmark.exit(args, DEFAULTS, USAGE, options -> new LoadRun(options).run());
    }

    private static Map<String, Integer> weights() {
        Map<String, Integer> weights = new LinkedHashMap<>();
        weights.put("movie", 24);
        weights.put("movieWithCast", 14);
        weights.put("castBirthYears", 10);
        weights.put("filmography", 12);
        weights.put("topMovies", 12);
        weights.put("top10WithGenres", 10);
        weights.put("castWithFilmographies", 10);
        weights.put("twentyMoviesWithCasts", 3);
        weights.put(RECORD_STREAM, 5);
        return Collections.unmodifiableMap(weights);
    }

    /** Benchmark's shapes and the write, in the order of {@link #WEIGHTS}. */
    private List<Shape> shapes(List<String> twentyIds) {
        Map<String, Shape> byName = new LinkedHashMap<>();
        Benchmark.shapes(twentyIds).forEach(shape -> byName.put(shape.name(), shape));
        byName.put(RECORD_STREAM, new Shape(RECORD_STREAM, "mutation RecordStream($movie: ID!, $stream: ID!, "
                + "$at: DateTime!) { recordStream(input: {movieId: $movie, streamId: $stream, at: $at}) { counted } }",
                i -> Map.of("movie", twentyIds.get(i % twentyIds.size()),
                        "stream", "load-" + streamIds.incrementAndGet(),
                        "at", YearMonth.of(WRITE_YEAR, 1 + i / twentyIds.size() % 12).atDay(1 + i % 28) + "T12:00:00Z")));
        if (!byName.keySet().equals(WEIGHTS.keySet())) {
            throw new IllegalStateException("the mix " + WEIGHTS.keySet() + " and the shapes " + byName.keySet()
                    + " differ");
        }
        return List.copyOf(byName.values());
    }

    /** Shape indexes, each as many times as its weight, in an order that spreads every shape out. */
    static int[] schedule(List<Integer> weights) {
        int total = weights.stream().mapToInt(Integer::intValue).sum();
        int[] schedule = new int[total];
        double[] next = new double[weights.size()];
        int[] left = new int[weights.size()];
        for (int shape = 0; shape < weights.size(); shape++) {
            left[shape] = weights.get(shape);
            next[shape] = (double) total / weights.get(shape) / 2;
        }
        for (int slot = 0; slot < total; slot++) {
            int pick = -1;
            for (int shape = 0; shape < weights.size(); shape++) {
                if (left[shape] > 0 && (pick < 0 || next[shape] < next[pick])) {
                    pick = shape;
                }
            }
            schedule[slot] = pick;
            left[pick]--;
            next[pick] += (double) total / weights.get(pick);
        }
        return schedule;
    }

    private int run() throws Exception {
        System.err.println("== starting the embedded server (default configuration, batching on)");
        try (Moviegraph server = Moviegraph.start(AppConfig.defaults().withPort(0), List.of())) {
            URI base = URI.create("http://127.0.0.1:" + server.port());
            List<Shape> shapes = shapes(http.twentyMovieIds(base));
            int[] schedule = schedule(List.copyOf(WEIGHTS.values()));
            // Allocated once, before the heap is first measured, and reset after the warm-up.
            Recorder[] recorders = Stream.generate(() -> new Recorder(shapes.size())).limit(options.clients())
                    .toArray(Recorder[]::new);

            System.err.printf("== warming up for %d s with %d clients%n", options.warmup(), options.clients());
            // A cold server (JIT, caches, the engine's first requests) hit by every client at once answers
            // its first requests in seconds: the clients join over the first half of the warm-up instead.
            drive(base, shapes, schedule, recorders, options.warmup(), options.warmup() / 2.0);
            Recorder warmup = merge(recorders, shapes.size());
            long warmupWrites = writes(warmup, shapes);
            for (Recorder recorder : recorders) {
                recorder.reset();
            }

            System.err.println("== heap after GC, before the measured run");
            long heapStart = heapAfterGc();
            long rssStart = residentBytes();
            int threadsStart = ManagementFactory.getThreadMXBean().getThreadCount();
            Map<String, long[]> gcBefore = collections();
            phase = "measured";
            System.err.printf("== measuring for %d s with %d clients%n", options.seconds(), options.clients());
            long start = System.nanoTime();
            drive(base, shapes, schedule, recorders, options.seconds(), 0);
            long elapsed = System.nanoTime() - start;
            Map<String, long[]> gcAfter = collections();
            System.err.println("== heap after GC, after the measured run");
            long heapEnd = heapAfterGc();
            long rssEnd = residentBytes();
            int threadsEnd = ManagementFactory.getThreadMXBean().getThreadCount();

            Recorder measured = merge(recorders, shapes.size());
            System.out.printf("%n%s%n", Benchmark.machine());
            System.out.printf("load run: %d clients, %d s measured after %d s of warm-up, one embedded server "
                    + "(batching on), loopback HTTP%n", options.clients(), options.seconds(), options.warmup());
            long errors = printTable(shapes, measured, elapsed);
            long warmupErrors = IntStream.range(0, shapes.size()).mapToLong(warmup::failures).sum();
            printErrors(shapes, warmup, measured);
            long writes = writes(measured, shapes);
            System.out.printf("%nwrites: %d streams recorded in the measured run, %d with the warm-up's (each a new "
                    + "stream item and +1 on one of 20 movies x 12 monthly totals of %d)%n", writes,
                    writes + warmupWrites, WRITE_YEAR);
            printGc(gcBefore, gcAfter);
            double growth = 100.0 * (heapEnd - heapStart) / heapStart;
            boolean heapOk = growth <= HEAP_GROWTH_PERCENT;
            System.out.printf("heap used after GC: start %.1f MiB, end %.1f MiB, growth %+.1f%% (bound +%d%%): %s%n",
                    mib(heapStart), mib(heapEnd), growth, HEAP_GROWTH_PERCENT, heapOk ? "PASS" : "FAIL");
            if (rssStart > 0 && rssEnd > 0) {
                System.out.printf("process resident memory (heap, the engine's tables in it, and the rest): start %.1f "
                        + "MiB, end %.1f MiB%n", mib(rssStart), mib(rssEnd));
            }
            System.out.printf("live threads: start %d, end %d%n", threadsStart, threadsEnd);
            boolean pass = errors == 0 && heapOk;
            System.out.printf("%nresult: %s (%d errors in the measured run, heap %s)%n", pass ? "PASS" : "FAIL",
                    errors, heapOk ? "within the bound" : "over the bound");
            if (warmupErrors > 0) {
                System.out.printf("warning: %d errors in the warm-up (listed above), not part of the result%n",
                        warmupErrors);
            }
            return pass ? 0 : 1;
        }
    }

    /**
     * N clients, each sending the next request of the schedule as soon as the last one is answered; they
     * join one after the other, evenly over the first {@code rampSeconds}.
     */
    private void drive(URI base, List<Shape> shapes, int[] schedule, Recorder[] recorders, int seconds,
                       double rampSeconds) throws Exception {
        long start = System.nanoTime();
        long deadline = start + seconds * 1_000_000_000L;
        int clients = recorders.length;
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int c = 0; c < clients; c++) {
                int client = c;
                long joins = start + (long) (rampSeconds * 1e9 * client / clients);
                futures.add(pool.submit(() -> {
                    long wait = joins - System.nanoTime();
                    if (wait > 0) {
                        Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
                    }
                    for (int i = 0; System.nanoTime() < deadline; i++) {
                        int shape = schedule[(client * STRIDE + i) % schedule.length];
                        send(base, shapes.get(shape), client + i * clients, recorders[client], shape);
                    }
                    return null;
                }));
            }
            for (Future<?> future : futures) {
                future.get();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private void send(URI base, Shape shape, int sequence, Recorder recorder, int index) {
        long start = System.nanoTime();
        long answered = 0;
        String failure = null;
        String detail = null;
        try {
            HttpResponse<String> response = http.post(base, shape.query(), shape.variables().apply(sequence), false);
            answered = System.nanoTime();
            JsonNode body = http.json().readTree(response.body());
            JsonNode cost = body.path("extensions").path("cost");
            recorder.dynamoRequests[index] += cost.path("requests").asLong();
            if (response.statusCode() != 200) {
                failure = "HTTP " + response.statusCode();
                detail = response.body();
            } else if (body.has("errors")) {
                failure = "GraphQL " + body.path("errors").path(0).path("extensions").path("code").asText("error");
                detail = body.path("errors").toString();
            } else if (!complete(body.path("data")) || cost.isMissingNode()) {
                failure = "unexpected body";
                detail = response.body();
            }
        } catch (JsonProcessingException e) {
            failure = "unexpected body";
            detail = e.getOriginalMessage();
        } catch (HttpTimeoutException e) {
            failure = "client timeout";
            detail = e.toString();
        } catch (IOException e) {
            failure = "I/O " + e.getClass().getSimpleName();
            detail = e.toString();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            failure = "interrupted";
            detail = e.toString();
        }
        recorder.latencies[index].record(((answered != 0 ? answered : System.nanoTime()) - start) / 1_000);
        if (failure != null) {
            recorder.failures.get(index).merge(failure, 1L, Long::sum);
            if (errorsShown.size() < ERRORS_SHOWN) {
                errorsShown.add(phase + ", " + shape.name() + ": " + failure + ": "
                        + (detail.length() > 300 ? detail.substring(0, 300) + "..." : detail));
            }
        }
    }

    /** Every root field answered (none null) and a write counted: with a new stream id it always is. */
    static boolean complete(JsonNode data) {
        if (!data.isObject() || data.isEmpty()) {
            return false;
        }
        for (JsonNode field : data) {
            if (field.isNull()) {
                return false;
            }
        }
        return !data.has(RECORD_STREAM) || data.path(RECORD_STREAM).path("counted").asBoolean();
    }

    private static Recorder merge(Recorder[] recorders, int shapes) {
        Recorder all = new Recorder(shapes);
        for (Recorder recorder : recorders) {
            all.add(recorder);
        }
        return all;
    }

    private static long writes(Recorder recorder, List<Shape> shapes) {
        for (int shape = 0; shape < shapes.size(); shape++) {
            if (shapes.get(shape).name().equals(RECORD_STREAM)) {
                return recorder.latencies[shape].count() - recorder.failures(shape);
            }
        }
        return 0;
    }

    /** The table, per shape and overall; returns the number of failed requests. */
    private static long printTable(List<Shape> shapes, Recorder measured, long elapsedNanos) {
        double seconds = elapsedNanos / 1e9;
        String header = String.format("%-22s %6s %9s %8s %8s %8s %8s %9s %8s %7s", "shape", "share", "requests",
                "req/s", "p50 ms", "p95 ms", "p99 ms", "max ms", "ddb req", "errors");
        System.out.printf("%n%s%n%s%n", header, "-".repeat(header.length()));
        LatencyHistogram all = new LatencyHistogram();
        long dynamo = 0;
        long errors = 0;
        for (int shape = 0; shape < shapes.size(); shape++) {
            LatencyHistogram latency = measured.latencies[shape];
            all.add(latency);
            dynamo += measured.dynamoRequests[shape];
            errors += measured.failures(shape);
            printRow(shapes.get(shape).name(), WEIGHTS.get(shapes.get(shape).name()) + "%", latency,
                    measured.dynamoRequests[shape], measured.failures(shape), seconds);
        }
        System.out.println("-".repeat(header.length()));
        printRow("all", "100%", all, dynamo, errors, seconds);
        return errors;
    }

    private static void printRow(String name, String share, LatencyHistogram latency, long dynamo, long errors,
                                 double seconds) {
        System.out.printf("%-22s %6s %9d %8.1f %8.2f %8.2f %8.2f %9.2f %8.2f %7d%n", name, share, latency.count(),
                latency.count() / seconds, ms(latency.percentile(50)), ms(latency.percentile(95)),
                ms(latency.percentile(99)), ms(latency.max()), (double) dynamo / latency.count(), errors);
    }

    /** The errors of both phases by shape and kind, and the first few of all. */
    private void printErrors(List<Shape> shapes, Recorder warmup, Recorder measured) {
        System.out.println();
        for (int shape = 0; shape < shapes.size(); shape++) {
            String name = shapes.get(shape).name();
            warmup.failures.get(shape).forEach((kind, count) -> System.out.printf("errors in the warm-up: %s, %s: %d%n",
                    name, kind, count));
            measured.failures.get(shape).forEach((kind, count) -> System.out.printf("errors: %s, %s: %d%n", name,
                    kind, count));
        }
        synchronized (errorsShown) {
            if (!errorsShown.isEmpty()) {
                System.out.println("the first errors:");
                errorsShown.forEach(error -> System.out.println("  " + error));
            }
        }
    }

    /** Collections and milliseconds of every collector, by name. */
    private static Map<String, long[]> collections() {
        Map<String, long[]> counts = new LinkedHashMap<>();
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            counts.put(gc.getName(), new long[] {gc.getCollectionCount(), gc.getCollectionTime()});
        }
        return counts;
    }

    private static void printGc(Map<String, long[]> before, Map<String, long[]> after) {
        List<String> parts = new ArrayList<>();
        after.forEach((name, counts) -> {
            long[] was = before.getOrDefault(name, new long[2]);
            parts.add(String.format("%s %d (%d ms)", name, counts[0] - was[0], counts[1] - was[1]));
        });
        System.out.println("GC during the measured run: " + String.join(", ", parts));
    }

    /**
     * Heap in use right after a full collection, the least of three a little apart: the server is idle, so
     * what is left is what it keeps. Clients stopped, connections kept alive, the same at start and end.
     */
    private static long heapAfterGc() throws InterruptedException {
        long least = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            System.gc();
            least = Math.min(least, ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
            Thread.sleep(500);
        }
        return least;
    }

    /** VmRSS of this process, or -1 where /proc is not there. */
    private static long residentBytes() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
                }
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        return -1;
    }

    private static double ms(long micros) {
        return micros / 1000.0;
    }

    private static double mib(long bytes) {
        return bytes / (1024.0 * 1024.0);
    }
}
