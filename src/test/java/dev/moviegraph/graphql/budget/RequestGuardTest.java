package dev.moviegraph.graphql.budget;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.catalog.CallObserver;
import dev.moviegraph.catalog.RequestStoppedException.Reason;
import dev.moviegraph.catalog.RequestStoppedException;
import dev.moviegraph.catalog.StoreCall;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

class RequestGuardTest {

    private static Throwable failureOf(CompletableFuture<?> future) {
        ExecutionException e = assertThrows(ExecutionException.class, future::get);
        return e.getCause();
    }

    @Test
    void stoppingCancelsEveryReadInFlightAndTheirCallersSeeTheReason() {
        RequestGuard guard = new RequestGuard(CallObserver.NONE, 0);
        CompletableFuture<String> first = new CompletableFuture<>();
        CompletableFuture<String> second = new CompletableFuture<>();
        CompletableFuture<String> a = guard.send(() -> first);
        CompletableFuture<String> b = guard.send(() -> second);

        guard.stop(new RequestStoppedException(Reason.TIME_LIMIT, "too slow"));

        assertTrue(first.isCancelled(), "the SDK future is cancelled, which aborts its HTTP exchange");
        assertTrue(second.isCancelled());
        RequestStoppedException reason = assertInstanceOf(RequestStoppedException.class, failureOf(a));
        assertEquals(Reason.TIME_LIMIT, reason.reason());
        assertInstanceOf(RequestStoppedException.class, failureOf(b));
    }

    @Test
    void aStoppedRequestSendsNothingMore() {
        RequestGuard guard = new RequestGuard(CallObserver.NONE, 0);
        guard.stop(new RequestStoppedException(Reason.TIME_LIMIT, "too slow"));
        AtomicInteger sent = new AtomicInteger();

        CompletableFuture<String> refused = guard.send(() -> {
            sent.incrementAndGet();
            return CompletableFuture.completedFuture("item");
        });

        assertEquals(0, sent.get());
        assertInstanceOf(RequestStoppedException.class, failureOf(refused));
    }

    @Test
    void aReadThatAlreadyAnsweredKeepsItsDataAndTheFirstReasonWins() throws Exception {
        RequestGuard guard = new RequestGuard(CallObserver.NONE, 0);
        CompletableFuture<String> done = guard.send(() -> CompletableFuture.completedFuture("item"));
        guard.stop(new RequestStoppedException(Reason.READ_BUDGET, "budget"));
        guard.stop(new RequestStoppedException(Reason.TIME_LIMIT, "too slow"));

        assertEquals("item", done.get());
        CompletableFuture<String> later = guard.send(() -> new CompletableFuture<>());
        assertEquals(Reason.READ_BUDGET, ((RequestStoppedException) failureOf(later)).reason());
    }

    @Test
    void consumingPastTheBudgetStopsTheRequestAndSaysHowMuch() {
        RequestGuard guard = new RequestGuard(CallObserver.NONE, 2);
        CompletableFuture<String> inFlight = new CompletableFuture<>();
        CompletableFuture<String> waiting = guard.send(() -> inFlight);

        guard.consumed(1.5);
        guard.consumed(0.5);
        assertFalse(guard.isStopped(), "exactly the budget is allowed");
        guard.consumed(0.5);

        assertTrue(guard.isStopped());
        assertTrue(inFlight.isCancelled());
        RequestStoppedException reason = (RequestStoppedException) failureOf(waiting);
        assertEquals(Reason.READ_BUDGET, reason.reason());
        assertTrue(reason.getMessage().contains("consumed 2.5 read units, more than its budget of 2"),
                reason.getMessage());
    }

    @Test
    void withoutABudgetConsumptionNeverStopsARequest() {
        RequestGuard guard = new RequestGuard(CallObserver.NONE, 0);
        guard.consumed(1_000_000);
        assertFalse(guard.isStopped());
    }

    @Test
    void theOperationsOfABatchConsumeOneBudgetAndEachKeepsItsOwnReceipt() {
        RequestGuard guard = new RequestGuard(CallObserver.NONE, 2);
        List<StoreCall> firstReceipt = new ArrayList<>();
        List<StoreCall> secondReceipt = new ArrayList<>();
        CallObserver first = guard.observing(firstReceipt::add);
        CallObserver second = guard.observing(secondReceipt::add);
        CompletableFuture<String> secondInFlight = new CompletableFuture<>();
        CompletableFuture<String> secondWaiting = second.send(() -> secondInFlight);

        StoreCall call = new StoreCall("TopMovies", "Query", "GSI1", "k", 0, 3, 1, 1, 1.5, 0, 0, 0, List.of("topMovies"), false);
        first.completed(call);
        assertEquals(List.of(call), firstReceipt);
        assertEquals(List.of(), secondReceipt);
        first.consumed(1.5);
        assertFalse(guard.isStopped());
        second.consumed(1);

        assertTrue(guard.isStopped(), "1.5 + 1 is past the budget of 2 though each alone is within it");
        assertTrue(secondInFlight.isCancelled());
        assertEquals(Reason.READ_BUDGET, ((RequestStoppedException) failureOf(secondWaiting)).reason());
        assertEquals(Reason.READ_BUDGET, ((RequestStoppedException) failureOf(first.send(CompletableFuture::new)))
                .reason(), "no operation of the batch may start a read after the stop");
    }
}
