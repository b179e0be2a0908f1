package dev.moviegraph.bench;

import dev.moviegraph.Moviegraph;
import dev.moviegraph.config.AppConfig;

import com.fasterxml.jackson.databind.JsonNode;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpResponse;
import java.time.YearMonth;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;
import java.util.stream.IntStream;

/**
 * {@code moviegraph.jar benchmark [--clients N] [--seconds S] [--warmup S]}: starts the embedded server
 * twice, with DataLoader batching on and off, drives a fixed mix of query shapes over HTTP with N closed-loop
 * clients each, and prints throughput, client latency, DynamoDB requests and read units per GraphQL
 * request and the gateway's own time, per shape and mode. Exits 1 when any request failed.
 * {@code benchmark load [options]} runs {@link LoadRun} instead: all shapes at once on one server;
 * {@code benchmark import [options]} runs {@link ImportBench}: an IMDb import against raw BatchWriteItem.
 */
public final class Benchmark {
    private static final String USAGE = "usage: moviegraph.jar benchmark [--clients N] [--seconds S] [--warmup S]"
            + "\n  N clients (default 8) send requests back to back for S seconds (default 10) per shape and mode,"
            + "\n  after a warm-up of S seconds (default 2) per shape and mode whose results are discarded"
            + "\n       moviegraph.jar benchmark load [--clients N] [--seconds S] [--warmup S]"
            + "\n  a mix of all shapes and some writes on one server (see LoadRun)"
            + "\n       moviegraph.jar benchmark import [--titles N] [--out DIR] [--in-memory]"
            + "\n  an IMDb import of N generated movies against raw BatchWriteItem (see ImportBench)"
            + "\n       moviegraph.jar benchmark capacity [--movies N] [--rates R,R,...] [--totals transactional|stream]"
            + "\n  streams recorded against DynamoDB's per-partition limits, simulated (see CapacityBench)";
    private static final Options DEFAULTS = new Options(8, 10, 2);
    private static final List<String> MOVIES = List.of("tt0111161", "tt0068646", "tt0133093");
    private static final List<String> PEOPLE = List.of("nm0000209", "nm0000151");
    private static final String CAST = "cast(first: 10) { edges { node { characters person { name%s } } } }";

    record Options(int clients, int seconds, int warmup) {
    }

    record Shape(String name, String query, Function<Integer, Map<String, Object>> variables) {
    }

    record Sample(long nanos, int requests, double readUnits, double gatewayMs, boolean error) {
    }

    record Result(String shape, double rps, double p50, double p95, double p99, double requests, double readUnits,
                  double gatewayP50, double gatewayP99, long errors) {
    }

    record Mode(String name, List<Result> results, double cacheHitRate) {
    }

    private final Options options;
    private final GraphQLHttp http = new GraphQLHttp();

    private Benchmark(Options options) {
        this.options = options;
    }

    public static void main(String[] args) {
        if (args.length > 0 && args[0].equals("load")) {
            LoadRun.main(Arrays.copyOfRange(args, 1, args.length));
            return;
        }
        if (args.length > 0 && args[0].equals("import")) {
            ImportBench.main(Arrays.copyOfRange(args, 1, args.length));
            return;
        }
        if (args.length > 0 && args[0].equals("capacity")) {
            CapacityBench.main(Arrays.copyOfRange(args, 1, args.length));
            return;
        }
        exit(args, DEFAULTS, USAGE, options -> new Benchmark(options).run());
    }

    /** A benchmark command: runs with its options and returns the exit status. */
    interface Command {
        int run(Options options) throws Exception;
    }

    /** Parses the options (2 with the usage when they are wrong), runs the command and exits with its status. */
    static void exit(String[] args, Options defaults, String usage, Command command) {
        Options options = parse(args, defaults);
        if (options == null) {
            System.err.println(usage);
            System.exit(2);
            return;
        }
        int status;
        try {
            status = command.run(options);
        } catch (Exception e) {
            e.printStackTrace();
            status = 1;
        }
        System.exit(status);
    }

    /**
     * The options, {@code defaults} where not given, or null when an argument is unknown, lacks its value
     * or is out of range (warm-up may be 0).
     */
    static Options parse(String[] args, Options defaults) {
        int clients = defaults.clients();
        int seconds = defaults.seconds();
        int warmup = defaults.warmup();
        for (int i = 0; i < args.length; i += 2) {
            if (i + 1 >= args.length) {
                return null;
            }
            int value;
            try {
                value = Integer.parseInt(args[i + 1]);
            } catch (NumberFormatException e) {
                return null;
            }
            if (value < 0 || value == 0 && !args[i].equals("--warmup")) {
                return null;
            }
            switch (args[i]) {
                case "--clients" -> clients = value;
                case "--seconds" -> seconds = value;
                case "--warmup" -> warmup = value;
                default -> {
                    return null;
                }
            }
        }
        return new Options(clients, seconds, warmup);
    }

