package dev.moviegraph.graphql;

import dev.moviegraph.graphql.errors.ErrorCodes;
import dev.moviegraph.graphql.errors.ErrorType;
import dev.moviegraph.graphql.errors.FieldErrors;
import dev.moviegraph.graphql.wiring.BatchHold;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import graphql.GraphQLError;
import graphql.execution.NonNullableFieldWasNullError;
import graphql.incremental.DelayedIncrementalPartialResult;
import graphql.incremental.IncrementalPayload;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The deferred fragments of one executed operation, read when the transport starts them: graphql-java's
 * publisher of incremental results, subscribed under the request's {@link BatchHold} (it starts every
 * deferred fragment at once, so their loads batch per level as the same query without {@code @defer}
 * does), each result written as a part with its errors coded as the first payload's are. The last part
 * carries the whole request's receipt ({@code extensions.cost}, and the trace when asked) and ends the
 * request's time limit and span; the result-size limit ends the parts early with its error.
 */
final class DeferredParts implements LaterParts {
    private static final Logger LOG = LoggerFactory.getLogger(DeferredParts.class);

    private final Publisher<DelayedIncrementalPartialResult> publisher;
    private final BatchHold hold;
    private final BooleanSupplier stopped;
    private final Supplier<Map<String, Object>> extensions;
    private final Supplier<Map<String, Object>> overLimit;
    private final Runnable ended;
    private final FieldErrors raised;
    private Subscription subscription;
    private boolean started;
    private boolean finished;

    /**
     * @param stopped    whether the request was stopped at its time limit (its errors' code)
     * @param extensions the last part's extensions, made when it is sent
     * @param overLimit  the result-size limit's error once the answer has grown past it; null until then
     * @param ended      run once, when the last part is handed on or the parts are cancelled
     * @param raised     the errors the request's data fetchers raised; null when not kept
     */
    DeferredParts(Publisher<DelayedIncrementalPartialResult> publisher, BatchHold hold, BooleanSupplier stopped,
                  Supplier<Map<String, Object>> extensions, Supplier<Map<String, Object>> overLimit, Runnable ended,
                  FieldErrors raised) {
        this.publisher = publisher;
        this.hold = hold;
        this.stopped = stopped;
        this.extensions = extensions;
        this.overLimit = overLimit;
        this.ended = ended;
        this.raised = raised;
    }

    @Override
    public void start(Receiver receiver) {
        synchronized (this) {
            if (started) {
                throw new IllegalStateException("The deferred parts were started already");
            }
            started = true;
            if (finished) {
                return;
            }
        }
        // In the request's turn, under the hold: the fragments start (their fetchers, their dispatches) on one
        // thread at a time with the answers that come back meanwhile, and their batches run together.
        hold.whileHeld(() -> publisher.subscribe(new Subscriber<>() {
            @Override
            public void onSubscribe(Subscription s) {
                boolean go;
                synchronized (DeferredParts.this) {
                    subscription = s;
                    go = !finished;
                }
                if (go) {
                    s.request(Long.MAX_VALUE);
                } else {
                    s.cancel();
                }
            }

            @Override
            public void onNext(DelayedIncrementalPartialResult partial) {
                deliver(receiver, partial);
            }

            @Override
            public void onError(Throwable failure) {
                LOG.warn("A deferred fragment failed inside the gateway", failure);
                end(receiver, Map.of("errors", List.of(Map.of("message", "A deferred part failed inside the gateway",
                        "extensions", Map.of("code", ErrorType.INTERNAL.name())))));
            }

            @Override
            public void onComplete() {
                end(receiver, Map.of());
            }
        }));
    }

    private void deliver(Receiver receiver, DelayedIncrementalPartialResult partial) {
        Map<String, Object> limit = overLimit.get();
        if (limit != null) {
            end(receiver, limit);
            return;
        }
        Map<String, Object> payload = new LinkedHashMap<>();
        List<Map<String, Object>> items = new ArrayList<>();
        for (IncrementalPayload item : partial.getIncremental()) {
            Map<String, Object> spec = new LinkedHashMap<>(item.toSpecification());
            if (item.getErrors() != null && !item.getErrors().isEmpty()) {
                spec.put("errors", restored(item.getErrors()).stream()
                        .map(error -> ErrorCodes.withCode(error, stopped.getAsBoolean()).toSpecification()).toList());
            }
            items.add(spec);
        }
        payload.put("incremental", items);
        if (!partial.hasNext()) {
            end(receiver, payload);
            return;
        }
        payload.put("hasNext", true);
        synchronized (this) {
            if (finished) {
                return;
            }
            receiver.part(payload, false);
        }
    }

    /**
     * The part's errors with each "non-null field was null" error replaced by the errors that made the field
     * null, as the same query without {@code @defer} reports them (see {@link FieldErrors}); kept when none was raised.
     */
    private List<GraphQLError> restored(List<GraphQLError> errors) {
        if (raised == null || errors.stream().noneMatch(NonNullableFieldWasNullError.class::isInstance)) {
            return errors;
        }
        List<GraphQLError> restored = new ArrayList<>();
        for (GraphQLError error : errors) {
            List<GraphQLError> causes = error instanceof NonNullableFieldWasNullError && error.getPath() != null
                    ? raised.under(error.getPath()) : List.of();
            for (GraphQLError kept : causes.isEmpty() ? List.of(error) : causes) {
                if (!restored.contains(kept)) {
                    restored.add(kept);
                }
            }
        }
        return restored;
    }

    /** The last part: {@code payload} with hasNext false and the request's receipt. */
    private void end(Receiver receiver, Map<String, Object> payload) {
        Map<String, Object> last = new LinkedHashMap<>(payload);
        last.put("hasNext", false);
        finish(() -> {
            last.put("extensions", extensions.get());
            receiver.part(last, true);
        });
    }

    @Override
    public void cancel() {
        finish(() -> { });
    }

    /**
     * Once only: {@code lastly} (under the lock, so no part follows it), the end of the request, and no more
     * deferred work (after an early end, the result-size limit's, or a client gone).
     */
    private void finish(Runnable lastly) {
        Subscription cancelling;
        synchronized (this) {
            if (finished) {
                return;
            }
            finished = true;
            cancelling = subscription;
            try {
                lastly.run();
            } finally {
                ended.run();
            }
        }
        if (cancelling != null) {
            cancelling.cancel();
        }
    }
}
