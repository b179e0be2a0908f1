package dev.moviegraph.bench;

import dev.moviegraph.Moviegraph;
import dev.moviegraph.bench.capacity.PartitionUsage;
import dev.moviegraph.bench.capacity.UsageClient;
import dev.moviegraph.catalog.CatalogChanges;
import dev.moviegraph.catalog.Movie;
import dev.moviegraph.catalog.MovieId;
import dev.moviegraph.config.AppConfig;
import dev.moviegraph.dynamo.admin.DynamoCatalogImport;
import dev.moviegraph.dynamo.admin.TableAdmin;
import dev.moviegraph.dynamo.client.DynamoClients;
import dev.moviegraph.dynamo.model.TableModel;
import dev.moviegraph.dynamo.streams.ChangeLog;
import dev.moviegraph.dynamo.streams.StreamAggregator;
import dev.moviegraph.local.EmbeddedDynamo;
import dev.moviegraph.metrics.GatewayMetrics;

import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.YearMonth;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsAsyncClient;

/**
 * {@code moviegraph.jar benchmark capacity [options]}: the capacity model. A real server records streams
 * (the {@code recordStream} mutation over HTTP) against the embedded engine with its partition limits on
 * ({@link EmbeddedDynamo#withPartitionLimits()}), which charges every request DynamoDB would to its partitions
 * and refuses past DynamoDB's per-partition limits, and says what it charged over HTTP ({@link UsageClient}).
 * Simulated time: each step's streams are one simulated second of the engine's limits, whatever they take on
 * this machine, so the limits per key, not the machine, decide what throttles. Per step it prints the
 * streams offered, the requests DynamoDB refused, the busiest partition (with {@code [read]} or
 * {@code [write]}: which of its limits), what reading the top 10 cost, and whether the top 10 is exact;
 * then a table.
 */
final class CapacityBench {
    private static final String USAGE = "usage: moviegraph.jar benchmark capacity [--movies N] [--rates R,R,...]"
            + " [--hot-share F] [--totals transactional|stream] [--clients N] [--max-throttles N] [--replicas N] [--windows N]"
            + " [--batch N]"
            + "\n  records streams against the embedded engine with DynamoDB's per-partition limits on, one"
            + "\n  simulated second per rate step; prints one line per step"
            + "\n  --batch: recordStream mutations per HTTP request (aliases of one mutation, run in order; 1 to 50)";
    private static final String MONTH = "2024-05";
    private static final String TOKEN = "capacity-benchmark";
    private static final String TABLE = "moviegraph";
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Where a later layout keeps a month's top list (one item); a failed condition on it is a merge retried. */
    static final String TOP_LIST_PREFIX = "toplist#";

    /**
     * @param replicas gateways with subscribers, each polling the change feed's log 4 times a second
     * @param windows  TOTALS=stream: counting windows a simulated second (stream shards / tumbling window
     *                 seconds: 4 is 120 shards with 30 s windows); each moves the month's best totals once
     * @param batch    recordStream mutations a client sends in one HTTP request, as aliases of one mutation
     *                 (the server runs them one after the other, each the requests it is alone): fewer HTTP
     *                 round trips, the same DynamoDB requests
     */
    record Options(int movies, List<Integer> rates, double hotShare, String totals, int clients, int maxThrottles,
                   int replicas, int windows, int batch) {
        Options withMovies(int value) {
            return new Options(value, rates, hotShare, totals, clients, maxThrottles, replicas, windows, batch);
        }

        Options withRates(List<Integer> value) {
            return new Options(movies, value, hotShare, totals, clients, maxThrottles, replicas, windows, batch);
        }

        Options withHotShare(double value) {
            return new Options(movies, rates, value, totals, clients, maxThrottles, replicas, windows, batch);
        }

        Options withTotals(String value) {
            return new Options(movies, rates, hotShare, value, clients, maxThrottles, replicas, windows, batch);
        }

        Options withClients(int value) {
            return new Options(movies, rates, hotShare, totals, value, maxThrottles, replicas, windows, batch);
        }

        Options withMaxThrottles(int value) {
            return new Options(movies, rates, hotShare, totals, clients, value, replicas, windows, batch);
        }

        Options withReplicas(int value) {
            return new Options(movies, rates, hotShare, totals, clients, maxThrottles, value, windows, batch);
        }

        Options withWindows(int value) {
            return new Options(movies, rates, hotShare, totals, clients, maxThrottles, replicas, value, batch);
        }

        Options withBatch(int value) {
            return new Options(movies, rates, hotShare, totals, clients, maxThrottles, replicas, windows, value);
        }
    }

