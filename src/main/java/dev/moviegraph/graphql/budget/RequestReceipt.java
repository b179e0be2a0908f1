package dev.moviegraph.graphql.budget;

import dev.moviegraph.catalog.CallObserver;
import dev.moviegraph.catalog.StoreCall;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every DynamoDB call one request made, and what they cost: {@code extensions.cost} on every response,
 * {@code extensions.trace} when asked. Figures are DynamoDB's own (ConsumedCapacity), summed over every
 * page, batch round and retry.
 */
public final class RequestReceipt implements CallObserver {
    private final long startNanos;
    private final CallObserver downstream;
    private final List<StoreCall> calls = new ArrayList<>();

    public RequestReceipt(long startNanos, CallObserver downstream) {
        this.startNanos = startNanos;
        this.downstream = downstream;
    }

    @Override
    public void completed(StoreCall call) {
        synchronized (calls) {
            calls.add(call);
        }
        downstream.completed(call);
    }

    private List<StoreCall> inOrder() {
        synchronized (calls) {
            return calls.stream().sorted(Comparator.comparingLong(StoreCall::startNanos)).toList();
        }
    }

    public Map<String, Object> cost() {
        List<StoreCall> all = inOrder();
        Map<String, Object> cost = new LinkedHashMap<>();
        cost.put("requests", all.stream().mapToInt(StoreCall::requests).sum());
        cost.put("readUnits", units(all.stream().mapToDouble(StoreCall::readUnits).sum()));
        cost.put("writeUnits", units(all.stream().mapToDouble(StoreCall::writeUnits).sum()));
        return cost;
    }

    /**
     * Each call in the order it started, and the request's time split between DynamoDB (the union of
     * the calls' intervals: parallel calls count once) and the gateway itself (everything else).
     */
    public Map<String, Object> trace(long endNanos) {
        List<StoreCall> all = inOrder();
        List<Map<String, Object>> entries = new ArrayList<>();
        for (StoreCall call : all) {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("operation", call.operation());
            entry.put("index", call.index());
            entry.put("pattern", call.pattern());
            if (call.key() != null) {
                entry.put("keyCondition", call.key());
            } else {
                entry.put("keys", call.keys());
            }
            entry.put("items", call.items());
            entry.put("pages", call.pages());
            entry.put("requests", call.requests());
            entry.put("readUnits", units(call.readUnits()));
            entry.put("writeUnits", units(call.writeUnits()));
            entry.put("startMs", millis(call.startNanos() - startNanos));
            entry.put("durationMs", millis(call.durationNanos()));
            entry.put("paths", call.paths());
            if (call.failed()) {
                entry.put("failed", true);
            }
            entries.add(entry);
        }
        long total = endNanos - startNanos;
        long store = storeNanos(all);
        Map<String, Object> trace = new LinkedHashMap<>();
        trace.put("totalMs", millis(total));
        trace.put("dynamoDbMs", millis(store));
        trace.put("gatewayMs", millis(Math.max(0, total - store)));
        trace.put("calls", entries);
        return trace;
    }

    private static long storeNanos(List<StoreCall> byStart) {
        long covered = 0;
        long from = Long.MIN_VALUE;
        long to = Long.MIN_VALUE;
        for (StoreCall call : byStart) {
            long start = call.startNanos();
            long end = start + call.durationNanos();
            if (from == Long.MIN_VALUE || start > to) {
                covered += from == Long.MIN_VALUE ? 0 : to - from;
                from = start;
                to = end;
            } else {
                to = Math.max(to, end);
            }
        }
        return from == Long.MIN_VALUE ? 0 : covered + (to - from);
    }

    private static double millis(long nanos) {
        return Math.round(nanos / 1_000.0) / 1_000.0;
    }

    private static double units(double value) {
        return Math.round(value * 1_000.0) / 1_000.0;
    }
}
