package dev.moviegraph.graphql.wiring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import graphql.ExecutionInput;
import graphql.ExecutionResult;
import graphql.GraphQL;
import graphql.execution.instrumentation.dataloader.DataLoaderDispatchingContextKeys;
import graphql.schema.DataFetcher;
import graphql.schema.GraphQLSchema;
import graphql.schema.idl.RuntimeWiring;
import graphql.schema.idl.SchemaGenerator;
import graphql.schema.idl.SchemaParser;
import graphql.schema.idl.TypeRuntimeWiring;
import org.dataloader.BatchLoader;
import org.dataloader.DataLoader;
import org.dataloader.DataLoaderFactory;
import org.dataloader.DataLoaderRegistry;
import org.junit.jupiter.api.Test;

/**
 * Answers re-enter one request's engine one thread at a time, and a batch's answer never inside the
 * dispatch that sent it; with graphql-java's own per-level dispatch, that keeps a level in one batch when
 * its batches answer at once.
 */
class EngineTurnsTest {
    private final EngineTurns turns = new EngineTurns();

    @Test
    void anAnswerAlreadyThereIsHandedOverOnlyOnceTheTurnsWorkReturns() {
        List<String> order = new ArrayList<>();

        turns.run(() -> {
            turns.answered(CompletableFuture.completedFuture("answer")).thenAccept(order::add);
            order.add("rest of the turn");
        });

        assertEquals(List.of("rest of the turn", "answer"), order);
    }

    @Test
    void outsideAnyTurnAnAnswerAlreadyThereIsHandedOverAtOnce() {
        CompletableFuture<String> handed = turns.answered(CompletableFuture.completedFuture("answer"));

        assertTrue(handed.isDone());
        assertEquals("answer", handed.join());
    }

    @Test
    void anAnswerFromAnotherThreadWaitsForTheTurnAndRunsOnItsThread() throws Exception {
        CompletableFuture<String> sent = new CompletableFuture<>();
        AtomicReference<Thread> ranOn = new AtomicReference<>();
        CountDownLatch answered = new CountDownLatch(1);
        List<String> order = Collections.synchronizedList(new ArrayList<>());

        turns.run(() -> {
            turns.answered(sent).thenAccept(value -> {
                ranOn.set(Thread.currentThread());
                order.add(value);
            });
            Thread sdk = new Thread(() -> {
                sent.complete("answer");
                answered.countDown();
            });
            sdk.start();
            // The other thread returns at once, its answer left for this turn.
            await(answered);
            order.add("rest of the turn");
        });

        assertEquals(List.of("rest of the turn", "answer"), order);
        assertSame(Thread.currentThread(), ranOn.get());
    }

    @Test
    void aFetchersFutureCompletedInTheTurnIsHandedOnAtOnce() {
        List<String> order = new ArrayList<>();
        CompletableFuture<String> fetched = new CompletableFuture<>();

        turns.run(() -> {
            ((CompletableFuture<?>) turns.inTurn((Object) fetched)).thenAccept(value -> order.add("fetched"));
            fetched.complete("value");
            order.add("rest of the turn");
        });

        assertEquals(List.of("fetched", "rest of the turn"), order);
        assertSame(fetched, turns.inTurn((Object) fetched), "a future already done is returned as it is");
        assertEquals("plain", turns.inTurn((Object) "plain"));
    }

    @Test
    void workFromManyThreadsRunsEachOnceAndNeverTwoAtOnce() throws Exception {
        int threads = 8;
        int each = 2_000;
        AtomicInteger running = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        AtomicInteger ran = new AtomicInteger();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> started = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Thread thread = new Thread(() -> {
                await(start);
                for (int i = 0; i < each; i++) {
                    turns.run(() -> {
                        most.accumulateAndGet(running.incrementAndGet(), Math::max);
                        ran.incrementAndGet();
                        running.decrementAndGet();
                    });
                }
            });
            thread.start();
            started.add(thread);
        }
        start.countDown();
        for (Thread thread : started) {
            thread.join(TimeUnit.SECONDS.toMillis(30));
            assertFalse(thread.isAlive());
        }