    /**
     * One step's outcome.
     *
     * @param throttles             requests the engine refused in the step (each SDK attempt is one)
     * @param top10Requests         the requests the engine charged during the step's last top-10 read (a GetItem,
     *                              a Query page, each key of a BatchGetItem)
     * @param top10ReportedRequests the same read's {@code extensions.cost.requests}, as the gateway counted them
     * @param top10Units            the read units the engine charged that read, whatever it read
     * @param topMergeRetries       writes to a month's top list ({@value #TOP_LIST_PREFIX}...) refused by their
     *                              condition in the step, each a merge read and made again, as the engine counts
     *                              them (its Throughput hook is not told of failed conditions yet: 0 until it is)
     */
    record Step(int rate, int sent, long throttles, int refusedStreams, String hottest, double hottestUnits,
                String busiestWrite, double busiestWriteUnits, long top10Requests, long top10ReportedRequests,
                double top10Units, boolean exact, double writeUnits, double readUnits, int liveReads,
                int liveFailures, Feed.Second feed, long topMergeRetries) {
        String line() {
            // The issue's form first (rate, throttles, hottest, top10_requests, top10_units, exact), then the rest.
            return String.format(Locale.ROOT, "rate=%d throttles=%d hottest=%s:%.0f top10_requests=%d top10_units=%.1f"
                            + " exact=%s busiest_write=%s:%.0f"
                            + " write_units_per_stream=%.2f read_units_per_stream=%.2f top10_reads_during=%d failed=%d"
                            + " feed_publishes=%d feed_write_units=%.0f feed_read_units=%.0f top_merge_retries=%d%s",
                    rate, throttles, hottest, hottestUnits, top10Requests, top10Units, exact ? "yes" : "no", busiestWrite,
                    busiestWriteUnits, perStream(writeUnits),
                    perStream(readUnits), liveReads, liveFailures, feed.publishes(), feed.writeUnits(), feed.readUnits(),
                    topMergeRetries, sent < rate ? " (stopped after " + sent + " streams: " + refusedStreams + " refused)" : "");
        }

        /** Units of the whole second (recording, aggregating, raising floors) per stream sent. */
        double perStream(double units) {
            return sent == 0 ? 0 : units / sent;
        }
    }

    private CapacityBench() {
    }

    static void main(String[] args) {
        Options options = parse(args);
        if (options == null) {
            System.err.println(USAGE);
            System.exit(2);
            return;
        }
        try {
            run(options, System.out);
            System.exit(0);
        } catch (Exception e) {
            System.err.println("benchmark capacity failed: " + e);
            System.exit(1);
        }
    }

    static Options parse(String[] args) {
        Options options = new Options(10_000, List.of(100, 1_000, 10_000, 100_000), 0.1, "stream", 64, 50, 10, 4, 25);
        try {
            for (int i = 0; i < args.length; i += 2) {
                String value = args[i + 1];
                options = switch (args[i]) {
                    case "--movies" -> options.withMovies(Integer.parseInt(value));
                    case "--rates" -> options.withRates(Arrays.stream(value.split(","))
                            .map(String::trim).map(Integer::valueOf).toList());
                    case "--hot-share" -> options.withHotShare(Double.parseDouble(value));
                    case "--totals" -> options.withTotals(value.toLowerCase(Locale.ROOT));
                    case "--clients" -> options.withClients(Integer.parseInt(value));
                    case "--max-throttles" -> options.withMaxThrottles(Integer.parseInt(value));
                    case "--replicas" -> options.withReplicas(Integer.parseInt(value));
                    case "--windows" -> options.withWindows(Integer.parseInt(value));
                    case "--batch" -> options.withBatch(Integer.parseInt(value));
                    default -> throw new IllegalArgumentException(args[i]);
                };
            }
        } catch (RuntimeException e) {
            return null;
        }
        boolean valid = options.movies() >= 2 && options.movies() <= 1_000_000 && !options.rates().isEmpty()
                && options.rates().stream().allMatch(rate -> rate > 0 && rate <= 1_000_000)
                && options.hotShare() >= 0 && options.hotShare() < 1 && options.clients() >= 1 && options.clients() <= 512
                && options.maxThrottles() >= 1 && options.replicas() >= 0 && options.replicas() <= 1_000
                && options.windows() >= 1 && options.windows() <= 1_000 && options.batch() >= 1 && options.batch() <= 50
                && List.of("transactional", "stream").contains(options.totals());
        return valid ? options : null;
    }

