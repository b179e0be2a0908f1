package dev.moviegraph.engine.conformance;

import static dev.moviegraph.engine.conformance.Conformance.createTable;
import static dev.moviegraph.engine.conformance.Conformance.item;
import static dev.moviegraph.engine.conformance.Conformance.n;
import static dev.moviegraph.engine.conformance.Conformance.refused;
import static dev.moviegraph.engine.conformance.Conformance.s;
import static dev.moviegraph.engine.conformance.Conformance.tableName;
import static dev.moviegraph.engine.conformance.Conformance.text;
import static dev.moviegraph.engine.conformance.Conformance.validation;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.engine.Engine;
import dev.moviegraph.engine.EngineOptions;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.IdempotentParameterMismatchException;
import software.amazon.awssdk.services.dynamodb.model.ItemResponse;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.TransactGetItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.TransactionConflictException;

/** TransactWriteItems and TransactGetItems: all or nothing, their limits, idempotency and isolation. */
class TransactionsConformanceTest {
    private static Engine engine;
    private static DynamoDbClient dynamo;
    private static String table;
    private static String other;

    @BeforeAll
    static void start() {
        engine = Engine.start(EngineOptions.inMemory());
        dynamo = Conformance.dynamo(engine);
        table = createTable(dynamo, "txn", null);
        other = createTable(dynamo, "txnOther", null);
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

    private static Map<String, AttributeValue> get(String tableName, String key) {
        return dynamo.getItem(g -> g.tableName(tableName).key(item("pk", key)).consistentRead(true)).item();
    }

    private static TransactWriteItem put(String tableName, Map<String, AttributeValue> item) {
        return TransactWriteItem.builder().put(p -> p.tableName(tableName).item(item)).build();
    }

    private static TransactWriteItem add(String key, int by) {
        return TransactWriteItem.builder().update(u -> u.tableName(table).key(item("pk", key))
                .updateExpression("ADD c :by").expressionAttributeValues(Map.of(":by", n(by)))).build();
    }

    @Test
    void aTransactionWritesEveryActionAcrossTables() {
        dynamo.putItem(p -> p.tableName(table).item(item("pk", "t1-update", "v", 1)));
        dynamo.putItem(p -> p.tableName(table).item(item("pk", "t1-delete")));
        dynamo.putItem(p -> p.tableName(other).item(item("pk", "t1-check", "ok", Conformance.bool(true))));
        dynamo.transactWriteItems(t -> t.transactItems(
                put(table, item("pk", "t1-put", "v", 1)),
                TransactWriteItem.builder().update(u -> u.tableName(table).key(item("pk", "t1-update"))
                        .updateExpression("SET v = v + :one").conditionExpression("v = :one")
                        .expressionAttributeValues(Map.of(":one", n(1)))).build(),
                TransactWriteItem.builder().delete(d -> d.tableName(table).key(item("pk", "t1-delete"))).build(),
                TransactWriteItem.builder().conditionCheck(c -> c.tableName(other).key(item("pk", "t1-check"))
                        .conditionExpression("attribute_exists(ok)")).build(),
                put(other, item("pk", "t1-other", "v", 9))));
        assertEquals(item("pk", "t1-put", "v", 1), get(table, "t1-put"));
        assertEquals(item("pk", "t1-update", "v", 2), get(table, "t1-update"));
        assertTrue(get(table, "t1-delete").isEmpty());
        assertEquals(item("pk", "t1-other", "v", 9), get(other, "t1-other"));
    }

    @Test
    void aFailedConditionCancelsTheWholeTransactionWithReasonsInActionOrder() {
        dynamo.putItem(p -> p.tableName(table).item(item("pk", "t2-a", "v", 1)));
        dynamo.putItem(p -> p.tableName(table).item(item("pk", "t2-b", "v", 1)));
        dynamo.putItem(p -> p.tableName(table).item(item("pk", "t2-c", "v", 1)));
        TransactionCanceledException e = assertThrows(TransactionCanceledException.class,
                () -> dynamo.transactWriteItems(t -> t.transactItems(
                        put(table, item("pk", "t2-a", "v", 2)),
                        TransactWriteItem.builder().update(u -> u.tableName(table).key(item("pk", "t2-b"))
                                .updateExpression("SET v = :two").conditionExpression("v = :zero")
                                .expressionAttributeValues(Map.of(":two", n(2), ":zero", n(0)))
                                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD))
                                .build(),
                        TransactWriteItem.builder().delete(d -> d.tableName(table).key(item("pk", "t2-c"))).build(),
                        TransactWriteItem.builder().conditionCheck(c -> c.tableName(table).key(item("pk", "t2-d"))
                                .conditionExpression("attribute_exists(pk)")).build())));
        assertEquals(400, e.statusCode());
        List<String> codes = new ArrayList<>();
        for (CancellationReason reason : e.cancellationReasons()) {
            codes.add(reason.code());
        }
        assertEquals(List.of("None", "ConditionalCheckFailed", "None", "ConditionalCheckFailed"), codes);
        assertEquals(item("pk", "t2-b", "v", 1), e.cancellationReasons().get(1).item(),
                "ALL_OLD on a failed action returns its item in its reason");
        assertFalse(e.cancellationReasons().get(3).hasItem() && !e.cancellationReasons().get(3).item().isEmpty());
        assertTrue(Conformance.message(e).contains("[None, ConditionalCheckFailed, None, ConditionalCheckFailed]"),
                Conformance.message(e));
        assertEquals(item("pk", "t2-a", "v", 1), get(table, "t2-a"), "the put was not applied");
        assertEquals(item("pk", "t2-b", "v", 1), get(table, "t2-b"));
        assertEquals(item("pk", "t2-c", "v", 1), get(table, "t2-c"), "the delete was not applied");
    }

