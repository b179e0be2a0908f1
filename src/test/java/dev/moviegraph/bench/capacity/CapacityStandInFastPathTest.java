package dev.moviegraph.bench.capacity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.local.EmbeddedDynamo;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletionException;
import java.util.function.Function;

import org.junit.jupiter.api.Test;

import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.retries.DefaultRetryStrategy;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.LocalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputExceededException;
import software.amazon.awssdk.services.dynamodb.model.PutItemResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemResponse;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * The stand-in's fast path (a PutItem or DeleteItem learning the item it replaced from its own answer, an
 * UpdateItem its new item, a transaction's items read in one BatchGetItem) charges exactly what reading
 * every item before and after each write charges: the same writes, each in its own simulated second,
 * leave the same units in every partition, the same refusals and the same table, through fewer calls to
 * DynamoDB Local. And the values it asked for and the caller did not are not in the caller's answers.
 */
class CapacityStandInFastPathTest {
    private static final String TABLE = "cap";

    /** One second's outcome: what each partition took, whether the write was refused, and how. */
    private record Second(String step, Map<String, Double> units, String outcome) {
    }

    @Test
    void theFastPathChargesWhatReadingEveryItemChargesWithFewerCalls() {
        try (EmbeddedDynamo dynamo = EmbeddedDynamo.ephemeral(false)) {
            Run slow = run(dynamo, true);
            Run fast = run(dynamo, false);

            assertEquals(slow.seconds(), fast.seconds());
            assertEquals(slow.table(), fast.table());
            assertEquals(slow.counts().writeUnits(), fast.counts().writeUnits(), 1e-9);
            assertEquals(slow.counts().readUnits(), fast.counts().readUnits(), 1e-9);
            assertEquals(slow.counts().requests(), fast.counts().requests());
            assertEquals(slow.counts().failedConditions(), fast.counts().failedConditions());
            assertTrue(fast.counts().forwarded() < slow.counts().forwarded() * 0.7,
                    fast.counts().forwarded() + " calls to DynamoDB Local against " + slow.counts().forwarded());

            // what the sequence is meant to show, seen in either run
            Map<String, Second> byStep = new LinkedHashMap<>();
            fast.seconds().forEach(second -> byStep.put(second.step(), second));
            // the table's partition k#1 takes the item and its local index (ALL) entry
            assertEquals(Map.of("cap/k#1", 2.0, "cap/index/all/a1", 1.0, "cap/index/keys/k1", 1.0, "cap/index/incl/i1", 1.0),
                    byStep.get("put").units(), "a new item is put in each index it has the keys of");
            assertEquals(Map.of("cap/k#1", 1.0), byStep.get("same put").units(),
                    "the same item again (1.50 stored as DynamoDB keeps it): no index write");
            assertEquals(Map.of("cap/k#1", 2.0, "cap/index/all/a1", 1.0), byStep.get("other attribute").units(),
                    "an attribute only ALL projects: the KEYS_ONLY and INCLUDE indexes are not written");
            assertEquals(Map.of("cap/k#1", 2.0, "cap/index/all/a1", 1.0, "cap/index/incl/i1", 1.0),
                    byStep.get("included attribute").units(), "the INCLUDE index's attribute: it is written, KEYS_ONLY not");
            assertEquals(Map.of("cap/k#1", 2.0, "cap/index/all/a1", 1.0, "cap/index/keys/k2", 1.0, "cap/index/keys/k1", 1.0),
                    byStep.get("keys-only key").units(), "a key of KEYS_ONLY moved: a delete and a put");
            assertEquals(Map.of("cap/k#1", 1.0), byStep.get("unchanged update").units());
            assertEquals("refused", byStep.get("past the limit").outcome());
            assertEquals(Map.of(), byStep.get("past the limit").units());
            assertEquals("condition failed", byStep.get("put if absent").outcome());
            assertEquals(Map.of("cap/k#1", 1.0), byStep.get("put if absent").units(), "a failed condition costs its write");
            assertEquals("cancelled", byStep.get("transaction, failed check").outcome());
            assertEquals(Map.of("k#", 2L, "t#", 1L), fast.counts().failedConditions());
        }
    }

    private record Run(List<Second> seconds, List<Map<String, AttributeValue>> table, CapacityStandIn.Counts counts) {
    }