    /** Runs the steps and prints them; returns them for tests. */
    static List<Step> run(Options options, PrintStream out) throws Exception {
        List<Step> steps = new ArrayList<>();
        try (EmbeddedDynamo dynamo = EmbeddedDynamo.withPartitionLimits();
             Moviegraph server = Moviegraph.start(AppConfig.fromEnvironment(Map.of("PORT", "0",
                     "DYNAMODB_ENDPOINT", dynamo.endpoint().toString(), "CREATE_TABLE", "true", "LOAD_SAMPLE", "false",
                     "TOTALS", options.totals(), "AGGREGATOR", "off", "WRITE_TOKEN", TOKEN,
                     // one process stands for every client: the model measures the table, not a client's share
                     "CLIENT_READ_UNITS_PER_SECOND", "0")), List.of());
             Aggregation aggregation = options.totals().equals("stream")
                     ? Aggregation.start(dynamo.endpoint()) : null;
             Feed feed = new Feed(dynamo.endpoint(), options.replicas())) {
            UsageClient engine = new UsageClient(dynamo.endpoint());
            load(dynamo.endpoint(), options.movies());
            out.printf(Locale.ROOT, "%d movies, TOTALS=%s, hot movie %.0f%% of each step, layout %d (the top list one item"
                    + " a month)%s%n", options.movies(), options.totals(), 100 * options.hotShare(),
                    TableModel.LAYOUT_VERSION, options.totals().equals("stream")
                            ? ", " + options.windows() + " counting windows a second" : "");
            URI base = URI.create("http://127.0.0.1:" + server.port());
            HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            AtomicLongArray counted = new AtomicLongArray(options.movies());
            Random random = new Random(20261125L);
            double[] zipf = zipf(options.movies() - 1);
            int streamNumber = 0;
            for (int i = 0; i < options.rates().size(); i++) {
                int rate = options.rates().get(i);
                engine.startSecond(i + 1);
                PartitionUsage stepStart = engine.usage(0);
                long throttlesBefore = stepStart.refused();
                int[] movies = new int[rate];
                int hot = (int) Math.round(rate * options.hotShare());
                for (int s = 0; s < rate; s++) {
                    movies[s] = s < hot ? 0 : 1 + sample(zipf, random);
                }
                shuffle(movies, random);
                int first = streamNumber;
                streamNumber += rate;
                AtomicInteger next = new AtomicInteger();
                AtomicInteger attempted = new AtomicInteger();
                AtomicInteger refused = new AtomicInteger();
                AtomicBoolean stop = new AtomicBoolean();
                ExecutorService clients = Executors.newFixedThreadPool(options.clients());
                for (int c = 0; c < options.clients(); c++) {
                    clients.submit(() -> {
                        for (int from; !stop.get() && (from = next.getAndAdd(options.batch())) < rate; ) {
                            int to = Math.min(rate, from + options.batch());
                            for (int s = from; s < to && !stop.get(); ) {
                                Recorded recorded = record(http, base, movies, first, s, to - s);
                                for (int k = 0; k < recorded.attempted(); k++) {
                                    if (recorded.counted()[k]) {
                                        counted.incrementAndGet(movies[s + k]);
                                    } else {
                                        refused.incrementAndGet();
                                    }
                                }
                                attempted.addAndGet(recorded.attempted());
                                s += recorded.attempted();
                                // a refused stream: the engine refused requests (asked only then: a call each)
                                if (recorded.attempted() > 0 && !recorded.counted()[recorded.attempted() - 1]
                                        && engine.usage(0).refused() - throttlesBefore >= options.maxThrottles()) {
                                    stop.set(true);
                                }
                            }
                        }
                        return null;
                    });
                }
                clients.shutdown();
                // A widget reading the top 10 while the streams come in: each read must answer in one round.
                int liveReads = 0;
                int liveFailures = 0;
                while (!clients.awaitTermination(1, TimeUnit.SECONDS)) {
                    JsonNode live = post(http, base, "{ topMovies(month: \"" + MONTH + "\", limit: 10) { streams } }");
                    liveReads++;
                    if (!live.path("errors").isMissingNode() || !live.path("data").path("topMovies").isArray()) {
                        liveFailures++;
                    }
                    if (engine.usage(0).refused() - throttlesBefore >= options.maxThrottles()) {
                        stop.set(true); // refusals the streams' own answers did not show (SDK retries that went through)
                    }
                }
                int sent = attempted.get();
                if (aggregation != null) {
                    aggregation.countStep(http, base, counted.get(0), window(rate, options.windows()));
                }
                Feed.Second published = feed.second(rate, movies);
                PartitionUsage second = engine.usage(5);
                PartitionUsage.Partition busiest = second.busiest();
                PartitionUsage.Partition busiestWrite = second.busiestWrite().isEmpty() ? null : second.busiestWrite().get(0);
                long mergeRetries = second.since(stepStart).counts(PartitionUsage.Prefix.of(TABLE, TOP_LIST_PREFIX))
                        .conditionalCheckFailed();
                // One top-10 read alone: what the engine charged during it is what it cost, whatever the layout reads.
                PartitionUsage topBefore = engine.usage(0);
                JsonNode top = post(http, base, "{ topMovies(month: \"" + MONTH + "\", limit: 10) { streams } }");
                PartitionUsage topRead = engine.usage(0).since(topBefore);
                Step step = new Step(rate, sent, second.refused() - throttlesBefore, refused.get(),
                        name(busiest), busiest == null ? 0 : busiest.amount(), name(busiestWrite),
                        busiestWrite == null ? 0 : busiestWrite.amount(), topRead.requests(),
                        top.path("extensions").path("cost").path("requests").asLong(-1), topRead.chargedReadUnits(),
                        exact(top, counted), second.writeUnits(), second.readUnits(), liveReads, liveFailures, published,
                        mergeRetries);
                out.println(step.line());
                if (step.throttles() > 0) {
                    out.println("  refused at: " + second.refusedAt().stream().map(at -> at.name() + "x"
                            + (long) at.amount()).collect(Collectors.joining(", ")));
                }
                steps.add(step);
            }
            engine.startSecond(options.rates().size() + 1); // the check below reads in a second of its own
            out.println(allExact(dynamo.endpoint(), counted));
            out.println();
            out.println("| streams/s offered | throttles | hottest key | its units/s | busiest write key | its units/s"
                    + " | top-10 requests | top-10 read units | exact | write units per stream | read units per stream"
                    + " | feed write / read units | top merge retries |");
            out.println("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
            for (Step step : steps) {
                out.printf(Locale.ROOT, "| %,d | %d | `%s` | %.0f | `%s` | %.0f | %d | %.1f | %s | %.2f | %.2f | %.0f / %.0f | %d |%n",
                        step.rate(), step.throttles(), step.hottest(), step.hottestUnits(), step.busiestWrite(),
                        step.busiestWriteUnits(), step.top10Requests(), step.top10Units(),
                        step.exact() ? "yes" : "no", step.perStream(step.writeUnits()), step.perStream(step.readUnits()),
                        step.feed().writeUnits(), step.feed().readUnits(), step.topMergeRetries());
            }
        }
        return steps;
    }

    /** The aggregator's window for a second of {@code rate} streams counted in {@code windows} windows. */
    static StreamAggregator.Window window(int rate, int windows) {
        return new StreamAggregator.Window(Math.max(1, (rate + windows - 1) / windows), Duration.ofDays(1));
    }

    /** A partition as the benchmark prints it: table or index, key, and which of its limits. */
    private static String name(PartitionUsage.Partition partition) {
        return partition == null ? "-" : partition.name();
    }

    /**
     * Movies written straight to the engine before the first simulated second (charged on the engine's clock,
     * to one partition each, so nothing the steps count).
     */
    private static void load(URI endpoint, int movies) {
        DynamoDbAsyncClient client = DynamoClients.create(endpoint, List.of());
        try {
            DynamoCatalogImport writer = new DynamoCatalogImport(client, "moviegraph", 8);
            List<Movie> batch = new ArrayList<>();
            for (int m = 0; m < movies; m++) {
                batch.add(new Movie(MovieId.of(movieId(m)), "m" + m, 2000, null, List.of(), null));
                if (batch.size() == 1_000 || m == movies - 1) {
                    writer.write(batch);
                    batch.clear();
                }
            }
        } finally {
            client.close();
        }
    }

    /**
     * TOTALS=stream: the stream aggregator, run by the benchmark once per simulated second, its table calls
     * charged by the engine as the server's are. It counts the second in {@code --windows} windows of equal
     * streams: the engine's stream has one open shard at a time, and what the top index pays is one move of each best
     * total per window, so {@code windows} a second stand for as many stream shards' tumbling windows (a
     * deployment with S shards and windows of W seconds closes S / W a second, each over 1 / S of the streams).
     */
    private record Aggregation(DynamoDbAsyncClient client, DynamoDbStreamsAsyncClient streams,
                               StreamAggregator aggregator) implements AutoCloseable {
        static Aggregation start(URI engine) {
            DynamoDbAsyncClient client = DynamoClients.create(engine, List.of());
            DynamoDbStreamsAsyncClient streams = DynamoClients.createStreams(engine);
            String arn = new TableAdmin(client, "moviegraph").ensureStream(false);
            // Floors raised after every batch: a simulated second is minutes here, not the 10 s of production.
            return new Aggregation(client, streams, new StreamAggregator(client, streams, "moviegraph", arn,
                    new GatewayMetrics()));
        }

        /** Counts the step's streams: passes over the stream until the hot movie's are in (ten minutes at most). */
        void countStep(HttpClient http, URI base, long hotCounted, StreamAggregator.Window window) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
            while (System.nanoTime() < deadline) {
                try {
                    aggregator.countOnce(window);
                } catch (RuntimeException throttledOrRaced) {
                    // What the in-process aggregator and Lambda do: count again from the checkpoint. A
                    // refusal is in the engine's; the step then ends inexact if it lasts.
                    Thread.sleep(100);
                    continue;
                }
                JsonNode total = post(http, base, "{ streamTotal(movieId: \"" + movieId(0) + "\", month: \"" + MONTH
                        + "\") { streams } }");
                if (total.path("data").path("streamTotal").path("streams").asLong() >= hotCounted) {
                    aggregator.countOnce(window); // the other movies' records are in the same batches or just after
                    return;
                }
                Thread.sleep(100);
            }
        }

        @Override
        public void close() {
            aggregator.close();
            streams.close();
            client.close();
        }
    }

