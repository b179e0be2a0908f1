package dev.moviegraph.graphql.budget;

import dev.moviegraph.catalog.CallObserver;
import dev.moviegraph.catalog.RequestStoppedException.Reason;
import dev.moviegraph.catalog.RequestStoppedException;
import dev.moviegraph.catalog.StoreCall;

import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.function.Supplier;

/**
 * The limits of one executing request over its DynamoDB reads. It sends every read request and keeps
 * the ones in flight; once the request is stopped (its time limit passed, or what it consumed went past
 * its read budget) it cancels those, which aborts their HTTP exchanges, and refuses any new one. The
 * fields that were waiting fail with the reason, the rest of the response keeps its data.
 */
public final class RequestGuard implements CallObserver {
    private final CallObserver downstream;
    private final double readBudget;
    private final DoubleAdder consumed = new DoubleAdder();
    private final Set<CompletableFuture<?>> inFlight = ConcurrentHashMap.newKeySet();
    private volatile RequestStoppedException stopped;

    /** @param readBudget the read units the request may consume; 0 for no budget */
    public RequestGuard(CallObserver downstream, double readBudget) {
        this.downstream = downstream;
        this.readBudget = readBudget;
    }

    @Override
    public void completed(StoreCall call) {
        downstream.completed(call);
    }

    @Override
    public <T> CompletableFuture<T> send(Supplier<CompletableFuture<T>> request) {
        RequestStoppedException reason = stopped;
        if (reason != null) {
            return CompletableFuture.failedFuture(reason);
        }
        CompletableFuture<T> sent = request.get();
        inFlight.add(sent);
        if (stopped != null) {
            // stopped while this one was being sent: the stop may have missed it
            sent.cancel(true);
        }
        CompletableFuture<T> result = new CompletableFuture<>();
        sent.whenComplete((value, failure) -> {
            inFlight.remove(sent);
            RequestStoppedException why = stopped;
            if (failure == null) {
                result.complete(value);
            } else {
                result.completeExceptionally(why != null ? why : failure);
            }
        });
        return result;
    }

    @Override
    public void consumed(double readUnits) {
        consumed.add(readUnits);
        double sum = consumed.sum();
        if (readBudget > 0 && sum > readBudget) {
            stop(new RequestStoppedException(Reason.READ_BUDGET, "The request was stopped after it consumed "
                    + format(sum) + " read units, more than its budget of " + format(readBudget)
                    + " (MAX_READ_UNITS)"));
        }
    }

    /**
     * This guard as one operation of a batch sees it: the operation's calls go to its own {@code receipt}
     * too, while the budget, the stop and the reads in flight are the whole request's.
     */
    public CallObserver observing(CallObserver receipt) {
        return tellingFirst(receipt::completed);
    }

    /** Stops the request: the first reason wins; every read in flight is cancelled. */
    public void stop(RequestStoppedException reason) {
        synchronized (this) {
            if (stopped != null) {
                return;
            }
            stopped = reason;
        }
        for (CompletableFuture<?> call : inFlight) {
            call.cancel(true);
        }
    }

    public boolean isStopped() {
        return stopped != null;
    }

    public static String format(double units) {
        return units == Math.rint(units) ? String.valueOf((long) units) : String.valueOf(units);
    }
}