    @Test
    void twoActionsOnOneItemAreRefused() {
        assertAll("one item, two actions",
                refused("TransactWriteItems: a Put and an Update of one item", () -> dynamo.transactWriteItems(t -> t
                        .transactItems(put(table, item("pk", "t3", "v", 1)), add("t3", 1))),
                        "multiple operations on one item"),
                refused("TransactWriteItems: a ConditionCheck and a Delete of one item", () -> dynamo
                        .transactWriteItems(t -> t.transactItems(
                                TransactWriteItem.builder().conditionCheck(c -> c.tableName(table)
                                        .key(item("pk", "t3")).conditionExpression("attribute_not_exists(pk)")).build(),
                                TransactWriteItem.builder().delete(d -> d.tableName(table).key(item("pk", "t3")))
                                        .build())), "multiple operations on one item"),
                refused("TransactGetItems: one item twice", () -> dynamo.transactGetItems(t -> t.transactItems(
                        TransactGetItem.builder().get(g -> g.tableName(table).key(item("pk", "t3"))).build(),
                        TransactGetItem.builder().get(g -> g.tableName(table).key(item("pk", "t3"))).build())),
                        "multiple operations on one item"));
        assertTrue(get(table, "t3").isEmpty());
    }

    @Test
    void transactionsOfMoreThan100ActionsOrMoreThan4MegabytesAreRefused() {
        List<TransactWriteItem> hundredOne = new ArrayList<>();
        for (int i = 0; i < 101; i++) {
            hundredOne.add(put(table, item("pk", "t4-" + i)));
        }
        validation(() -> dynamo.transactWriteItems(t -> t.transactItems(hundredOne)));
        assertTrue(get(table, "t4-0").isEmpty());
        dynamo.transactWriteItems(t -> t.transactItems(hundredOne.subList(0, 100)));
        assertEquals(item("pk", "t4-99"), get(table, "t4-99"), "100 actions are allowed");

        List<TransactGetItem> gets = new ArrayList<>();
        for (int i = 0; i < 101; i++) {
            String key = "t4-" + i;
            gets.add(TransactGetItem.builder().get(g -> g.tableName(table).key(item("pk", key))).build());
        }
        validation(() -> dynamo.transactGetItems(t -> t.transactItems(gets)));
        assertEquals(100, dynamo.transactGetItems(t -> t.transactItems(gets.subList(0, 100))).responses().size());

        List<TransactWriteItem> heavy = new ArrayList<>();
        String payload = text(390_000);
        for (int i = 0; i < 11; i++) { // 11 x 390 KB = 4.3 MB
            heavy.add(put(table, item("pk", "t4-heavy-" + i, "d", payload)));
        }
        validation(() -> dynamo.transactWriteItems(t -> t.transactItems(heavy)));
        assertTrue(get(table, "t4-heavy-0").isEmpty(), "nothing of the refused transaction was written");
        validation(() -> dynamo.transactWriteItems(t -> t.transactItems(List.of())));
    }