        assertEquals(threads * each, ran.get(), "no answer is left behind");
        assertEquals(1, most.get(), "one thread at a time");
    }

    @Test
    void aFailureOfTheCallersOwnWorkReachesTheCaller() {
        IllegalStateException failure = assertThrows(IllegalStateException.class,
                () -> turns.run(() -> { throw new IllegalStateException("own"); }));

        assertEquals("own", failure.getMessage());
        List<String> after = new ArrayList<>();
        turns.run(() -> after.add("next turn"));
        assertEquals(List.of("next turn"), after, "the turn was let go");
    }

    @Test
    void workQueuedAfterWorkThatThrowsAnErrorStillRuns() throws Exception {
        AtomicReference<String> after = new AtomicReference<>();
        CountDownLatch queued = new CountDownLatch(1);

        turns.run(() -> {
            Thread other = new Thread(() -> {
                turns.run(() -> { throw new StackOverflowError("deep"); });
                turns.run(() -> after.set("ran"));
                queued.countDown();
            });
            other.start();
            await(queued);
        });

        assertEquals("ran", after.get());
    }

    // ---- with graphql-java's per-level dispatch

    private static final String SCHEMA = """
            type Query { first: Pair second: Pair }
            type Pair { child: Leaf }
            type Leaf { name: String }
            """;

    @Test
    void twoRootFieldsChildrenLoadInOneBatchWhenEveryBatchAnswersAtOnce() {
        List<List<String>> batches = run(true);

        assertEquals(List.of(List.of("first", "second"), List.of("first.child", "second.child")), batches);
    }

    @Test
    void withoutTurnsGraphqlJavaSendsTheFirstFieldsChildrenAlone() {
        // What EngineTurns is for. If a graphql-java upgrade batches these together, this fails: the turns
        // may then no longer be needed (check before removing them: answers from other threads too).
        List<List<String>> batches = run(false);

        assertEquals(List.of(List.of("first", "second"), List.of("first.child"), List.of("second.child")), batches);
    }

    /** The batches a query over two root fields makes when every batch is answered before it returns. */
    private List<List<String>> run(boolean inTurns) {
        List<List<String>> batches = Collections.synchronizedList(new ArrayList<>());
        BatchHold.Batch<String, String> answeredAtOnce = (keys, contexts) -> {
            batches.add(List.copyOf(keys));
            return CompletableFuture.completedFuture(keys);
        };
        BatchHold hold = new BatchHold(turns);
        BatchLoader<String, String> loader = keys -> inTurns ? hold.load(answeredAtOnce, keys, List.of())
                : answeredAtOnce.load(keys, List.of());
        DataLoaderRegistry registry = DataLoaderRegistry.newRegistry()
                .register("names", DataLoaderFactory.newDataLoader(loader)).build();
        DataFetcher<?> byName = env -> {
            DataLoader<String, String> names = env.getDataLoader("names");
            String path = String.join(".", env.getExecutionStepInfo().getPath().getKeysOnly());
            return names.load(path).thenApply(name -> Map.of("name", name));
        };
        RuntimeWiring wiring = RuntimeWiring.newRuntimeWiring()
                .type(TypeRuntimeWiring.newTypeWiring("Query").dataFetcher("first", byName).dataFetcher("second", byName))
                .type(TypeRuntimeWiring.newTypeWiring("Pair").dataFetcher("child", byName))
                .build();
        GraphQLSchema schema = new SchemaGenerator().makeExecutableSchema(new SchemaParser().parse(SCHEMA), wiring);
        GraphQL engine = GraphQL.newGraphQL(schema).build();
        ExecutionInput input = ExecutionInput.newExecutionInput()
                .query("{ first { child { name } } second { child { name } } }")
                .dataLoaderRegistry(registry)
                .graphQLContext(context -> context.put(DataLoaderDispatchingContextKeys.ENABLE_DATA_LOADER_CHAINING, true))
                .build();
        AtomicReference<CompletableFuture<ExecutionResult>> result = new AtomicReference<>();
        if (inTurns) {
            turns.run(() -> result.set(engine.executeAsync(input)));
        } else {
            result.set(engine.executeAsync(input));
        }

        ExecutionResult done = result.get().orTimeout(10, TimeUnit.SECONDS).join();
        assertTrue(done.getErrors().isEmpty(), done.getErrors().toString());
        return batches;
    }

    private static void await(CountDownLatch latch) {
        try {
            assertTrue(latch.await(30, TimeUnit.SECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