    /**
     * The change feed at scale (CHANGE_FEED=published): each stream shard's Lambda invocation publishes
     * its batch's changes once a simulated second, and every replica with subscribers polls the log 4
     * times a second, all charged by the engine, so the log's partitions are charged as DynamoDB would.
     * The table is taken to have a stream shard per 1,000 writes a second (a shard per partition).
     */
    private static final class Feed implements AutoCloseable {
        private static final int POLLS_PER_SECOND = 4;
        private final DynamoDbAsyncClient client;
        private final UsageClient engine;
        private final ChangeLog log;
        private final List<ChangeLog.Reader> replicas = new ArrayList<>();

        /** What one simulated second of the feed sent and cost. */
        record Second(int publishes, double writeUnits, double readUnits) {
        }

        Feed(URI endpoint, int replicas) {
            this.client = DynamoClients.create(endpoint, List.of());
            this.engine = new UsageClient(endpoint);
            this.log = new ChangeLog(client, "moviegraph", Clock.systemUTC());
            for (int r = 0; r < replicas; r++) {
                this.replicas.add(log.reader());
            }
        }

        Second second(int rate, int[] movies) {
            PartitionUsage before = engine.usage(0);
            int shards = Math.max(1, (rate + 999) / 1_000);
            List<Set<MovieId>> changed = new ArrayList<>();
            for (int shard = 0; shard < shards; shard++) {
                changed.add(new HashSet<>());
            }
            for (int movie : movies) { // a movie's items are in one partition, so in one shard
                changed.get(Math.floorMod(Integer.hashCode(movie * 31), shards)).add(MovieId.of(movieId(movie)));
            }
            int publishes = 0;
            for (Set<MovieId> shard : changed) {
                if (!shard.isEmpty()) {
                    log.publish(new CatalogChanges(shard, Set.of(YearMonth.parse(MONTH)), false));
                    publishes++;
                }
            }
            for (int poll = 0; poll < POLLS_PER_SECOND; poll++) {
                replicas.forEach(ChangeLog.Reader::poll);
            }
            PartitionUsage spent = engine.usage(0).since(before);
            PartitionUsage.Counts changes = spent.counts(PartitionUsage.Prefix.of(TABLE, "chg#"));
            PartitionUsage.Counts tickets = spent.counts(PartitionUsage.Prefix.of(TABLE, "chgticket#"));
            return new Second(publishes, changes.writeUnits() + tickets.writeUnits(),
                    changes.readUnits() + tickets.readUnits());
        }