    private static Run run(EmbeddedDynamo dynamo, boolean readEveryItem) {
        PartitionLedger ledger = new PartitionLedger();
        List<Second> seconds = new ArrayList<>();
        try (CapacityStandIn standIn = readEveryItem ? CapacityStandIn.startReadingEveryItem(dynamo.endpoint(), ledger)
                : CapacityStandIn.start(dynamo.endpoint(), ledger);
             DynamoDbAsyncClient client = client(standIn)) {
            createTable(client);
            Map<String, AttributeValue> item = new TreeMap<>(Map.of("pk", s("k#1"), "sk", s("a"), "lsk", s("l"),
                    "apk", s("a1"), "kpk", s("k1"), "ksk", n("1.50"), "ipk", s("i1"), "title", s("T"), "other", n("7")));
            step(ledger, seconds, "put", () -> client.putItem(put -> put.tableName(TABLE).item(item)).join());
            step(ledger, seconds, "same put", () -> {
                PutItemResponse answer = client.putItem(put -> put.tableName(TABLE).item(item)).join();
                assertFalse(answer.hasAttributes(), "the stand-in's ALL_OLD is not passed on");
                return answer;
            });
            step(ledger, seconds, "other attribute", () -> update(client, "SET #o = :v", "other", n("8")));
            step(ledger, seconds, "included attribute", () -> update(client, "SET #o = :v", "title", s("U")));
            step(ledger, seconds, "keys-only key", () -> update(client, "SET #o = :v", "kpk", s("k2")));
            step(ledger, seconds, "unchanged update", () -> update(client, "SET #o = :v", "kpk", s("k2")));
            step(ledger, seconds, "the caller's values", () -> {
                UpdateItemResponse answer = client.updateItem(update -> update.tableName(TABLE).key(key("k#1"))
                        .updateExpression("ADD #o :v").expressionAttributeNames(Map.of("#o", "other"))
                        .expressionAttributeValues(Map.of(":v", n("1"))).returnValues(ReturnValue.UPDATED_NEW)).join();
                assertEquals(Map.of("other", n("9")), answer.attributes());
                return answer;
            });
            step(ledger, seconds, "old values asked", () -> {
                Map<String, AttributeValue> copy = new TreeMap<>(item);
                copy.put("pk", s("k#9"));
                client.putItem(put -> put.tableName(TABLE).item(copy)).join();
                PutItemResponse answer = client.putItem(put -> put.tableName(TABLE).item(copy)
                        .returnValues(ReturnValue.ALL_OLD)).join();
                assertEquals(copy.keySet(), answer.attributes().keySet(), "asked for, so passed on");
                return answer;
            });
            step(ledger, seconds, "put if absent", () -> client.putItem(put -> put.tableName(TABLE).item(item)
                    .conditionExpression("attribute_not_exists(pk)")).join());
            step(ledger, seconds, "update if", () -> client.updateItem(update -> update.tableName(TABLE).key(key("k#1"))
                    .updateExpression("SET #o = :v").conditionExpression("#o = :w")
                    .expressionAttributeNames(Map.of("#o", "other"))
                    .expressionAttributeValues(Map.of(":v", n("1"), ":w", n("2")))).join());
            step(ledger, seconds, "transaction", () -> client.transactWriteItems(transaction -> transaction.transactItems(
                    put -> put.put(p -> p.tableName(TABLE).item(Map.of("pk", s("t#1"), "sk", s("a"), "apk", s("a2")))),
                    update -> update.update(u -> u.tableName(TABLE).key(key("k#1")).updateExpression("SET #o = :v")
                            .expressionAttributeNames(Map.of("#o", "ipk")).expressionAttributeValues(Map.of(":v", s("i2")))),
                    check -> check.conditionCheck(c -> c.tableName(TABLE).key(key("k#9"))
                            .conditionExpression("attribute_exists(pk)")),
                    delete -> delete.delete(d -> d.tableName(TABLE).key(key("nothing"))))).join());
            step(ledger, seconds, "transaction, failed check", () -> client.transactWriteItems(transaction -> transaction
                    .transactItems(update -> update.update(u -> u.tableName(TABLE).key(key("k#9")).updateExpression("SET #o = :v")
                                    .expressionAttributeNames(Map.of("#o", "title")).expressionAttributeValues(Map.of(":v", s("V")))),
                            check -> check.conditionCheck(c -> c.tableName(TABLE).key(key("t#1"))
                                    .conditionExpression("attribute_not_exists(pk)")))).join());
            step(ledger, seconds, "batch", () -> client.batchWriteItem(batch -> batch.requestItems(Map.of(TABLE, List.of(
                    WriteRequest.builder().putRequest(p -> p.item(Map.of("pk", s("b#1"), "sk", s("a"), "kpk", s("k3"),
                            "ksk", n("2")))).build(),
                    WriteRequest.builder().deleteRequest(d -> d.key(key("t#1"))).build())))).join());
            step(ledger, seconds, "delete", () -> client.deleteItem(delete -> delete.tableName(TABLE).key(key("k#9"))).join());
            ledger.limits(2, 3_000);
            step(ledger, seconds, "past the limit", () -> update(client, "SET #o = :v", "title", s("x".repeat(2_000))));
            ledger.limits(PartitionLedger.WRITE_UNITS_PER_SECOND, PartitionLedger.READ_UNITS_PER_SECOND);
            List<Map<String, AttributeValue>> table = new ArrayList<>(client.scan(scan -> scan.tableName(TABLE)).join()
                    .items().stream().map(found -> (Map<String, AttributeValue>) new TreeMap<>(found)).toList());
            table.sort(Comparator.comparing(found -> found.get("pk").s()));
            assertEquals("U", table.stream().filter(found -> found.get("pk").s().equals("k#1")).findFirst().orElseThrow()
                    .get("title").s(), "the refused write was undone");
            client.deleteTable(delete -> delete.tableName(TABLE)).join();
            return new Run(seconds, table, standIn.counts());
        }
    }