    @Test
    void transactGetReturnsItemsInRequestOrderWithEmptyResponsesForMissingOnes() {
        dynamo.putItem(p -> p.tableName(table).item(item("pk", "t5-a", "v", 1, "w", 2)));
        dynamo.putItem(p -> p.tableName(other).item(item("pk", "t5-b", "v", 3)));
        List<ItemResponse> responses = dynamo.transactGetItems(t -> t.transactItems(
                TransactGetItem.builder().get(g -> g.tableName(other).key(item("pk", "t5-b"))).build(),
                TransactGetItem.builder().get(g -> g.tableName(table).key(item("pk", "t5-missing"))).build(),
                TransactGetItem.builder().get(g -> g.tableName(table).key(item("pk", "t5-a"))
                        .projectionExpression("w")).build())).responses();
        assertEquals(3, responses.size());
        assertEquals(item("pk", "t5-b", "v", 3), responses.get(0).item());
        assertTrue(!responses.get(1).hasItem() || responses.get(1).item().isEmpty(), "a missing item answers empty");
        assertEquals(item("w", 2), responses.get(2).item());
        assertThrows(ResourceNotFoundException.class, () -> dynamo.transactGetItems(t -> t.transactItems(
                TransactGetItem.builder().get(g -> g.tableName(tableName("absent")).key(item("pk", "x"))).build())));
        assertThrows(ResourceNotFoundException.class, () -> dynamo.transactWriteItems(t -> t.transactItems(
                put(tableName("absent"), item("pk", "x")))));
    }

    @Test
    void aClientRequestTokenMakesARetryWriteNothingTwice() {
        dynamo.transactWriteItems(t -> t.clientRequestToken("token-t6").transactItems(add("t6", 1),
                put(table, item("pk", "t6-put", "v", 1))));
        assertEquals(n(1), get(table, "t6").get("c"));
        dynamo.putItem(p -> p.tableName(table).item(item("pk", "t6-put", "v", 5)));
        dynamo.transactWriteItems(t -> t.clientRequestToken("token-t6").transactItems(add("t6", 1),
                put(table, item("pk", "t6-put", "v", 1))));
        assertEquals(n(1), get(table, "t6").get("c"), "the retried transaction did not add again");
        assertEquals(n(5), get(table, "t6-put").get("v"), "nor put again");

        IdempotentParameterMismatchException mismatch = assertThrows(IdempotentParameterMismatchException.class,
                () -> dynamo.transactWriteItems(t -> t.clientRequestToken("token-t6").transactItems(add("t6", 2))));
        assertEquals(400, mismatch.statusCode());
        assertEquals(n(1), get(table, "t6").get("c"));

        dynamo.transactWriteItems(t -> t.clientRequestToken("token-t6-other").transactItems(add("t6", 1)));
        assertEquals(n(2), get(table, "t6").get("c"), "another token is another transaction");
    }