        @Override
        public void close() {
            client.close();
        }
    }

    /**
     * Whether every movie's total is the number of its streams the server acknowledged, read straight from
     * the engine (after the steps, in a simulated second of its own): a line saying so, or how many differ.
     */
    private static String allExact(URI local, AtomicLongArray counted) {
        DynamoDbAsyncClient client = DynamoClients.create(local, List.of());
        try {
            int wrong = 0;
            for (int from = 0; from < counted.length(); from += 100) {
                List<Map<String, AttributeValue>> keys = new ArrayList<>();
                for (int m = from; m < Math.min(counted.length(), from + 100); m++) {
                    keys.add(Map.of("pk", AttributeValue.fromS("mov#" + movieId(m)),
                            "sk", AttributeValue.fromS("tot#" + MONTH)));
                }
                Map<String, Long> found = new java.util.HashMap<>();
                List<Map<String, AttributeValue>> unread = keys;
                while (!unread.isEmpty()) {
                    List<Map<String, AttributeValue>> asked = unread;
                    var response = client.batchGetItem(get -> get.requestItems(Map.of("moviegraph",
                            software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes.builder().keys(asked)
                                    .consistentRead(true).build()))).join();
                    response.responses().getOrDefault("moviegraph", List.of()).forEach(item ->
                            found.put(item.get("movieId").s(), Long.parseLong(item.get("streams").n())));
                    unread = response.hasUnprocessedKeys() && response.unprocessedKeys().containsKey("moviegraph")
                            ? response.unprocessedKeys().get("moviegraph").keys() : List.of();
                }
                for (int m = from; m < Math.min(counted.length(), from + 100); m++) {
                    if (found.getOrDefault(movieId(m), 0L) != counted.get(m)) {
                        wrong++;
                    }
                }
            }
            return String.format(Locale.ROOT, "every total exact: %s (%,d movies, %,d totals differ from the streams"
                    + " acknowledged)", wrong == 0 ? "yes" : "no", counted.length(), wrong);
        } finally {
            client.close();
        }
    }