    private int run() throws Exception {
        List<Mode> modes = measure();
        System.out.printf("%n%s%n", machine());
        System.out.printf("parameters: %d clients, %d s measured per shape and mode, after %d s of warm-up per shape "
                + "and mode%n", options.clients(), options.seconds(), options.warmup());
        long errors = 0;
        for (Mode mode : modes) {
            printMode(mode);
            errors += mode.results().stream().mapToLong(Result::errors).sum();
        }
        printComparison(modes.get(0), modes.get(1));
        if (errors > 0) {
            System.out.printf("%n%d requests failed%n", errors);
            return 1;
        }
        return 0;
    }

    static String machine() {
        Runtime runtime = Runtime.getRuntime();
        return String.format("machine: %d processors, %s %s, Java %s, max heap %d MiB", runtime.availableProcessors(),
                System.getProperty("os.name"), System.getProperty("os.arch"), System.getProperty("java.version"),
                runtime.maxMemory() / (1024 * 1024));
    }

    /**
     * Both servers run in this JVM, batching on and off. Whatever runs first pays for the JIT of the
     * shared code (gateway and engine alike), so every shape is warmed up on both before anything
     * is measured, and then each shape is measured on one server after the other, never at once: they
     * would share the CPU and skew each other.
     */
    private List<Mode> measure() throws Exception {
        System.err.println("== starting the embedded servers, batching on and off");
        try (Moviegraph on = Moviegraph.start(AppConfig.defaults().withPort(0).withBatching(true), List.of());
             Moviegraph off = Moviegraph.start(AppConfig.defaults().withPort(0).withBatching(false), List.of())) {
            List<URI> bases = List.of(URI.create("http://127.0.0.1:" + on.port()),
                    URI.create("http://127.0.0.1:" + off.port()));
            List<Shape> shapes = shapes(http.twentyMovieIds(bases.get(0)));
            for (Shape shape : shapes) {
                for (URI base : bases) {
                    System.err.printf("== warming up %s on %s%n", shape.name(), base);
                    drive(base, shape, options.warmup());
                }
            }
            List<List<Result>> results = List.of(new ArrayList<>(), new ArrayList<>());
            for (Shape shape : shapes) {
                for (int mode = 0; mode < bases.size(); mode++) {
                    System.err.printf("== measuring %s, batching %s%n", shape.name(), mode == 0 ? "on" : "off");
                    long start = System.nanoTime();
                    List<Sample> samples = drive(bases.get(mode), shape, options.seconds());
                    results.get(mode).add(summarize(shape.name(), samples, System.nanoTime() - start));
                }
            }
            return List.of(new Mode("batching on", results.get(0), documentCacheHitRate(bases.get(0))),
                    new Mode("batching off (BATCHING=off)", results.get(1), documentCacheHitRate(bases.get(1))));
        }
    }

    /** The query shapes, in the order they are reported; {@link LoadRun} mixes the same ones. */
    static List<Shape> shapes(List<String> twentyIds) {
        Function<Integer, Map<String, Object>> movie = i -> Map.of("id", MOVIES.get(i % MOVIES.size()));
        Function<Integer, Map<String, Object>> person = i -> Map.of("id", PEOPLE.get(i % PEOPLE.size()));
        Function<Integer, Map<String, Object>> month = i -> Map.of("month", YearMonth.of(2024, 1 + i % 12).toString());
        return List.of(
                new Shape("movie", "query Movie($id: ID!) { movie(id: $id) { title year } }", movie),
                new Shape("movieWithCast", "query MovieWithCast($id: ID!) { movie(id: $id) { title "
                        + CAST.formatted("") + " } }", movie),
                new Shape("castBirthYears", "query CastBirthYears($id: ID!) { movie(id: $id) { title "
                        + CAST.formatted(" birthYear") + " } }", movie),
                new Shape("filmography", "query Filmography($id: ID!) { person(id: $id) { name movies(first: 10) "
                        + "{ edges { node { movie { title year } } } } } }", person),
                new Shape("topMovies", "query TopMovies { topMovies(month: \"2024-05\", limit: 10) "
                        + "{ streams movie { title } } }", i -> Map.of()),
                new Shape("top10WithGenres", "query Top10WithGenres($month: YearMonth!) { topMovies(month: $month, "
                        + "limit: 10) { streams movie { title genres } } }", month),
                new Shape("castWithFilmographies", "query CastWithFilmographies($id: ID!) { movie(id: $id) { title "
                        + "cast(first: 10) { edges { node { person { name movies(first: 5) "
                        + "{ edges { node { movie { title } } } } } } } } } }", movie),
                // One fixed set of ids: the point is twenty movies in one request, not which twenty.
                new Shape("twentyMoviesWithCasts", "query TwentyMoviesWithCasts($ids: [ID!]!) { movies(ids: $ids) "
                        + "{ title cast(first: 5) { edges { node { person { name } } } } } }", i -> Map.of("ids", twentyIds)));
    }

