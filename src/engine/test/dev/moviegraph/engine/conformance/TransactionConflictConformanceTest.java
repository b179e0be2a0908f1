package dev.moviegraph.engine.conformance;

import static dev.moviegraph.engine.conformance.Conformance.createTable;
import static dev.moviegraph.engine.conformance.Conformance.item;
import static dev.moviegraph.engine.conformance.Conformance.n;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.engine.Engine;
import dev.moviegraph.engine.EngineOptions;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.TransactionConflictException;

/**
 * Transactions and single writes racing on one counter, through the SDK: each answer is a success or the
 * conflict DynamoDB's clients retry (TransactionCanceledException with TransactionConflict, or
 * TransactionConflictException), never a wait or another error, and the counter ends at exactly the number of
 * increments that were acknowledged.
 */
class TransactionConflictConformanceTest {
    private static Engine engine;
    private static DynamoDbClient dynamo;
    private static String table;

    @BeforeAll
    static void start() {
        engine = Engine.start(EngineOptions.inMemory());
        dynamo = Conformance.dynamo(engine);
        table = createTable(dynamo, "conflicts", null);
    }

    @AfterAll
    static void stop() {
        if (dynamo != null) {
            dynamo.close();
        }
        if (engine != null) {
            engine.close();
        }
    }

    @Test
    void racingWritesEitherCountOrConflictAndNothingAcknowledgedIsLost() throws Exception {
        dynamo.putItem(p -> p.tableName(table).item(item("pk", "counter", "n", 0L)));
        AtomicInteger acknowledged = new AtomicInteger();
        AtomicInteger conflicts = new AtomicInteger();
        ConcurrentLinkedQueue<String> unexpected = new ConcurrentLinkedQueue<>();
        ExecutorService threads = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> running = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                boolean transactional = t % 2 == 0;
                running.add(threads.submit(() -> {
                    for (int i = 0; i < 150; i++) {
                        try {
                            if (transactional) {
                                dynamo.transactWriteItems(w -> w.transactItems(a -> a.update(u -> u.tableName(table)
                                        .key(item("pk", "counter")).updateExpression("ADD n :one")
                                        .expressionAttributeValues(Map.of(":one", n(1))))));
                            } else {
                                dynamo.updateItem(u -> u.tableName(table).key(item("pk", "counter"))
                                        .updateExpression("ADD n :one").expressionAttributeValues(Map.of(":one", n(1))));
                            }
                            acknowledged.incrementAndGet();
                        } catch (TransactionCanceledException e) {
                            List<String> codes = e.cancellationReasons().stream().map(CancellationReason::code).toList();
                            if (codes.equals(List.of("TransactionConflict"))) {
                                conflicts.incrementAndGet();
                            } else {
                                unexpected.add(codes.toString());
                            }
                        } catch (TransactionConflictException e) {
                            conflicts.incrementAndGet();
                        } catch (RuntimeException e) {
                            unexpected.add(e.toString());
                        }
                    }
                }));
            }
            for (Future<?> each : running) {
                each.get();
            }
        } finally {
            threads.shutdownNow();
        }
        assertTrue(unexpected.isEmpty(), unexpected::toString);
        assertEquals(600, acknowledged.get() + conflicts.get());
        long counted = Long.parseLong(dynamo.getItem(g -> g.tableName(table).key(item("pk", "counter"))
                .consistentRead(true)).item().get("n").n());
        assertEquals(acknowledged.get(), counted, "every acknowledged increment counted, no refused one");
    }
}