    /** Whether the top 10's totals are the 10 largest numbers of streams counted, in order. */
    private static boolean exact(JsonNode top, AtomicLongArray counted) {
        long[] all = new long[counted.length()];
        for (int i = 0; i < all.length; i++) {
            all[i] = counted.get(i);
        }
        List<Long> expected = Arrays.stream(all).boxed().sorted((a, b) -> Long.compare(b, a)).filter(n -> n > 0)
                .limit(10).toList();
        List<Long> actual = new ArrayList<>();
        top.path("data").path("topMovies").forEach(entry -> actual.add(entry.path("streams").asLong()));
        return expected.equals(actual);
    }

    /**
     * What one request recording streams {@code from}..{@code from + n - 1} came to: how many of them were
     * tried (the first ones), and which of those were counted.
     */
    record Recorded(int attempted, boolean[] counted) {
    }

    /** The mutation recording {@code n} streams, aliases {@code r0}.. of one document (cached by the server). */
    static String recordMutation(int n) {
        StringBuilder variables = new StringBuilder("mutation Record($at: DateTime!");
        StringBuilder fields = new StringBuilder();
        for (int i = 0; i < n; i++) {
            variables.append(", $m").append(i).append(": ID!, $s").append(i).append(": ID!");
            fields.append(" r").append(i).append(": recordStream(input: {movieId: $m").append(i)
                    .append(", streamId: $s").append(i).append(", at: $at}) { counted }");
        }
        return variables.append(") {").append(fields).append(" }").toString();
    }