    private static void step(PartitionLedger ledger, List<Second> seconds, String name, java.util.function.Supplier<?> write) {
        ledger.second(seconds.size() + 1);
        String outcome;
        try {
            write.get();
            outcome = "done";
        } catch (CompletionException e) {
            if (e.getCause() instanceof ConditionalCheckFailedException) {
                outcome = "condition failed";
            } else if (e.getCause() instanceof ProvisionedThroughputExceededException) {
                outcome = "refused";
            } else if (e.getCause() instanceof TransactionCanceledException) {
                outcome = "cancelled";
            } else {
                throw e;
            }
        }
        Map<String, Double> units = new TreeMap<>();
        ledger.usedThisSecond().forEach((key, used) -> units.merge(key.resource() + "/" + key.partition(), used, Double::sum));
        seconds.add(new Second(name, units, outcome));
    }

    private static UpdateItemResponse update(DynamoDbAsyncClient client, String expression, String name, AttributeValue value) {
        return client.updateItem(update -> update.tableName(TABLE).key(key("k#1")).updateExpression(expression)
                .expressionAttributeNames(Map.of("#o", name)).expressionAttributeValues(Map.of(":v", value))).join();
    }

    private static void createTable(DynamoDbAsyncClient client) {
        Function<String, AttributeDefinition> string = name -> AttributeDefinition.builder().attributeName(name)
                .attributeType(ScalarAttributeType.S).build();
        client.createTable(create -> create.tableName(TABLE).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(string.apply("pk"), string.apply("sk"), string.apply("lsk"), string.apply("apk"),
                        string.apply("kpk"), AttributeDefinition.builder().attributeName("ksk")
                                .attributeType(ScalarAttributeType.N).build(), string.apply("ipk"))
                .keySchema(hash("pk"), range("sk"))
                .localSecondaryIndexes(LocalSecondaryIndex.builder().indexName("lsi").keySchema(hash("pk"), range("lsk"))
                        .projection(Projection.builder().projectionType(ProjectionType.ALL).build()).build())
                .globalSecondaryIndexes(
                        GlobalSecondaryIndex.builder().indexName("all").keySchema(hash("apk"))
                                .projection(Projection.builder().projectionType(ProjectionType.ALL).build()).build(),
                        GlobalSecondaryIndex.builder().indexName("keys").keySchema(hash("kpk"), range("ksk"))
                                .projection(Projection.builder().projectionType(ProjectionType.KEYS_ONLY).build()).build(),
                        GlobalSecondaryIndex.builder().indexName("incl").keySchema(hash("ipk"))
                                .projection(Projection.builder().projectionType(ProjectionType.INCLUDE)
                                        .nonKeyAttributes("title").build()).build())).join();
    }

    private static DynamoDbAsyncClient client(CapacityStandIn standIn) {
        return DynamoDbAsyncClient.builder().endpointOverride(standIn.endpoint()).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local")))
                .overrideConfiguration(o -> o.retryStrategy(DefaultRetryStrategy.doNotRetry())).build();
    }

    private static KeySchemaElement hash(String name) {
        return KeySchemaElement.builder().attributeName(name).keyType(KeyType.HASH).build();
    }

    private static KeySchemaElement range(String name) {
        return KeySchemaElement.builder().attributeName(name).keyType(KeyType.RANGE).build();
    }

    private static Map<String, AttributeValue> key(String pk) {
        return Map.of("pk", s(pk), "sk", s("a"));
    }

    private static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }

    private static AttributeValue n(String value) {
        return AttributeValue.fromN(value);
    }
}