    @Test
    void transactionsAndSingleItemUpdatesOnOneItemNeverLoseAnUpdate() throws Exception {
        dynamo.putItem(p -> p.tableName(table).item(item("pk", "t7", "c", 0)));
        AtomicInteger applied = new AtomicInteger();
        AtomicInteger conflicts = new AtomicInteger();
        ExecutorService threads = Executors.newFixedThreadPool(8);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int thread = 0; thread < 8; thread++) {
                boolean transactional = thread % 2 == 0;
                int id = thread;
                done.add(threads.submit(() -> {
                    for (int i = 0; i < 25; i++) {
                        int attempt = i;
                        while (true) {
                            try {
                                if (transactional) {
                                    dynamo.transactWriteItems(t -> t.transactItems(add("t7", 1),
                                            put(other, item("pk", "t7-side-" + id + "-" + attempt))));
                                } else {
                                    dynamo.updateItem(u -> u.tableName(table).key(item("pk", "t7"))
                                            .updateExpression("ADD c :one")
                                            .expressionAttributeValues(Map.of(":one", n(1))));
                                }
                                applied.incrementAndGet();
                                break;
                            } catch (TransactionCanceledException | TransactionConflictException e) {
                                // DynamoDB may refuse one of two conflicting writes; it is then not applied: retry
                                conflicts.incrementAndGet();
                            }
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> future : done) {
                future.get(60, TimeUnit.SECONDS);
            }
        } finally {
            threads.shutdownNow();
        }
        assertEquals(200, applied.get());
        assertEquals(n(200), get(table, "t7").get("c"), "every acknowledged ADD counted once (" + conflicts.get()
                + " conflicts retried)");
    }

    @Test
    void ofConcurrentConditionalCreatesExactlyOneWins() throws Exception {
        AtomicInteger won = new AtomicInteger();
        AtomicInteger lost = new AtomicInteger();
        ExecutorService threads = Executors.newFixedThreadPool(8);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int thread = 0; thread < 8; thread++) {
                int id = thread;
                done.add(threads.submit(() -> {
                    try {
                        dynamo.putItem(p -> p.tableName(table).item(item("pk", "t9", "by", id))
                                .conditionExpression("attribute_not_exists(pk)"));
                        won.incrementAndGet();
                    } catch (software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException e) {
                        lost.incrementAndGet();
                    }
                    return null;
                }));
            }
            for (Future<?> future : done) {
                future.get(30, TimeUnit.SECONDS);
            }
        } finally {
            threads.shutdownNow();
        }
        assertEquals(1, won.get(), "one conditional create succeeds");
        assertEquals(7, lost.get());
    }

    @Test
    void transactionalReadsNeverSeeHalfATransaction() throws Exception {
        dynamo.putItem(p -> p.tableName(table).item(item("pk", "t10-a", "v", 100)));
        dynamo.putItem(p -> p.tableName(other).item(item("pk", "t10-b", "v", 100)));
        AtomicInteger torn = new AtomicInteger();
        AtomicInteger reads = new AtomicInteger();
        ExecutorService threads = Executors.newFixedThreadPool(3);
        try {
            Future<?> writer = threads.submit(() -> {
                for (int i = 0; i < 40; i++) {
                    int amount = i % 7 + 1;
                    try {
                        dynamo.transactWriteItems(t -> t.transactItems(
                                TransactWriteItem.builder().update(u -> u.tableName(table).key(item("pk", "t10-a"))
                                        .updateExpression("SET v = v - :x")
                                        .expressionAttributeValues(Map.of(":x", n(amount)))).build(),
                                TransactWriteItem.builder().update(u -> u.tableName(other).key(item("pk", "t10-b"))
                                        .updateExpression("SET v = v + :x")
                                        .expressionAttributeValues(Map.of(":x", n(amount)))).build()));
                    } catch (TransactionCanceledException | TransactionConflictException e) {
                        // a conflict with a reader: not applied, fine
                    }
                }
                return null;
            });
            List<Future<?>> readers = new ArrayList<>();
            for (int r = 0; r < 2; r++) {
                readers.add(threads.submit(() -> {
                    while (!writer.isDone()) {
                        try {
                            List<ItemResponse> both = dynamo.transactGetItems(t -> t.transactItems(
                                    TransactGetItem.builder().get(g -> g.tableName(table).key(item("pk", "t10-a")))
                                            .build(),
                                    TransactGetItem.builder().get(g -> g.tableName(other).key(item("pk", "t10-b")))
                                            .build())).responses();
                            int sum = Integer.parseInt(both.get(0).item().get("v").n())
                                    + Integer.parseInt(both.get(1).item().get("v").n());
                            reads.incrementAndGet();
                            if (sum != 200) {
                                torn.incrementAndGet();
                            }
                        } catch (TransactionCanceledException | TransactionConflictException e) {
                            // DynamoDB may cancel a read that conflicts with a write in flight
                        }
                    }
                    return null;
                }));
            }
            writer.get(60, TimeUnit.SECONDS);
            for (Future<?> reader : readers) {
                reader.get(60, TimeUnit.SECONDS);
            }
        } finally {
            threads.shutdownNow();
        }
        assertTrue(reads.get() > 0, "the readers read");
        assertEquals(0, torn.get(), "of " + reads.get() + " transactional reads none saw one item moved and not the other");
        int a = Integer.parseInt(get(table, "t10-a").get("v").n());
        int b = Integer.parseInt(get(other, "t10-b").get("v").n());
        assertEquals(200, a + b);
    }

    @Test
    void aCanceledTransactionHasNoPartialEffectsVisibleToReaders() {
        dynamo.putItem(p -> p.tableName(table).item(item("pk", "t8-a", "v", 0)));
        dynamo.putItem(p -> p.tableName(table).item(item("pk", "t8-b", "v", 0)));
        for (int i = 0; i < 20; i++) {
            assertThrows(TransactionCanceledException.class, () -> dynamo.transactWriteItems(t -> t.transactItems(
                    add("t8-a", 1),
                    TransactWriteItem.builder().update(u -> u.tableName(table).key(item("pk", "t8-b"))
                            .updateExpression("ADD c :one").conditionExpression("attribute_not_exists(v)")
                            .expressionAttributeValues(Map.of(":one", n(1)))).build())));
        }
        assertNull(get(table, "t8-a").get("c"));
        assertNull(get(table, "t8-b").get("c"));
        assertEquals(s("t8-a"), get(table, "t8-a").get("pk"));
    }
}
