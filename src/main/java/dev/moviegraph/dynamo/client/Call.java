package dev.moviegraph.dynamo.client;

import dev.moviegraph.catalog.CallContext;
import dev.moviegraph.catalog.StoreCall;
import dev.moviegraph.dynamo.model.CallPattern;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.function.Supplier;

import software.amazon.awssdk.awscore.AwsRequestOverrideConfiguration;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttribute;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;

/**
 * One logical DynamoDB call being made: it travels with every request of the call (pages, rounds of
 * unprocessed keys) as an execution attribute, so the SDK's own retries are counted too, and when it
 * ends it reports what it consumed, as DynamoDB reported it (ReturnConsumedCapacity = TOTAL).
 */
public final class Call {
    private static final ExecutionAttribute<Call> ATTRIBUTE = new ExecutionAttribute<>("moviegraph.call");

    /** Counts HTTP attempts, SDK retries included, for the call each request belongs to. */
    static final ExecutionInterceptor ATTEMPTS = new ExecutionInterceptor() {
        @Override
        public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
            Call call = attributes.getAttribute(ATTRIBUTE);
            if (call != null) {
                call.requests.incrementAndGet();
            }
        }
    };

    private final CallContext context;
    private final CallPattern access;
    private final String key;
    private final int keys;
    private final long start = System.nanoTime();
    private final AtomicInteger requests = new AtomicInteger();
    private final AtomicInteger pages = new AtomicInteger();
    private final AtomicInteger items = new AtomicInteger();
    private final DoubleAdder readUnits = new DoubleAdder();
    private final DoubleAdder writeUnits = new DoubleAdder();
    private final AwsRequestOverrideConfiguration override;

    private Call(CallContext context, CallPattern access, String key, int keys) {
        this.context = context;
        this.access = access;
        this.key = key;
        this.keys = keys;
        this.override = AwsRequestOverrideConfiguration.builder().putExecutionAttribute(ATTRIBUTE, this).build();
    }

    /** A Query, described by its rendered key condition. */
    static Call query(CallContext context, CallPattern access, String keyCondition) {
        return new Call(context, access, keyCondition, 0);
    }

    /** A read of {@code keys} items by key. */
    public static Call byKey(CallContext context, CallPattern access, int keys) {
        return new Call(context, access, null, keys);
    }

    /** Goes on every request of this call. */
    public AwsRequestOverrideConfiguration override() {
        return override;
    }

    /**
     * Sends one read request of this call through the request's observer, which refuses it or cancels
     * it when the request has been stopped (time limit, read budget). Writes are never sent this way:
     * a write once started runs to its end, so its outcome is never left unknown by the gateway.
     */
    public <T> CompletableFuture<T> send(Supplier<CompletableFuture<T>> request) {
        return context.observer().send(() -> StoreFailures.translated(request.get()));
    }

    /** Records one response. */
    public void page(int itemCount, List<ConsumedCapacity> consumed) {
        pages.incrementAndGet();
        items.addAndGet(itemCount);
        double readBefore = readUnits.sum();
        for (ConsumedCapacity capacity : consumed) {
            if (capacity == null) {
                continue;
            }
            // Some endpoints (DynamoDB Local among them) report only the total CapacityUnits.
            double total = capacity.capacityUnits() == null ? 0 : capacity.capacityUnits();
            Double read = capacity.readCapacityUnits();
            Double write = capacity.writeCapacityUnits();
            if (read == null && write == null) {
                (access.writes() ? writeUnits : readUnits).add(total);
            } else {
                readUnits.add(read == null ? 0 : read);
                writeUnits.add(write == null ? 0 : write);
            }
        }
        context.observer().consumed(readUnits.sum() - readBefore);
    }

    /** Reports the call when {@code future} ends, however it ends. */
    public <T> CompletableFuture<T> reportWhenDone(CompletableFuture<T> future) {
        return future.whenComplete((value, failure) -> context.observer().completed(new StoreCall(
                access.name(), access.operation(), access.indexLabel(), key, keys, items.get(), pages.get(),
                // without the interceptor (a client built elsewhere) every page is at least one request
                Math.max(requests.get(), pages.get()), readUnits.sum(), writeUnits.sum(), start,
                System.nanoTime() - start, context.paths(), failure != null)));
    }
}