    /**
     * Sends streams {@code from}..{@code from + n - 1} (stream ids {@code b(first + s)}) in one mutation. The
     * server runs its fields in order, each as it would alone; the first that fails (refused, say) ends the
     * request and, its result being non-null, takes the others' results with it: those before it were
     * counted, those after it were not run and are sent again by the caller, so each stream is sent once.
     */
    static Recorded record(HttpClient http, URI base, int[] movies, int first, int from, int n) {
        com.fasterxml.jackson.databind.node.ObjectNode variables = JSON.createObjectNode()
                .put("at", MONTH + "-15T12:00:00Z");
        for (int i = 0; i < n; i++) {
            variables.put("m" + i, movieId(movies[from + i])).put("s" + i, "b" + (first + from + i));
        }
        JsonNode answer = post(http, base, DOCUMENTS.computeIfAbsent(n, CapacityBench::recordMutation), variables);
        JsonNode data = answer.path("data");
        boolean[] counted = new boolean[n];
        if (data.isObject()) {
            for (int i = 0; i < n; i++) {
                counted[i] = data.path("r" + i).path("counted").asBoolean();
            }
            return new Recorded(n, counted);
        }
        int failed = n;
        for (JsonNode error : answer.path("errors")) {
            String alias = error.path("path").path(0).asText("");
            if (alias.matches("r\\d+")) {
                failed = Math.min(failed, Integer.parseInt(alias.substring(1)));
            }
        }
        if (failed == n) {
            return new Recorded(n, counted); // no field named: the request itself failed, and with it every stream
        }
        java.util.Arrays.fill(counted, 0, failed, true); // ran without an error before the one that failed
        return new Recorded(failed + 1, counted);
    }

    private static final Map<Integer, String> DOCUMENTS = new java.util.concurrent.ConcurrentHashMap<>();

    private static JsonNode post(HttpClient http, URI base, String query) {
        return post(http, base, query, null);
    }

    private static JsonNode post(HttpClient http, URI base, String query, JsonNode variables) {
        try {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(base.resolve("/graphql"))
                    .timeout(Duration.ofSeconds(60))
                    .header("Content-Type", "application/json").header("Authorization", "Bearer " + TOKEN)
                    .POST(HttpRequest.BodyPublishers.ofString(variables == null
                            ? JSON.createObjectNode().put("query", query).toString()
                            : JSON.createObjectNode().put("query", query).set("variables", variables).toString()))
                    .build(), HttpResponse.BodyHandlers.ofString());
            return JSON.readTree(response.body());
        } catch (Exception e) {
            return JSON.createObjectNode();
        }
    }

    private static String movieId(int index) {
        return String.format("tt%08d", index + 1);
    }

    /** The cumulative distribution of a Zipf law (s = 1) over {@code n} movies. */
    private static double[] zipf(int n) {
        double[] cumulative = new double[n];
        double sum = 0;
        for (int k = 1; k <= n; k++) {
            sum += 1.0 / k;
            cumulative[k - 1] = sum;
        }
        for (int k = 0; k < n; k++) {
            cumulative[k] /= sum;
        }
        return cumulative;
    }

    private static int sample(double[] cumulative, Random random) {
        int found = Arrays.binarySearch(cumulative, random.nextDouble());
        return Math.min(cumulative.length - 1, found >= 0 ? found : -found - 1);
    }

    private static void shuffle(int[] values, Random random) {
        for (int i = values.length - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int swap = values[i];
            values[i] = values[j];
            values[j] = swap;
        }
    }
}
