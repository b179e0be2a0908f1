package dev.moviegraph.support;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;

/**
 * Counts the DynamoDB requests the gateway really sends, as the SDK sends them (one entry per HTTP
 * attempt), and how many were in flight at once. Tests run their queries one at a time, so a reset
 * before a query and a look after it gives that query's requests.
 */
public final class RequestCounter implements ExecutionInterceptor {
    private final List<String> operations = new ArrayList<>();
    /** Each operation's request as the SDK prints it (keys and values included), in the same order. */
    private final List<String> requests = new ArrayList<>();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger maxInFlight = new AtomicInteger();

    @Override
    public synchronized void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
        operations.add(attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME));
        requests.add(String.valueOf(context.request()));
        maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
    }

    @Override
    public void afterTransmission(Context.AfterTransmission context, ExecutionAttributes attributes) {
        inFlight.decrementAndGet();
    }

    public synchronized void reset() {
        operations.clear();
        requests.clear();
        maxInFlight.set(inFlight.get());
    }

    /** The operations sent since the last reset, in order (GetItem, Query, BatchGetItem, ...). */
    public synchronized List<String> operations() {
        return List.copyOf(operations);
    }

    /**
     * The operations sent since the last reset whose request names {@code text} (a key value, say): those of
     * one request even while another test's held or retried calls are still going.
     */
    public synchronized List<String> operationsNaming(String text) {
        List<String> named = new ArrayList<>();
        for (int i = 0; i < operations.size(); i++) {
            if (requests.get(i).contains(text)) {
                named.add(operations.get(i));
            }
        }
        return named;
    }

    public int maxInFlight() {
        return maxInFlight.get();
    }
}
