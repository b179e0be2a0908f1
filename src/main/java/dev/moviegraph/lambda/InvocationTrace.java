package dev.moviegraph.lambda;

import dev.moviegraph.catalog.CallObserver;
import dev.moviegraph.catalog.StoreCall;
import dev.moviegraph.telemetry.OperationSpan;
import dev.moviegraph.telemetry.Telemetry;

import io.opentelemetry.api.trace.SpanKind;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * A function's store-call observer that puts each call under the span of the invocation making it.
 * Lambda runs one invocation at a time in an environment, so the current one is a field; between
 * invocations (and with tracing off) calls only reach {@code downstream}. Each invocation's spans are
 * sent before it returns: Lambda may freeze the environment as soon as it has.
 */
final class InvocationTrace implements CallObserver {
    private final Telemetry telemetry;
    private final CallObserver downstream;
    private volatile OperationSpan span = OperationSpan.NONE;
    private volatile CallObserver observer;

    InvocationTrace(Telemetry telemetry, CallObserver downstream) {
        this.telemetry = telemetry;
        this.downstream = downstream;
        this.observer = downstream;
    }

    void begin(String name, Map<String, String> attributes) {
        span = telemetry.invocation(name, SpanKind.CONSUMER, attributes);
        observer = span.observing(downstream);
    }

    /** Ends the invocation's span ({@code error} null when it succeeded) and sends its spans. */
    void end(String error) {
        span.end(error);
        span = OperationSpan.NONE;
        observer = downstream;
        telemetry.flush();
    }

    @Override
    public void completed(StoreCall call) {
        observer.completed(call);
    }

    @Override
    public <T> CompletableFuture<T> send(Supplier<CompletableFuture<T>> request) {
        return observer.send(request);
    }

    @Override
    public void consumed(double readUnits) {
        observer.consumed(readUnits);
    }
}