    /** N clients, each sending the next request as soon as the last one is answered, until the time is up. */
    private List<Sample> drive(URI base, Shape shape, int seconds) throws Exception {
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        int clients = options.clients();
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        try {
            List<Future<List<Sample>>> futures = new ArrayList<>();
            for (int c = 0; c < clients; c++) {
                int client = c;
                futures.add(pool.submit(() -> {
                    List<Sample> samples = new ArrayList<>();
                    // Interleaved sequence numbers: every client walks the ids, none stays on one hot key.
                    for (int i = 0; System.nanoTime() < deadline; i++) {
                        samples.add(send(base, shape, client + i * clients));
                    }
                    return samples;
                }));
            }
            List<Sample> all = new ArrayList<>();
            for (Future<List<Sample>> future : futures) {
                all.addAll(future.get());
            }
            return all;
        } finally {
            pool.shutdownNow();
        }
    }

    private Sample send(URI base, Shape shape, int sequence) {
        long start = System.nanoTime();
        try {
            HttpResponse<String> response = http.post(base, shape.query(), shape.variables().apply(sequence), true);
            long nanos = System.nanoTime() - start;
            JsonNode body = http.json().readTree(response.body());
            JsonNode cost = body.path("extensions").path("cost");
            boolean error = response.statusCode() != 200 || body.has("errors") || cost.isMissingNode();
            return new Sample(nanos, cost.path("requests").asInt(), cost.path("readUnits").asDouble(),
                    body.path("extensions").path("trace").path("gatewayMs").asDouble(), error);
        } catch (IOException e) {
            return new Sample(System.nanoTime() - start, 0, 0, 0, true);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Sample(System.nanoTime() - start, 0, 0, 0, true);
        }
    }

    /** hits / (hits + misses) of the parsed-document cache, over the server's whole life. */
    private double documentCacheHitRate(URI base) throws IOException, InterruptedException {
        String text = http.get(base.resolve("/metrics"));
        double hits = 0;
        double misses = 0;
        for (String line : text.split("\n")) {
            if (line.startsWith("cache_gets_total{") && line.contains("cache=\"graphql.documents\"")) {
                double value = Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
                if (line.contains("result=\"hit\"")) {
                    hits += value;
                } else if (line.contains("result=\"miss\"")) {
                    misses += value;
                }
            }
        }
        return hits + misses == 0 ? Double.NaN : hits / (hits + misses);
    }

    static Result summarize(String shape, List<Sample> samples, long elapsedNanos) {
        long[] latencies = samples.stream().mapToLong(Sample::nanos).sorted().toArray();
        double[] gateway = samples.stream().mapToDouble(Sample::gatewayMs).sorted().toArray();
        return new Result(shape, samples.size() / (elapsedNanos / 1e9),
                percentile(latencies, 50) / 1e6, percentile(latencies, 95) / 1e6, percentile(latencies, 99) / 1e6,
                mean(samples, Sample::requests), mean(samples, Sample::readUnits),
                percentile(gateway, 50), percentile(gateway, 99), samples.stream().filter(Sample::error).count());
    }

    /** Nearest rank: the smallest value with at least p% of the values at or below it. */
    static double percentile(long[] sorted, double p) {
        return sorted.length == 0 ? Double.NaN : sorted[rank(sorted.length, p)];
    }

    static double percentile(double[] sorted, double p) {
        return sorted.length == 0 ? Double.NaN : sorted[rank(sorted.length, p)];
    }

    private static int rank(int n, double p) {
        return Math.max(0, (int) Math.ceil(p / 100 * n) - 1);
    }

    private static double mean(List<Sample> samples, ToDoubleFunction<Sample> value) {
        return samples.stream().mapToDouble(value).average().orElse(Double.NaN);
    }

    private static void printMode(Mode mode) {
        System.out.printf("%n%s (document cache hit rate %.2f%%)%n", mode.name(), mode.cacheHitRate() * 100);
        String header = String.format("%-22s %9s %8s %8s %8s %9s %9s %8s %8s %7s", "shape", "req/s", "p50 ms",
                "p95 ms", "p99 ms", "ddb req", "read RCU", "gw p50", "gw p99", "errors");
        System.out.println(header);
        System.out.println("-".repeat(header.length()));
        for (Result r : mode.results()) {
            System.out.printf("%-22s %9.1f %8.2f %8.2f %8.2f %9.2f %9.2f %8.2f %8.2f %7d%n", r.shape(), r.rps(),
                    r.p50(), r.p95(), r.p99(), r.requests(), r.readUnits(), r.gatewayP50(), r.gatewayP99(), r.errors());
        }
    }

    private static void printComparison(Mode on, Mode off) {
        System.out.printf("%ncomparison (ddb req = DynamoDB requests per GraphQL request)%n");
        String header = String.format("%-22s %10s %11s %8s %9s %9s %9s %9s", "shape", "ddb req on", "ddb req off",
                "off/on", "rps on", "rps off", "p50 on", "p50 off");
        System.out.println(header);
        System.out.println("-".repeat(header.length()));
        IntStream.range(0, on.results().size()).forEach(i -> {
            Result a = on.results().get(i);
            Result b = off.results().get(i);
            String ratio = a.requests() > 0 ? String.format("%.1fx", b.requests() / a.requests()) : "n/a";
            System.out.printf("%-22s %10.2f %11.2f %8s %9.1f %9.1f %9.2f %9.2f%n", a.shape(), a.requests(),
                    b.requests(), ratio, a.rps(), b.rps(), a.p50(), b.p50());
        });
    }
}
