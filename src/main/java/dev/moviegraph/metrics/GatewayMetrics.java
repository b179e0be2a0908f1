package dev.moviegraph.metrics;

import dev.moviegraph.catalog.CallObserver;
import dev.moviegraph.catalog.StoreCall;

import com.github.benmanes.caffeine.cache.Cache;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.cache.CaffeineCacheMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * The gateway's metrics, served at /metrics in Prometheus text format: GraphQL requests by operation
 * name and outcome with a latency histogram, DynamoDB calls and requests by operation and index, the
 * read and write units DynamoDB reported, DataLoader batch sizes and the document cache.
 *
 * <p>Operation names come from clients, so at most {@value #MAX_OPERATION_NAMES} distinct ones get a
 * series of their own; the rest count as "other", which keeps a hostile client from growing memory.
 */
public final class GatewayMetrics implements CallObserver {
    static final int MAX_OPERATION_NAMES = 100;
    private static final Pattern NAME = Pattern.compile("[_A-Za-z][_0-9A-Za-z]{0,63}");

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final Set<String> operationNames = ConcurrentHashMap.newKeySet();
    // The meters of each series, looked up by their tags: a builder per event costs a Meter.Id, sorted
    // tags and the registry's lookup on every DynamoDB call (about 2% of a request's CPU, profiled).
    private final Map<RequestSeries, Timer> requestTimers = new ConcurrentHashMap<>();
    private final Map<CallSeries, CallMeters> callMeters = new ConcurrentHashMap<>();
    private final Map<String, DistributionSummary> batchSizes = new ConcurrentHashMap<>();
    /** Registered at once, so /metrics shows the 0 it should stay at. */
    private final Counter planningFailures = Counter.builder("moviegraph.planning.failures")
            .description("Fields planning runs failed at for no reason of the query's (their estimates may be low)")
            .register(registry);
    /** Charged once per request when client budgets are on: built once, not looked up per request. */
    private final Counter clientCharged = Counter.builder("moviegraph.client.charged.read.units")
            .description("Read units charged to clients' per-second budgets")
            .register(registry);

    /** One GraphQL request, from the moment it was parsed from HTTP to its result. */
    public void request(String operationName, Outcome outcome, long nanos) {
        requestTimers.computeIfAbsent(new RequestSeries(bounded(operationName), outcome), series ->
                Timer.builder("moviegraph.graphql.requests")
                        .description("GraphQL requests by operation name and outcome")
                        .tag("operation", series.operation())
                        .tag("outcome", series.outcome().label)
                        .publishPercentileHistogram()
                        .minimumExpectedValue(Duration.ofMillis(1))
                        .maximumExpectedValue(Duration.ofSeconds(10))
                        .register(registry))
                .record(nanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void completed(StoreCall call) {
        CallMeters meters = callMeters.computeIfAbsent(new CallSeries(call.operation(), call.index()), this::callMeters);
        (call.failed() ? meters.failed() : meters.ok()).increment();
        meters.requests().increment(call.requests());
        meters.readUnits().increment(call.readUnits());
        meters.writeUnits().increment(call.writeUnits());
    }

    private CallMeters callMeters(CallSeries series) {
        return new CallMeters(calls(series, "ok"), calls(series, "failed"),
                series.counter("moviegraph.dynamodb.requests", "HTTP requests sent to DynamoDB, pages and retries included")
                        .register(registry),
                series.counter("moviegraph.dynamodb.consumed.read.units", "Read capacity units DynamoDB reported as consumed")
                        .register(registry),
                series.counter("moviegraph.dynamodb.consumed.write.units", "Write capacity units DynamoDB reported as consumed")
                        .register(registry));
    }

    private Counter calls(CallSeries series, String outcome) {
        return series.counter("moviegraph.dynamodb.calls", "DynamoDB calls (a Query with all its pages, a batch with its retries)")
                .tag("outcome", outcome).register(registry);
    }

    /** The number of keys one DataLoader dispatched together. */
    public void batch(String loader, int size) {
        batchSizes.computeIfAbsent(loader, name -> DistributionSummary.builder("moviegraph.dataloader.batch.size")
                        .description("Keys per DataLoader batch")
                        .tag("loader", name)
                        .serviceLevelObjectives(1, 2, 5, 10, 20, 50, 100)
                        .register(registry))
                .record(size);
    }

    /**
     * What became of a persisted query: {@code hit}, {@code miss}, {@code registered}, a registration let go
     * ({@code too_large}, {@code invalid}, {@code rate_limited}), {@code store_failed}; with trusted documents
     * {@code listed}, {@code not_in_list}, {@code not_in_safelist}.
     */
    public void persistedQuery(String outcome) {
        Counter.builder("moviegraph.persisted.queries")
                .description("Persisted queries and trusted documents by outcome")
                .tag("outcome", outcome)
                .register(registry).increment();
    }

    /**
     * Fields a planning run (a read estimate, {@code Moviegraph-Trace: plan}) failed at for no reason of the
     * query's: a bug, after which the estimate may be low. Should stay 0.
     */
    public void planningFailures(int fields) {
        planningFailures.increment(fields);
    }

    /** A request refused because its client spent its read units per second ({@code http}, {@code websocket}). */
    public void clientRefused(String transport) {
        Counter.builder("moviegraph.client.refusals")
                .description("Requests refused because their client spent its read units per second")
                .tag("transport", transport)
                .register(registry).increment();
    }

    /** Read units charged to clients' budgets (CLIENT_READ_UNITS_PER_SECOND). */
    public void clientCharged(double readUnits) {
        clientCharged.increment(readUnits);
    }

    /** Publishes a cache's size, hits, misses and evictions (the cache must record stats). */
    public void monitor(Cache<?, ?> cache, String name) {
        CaffeineCacheMetrics.monitor(registry, cache, name);
    }

    /** Publishes a value read when scraped (open sockets, open subscriptions). */
    public void gauge(String name, String description, java.util.function.Supplier<Number> value) {
        io.micrometer.core.instrument.Gauge.builder(name, value).description(description).register(registry);
    }

    /** Everything, in the Prometheus text format. */
    public String scrape() {
        return registry.scrape();
    }

    private String bounded(String operationName) {
        if (operationName == null) {
            return "anonymous";
        }
        if (!NAME.matcher(operationName).matches()) {
            return "other";
        }
        if (operationNames.contains(operationName)) {
            return operationName;
        }
        if (operationNames.size() < MAX_OPERATION_NAMES) {
            operationNames.add(operationName);
            return operationName;
        }
        return "other";
    }

    private record RequestSeries(String operation, Outcome outcome) {
    }

    private record CallSeries(String operation, String index) {
        Counter.Builder counter(String name, String description) {
            return Counter.builder(name).description(description).tag("operation", operation).tag("index", index);
        }
    }

    private record CallMeters(Counter ok, Counter failed, Counter requests, Counter readUnits, Counter writeUnits) {
    }

    /** How a GraphQL request ended. */
    public enum Outcome {
        /** Data and no error. */
        OK("ok"),
        /** Data with errors on some fields. */
        PARTIAL("partial"),
        /** No data: the document did not parse or validate, or the request was refused. */
        REJECTED("rejected"),
        /** Planned, not executed (Moviegraph-Trace: plan). */
        PLANNED("planned");

        private final String label;

        Outcome(String label) {
            this.label = label;
        }
    }
}
