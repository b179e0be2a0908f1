package dev.moviegraph.bench.capacity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.local.EmbeddedDynamo;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

import org.junit.jupiter.api.Test;

import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.retries.DefaultRetryStrategy;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputExceededException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/**
 * A write the stand-in refuses is made in DynamoDB Local and then undone; DynamoDB never makes it at all. So no
 * read by key, consistent or not, may see it in between: a top-list merge that read a refused increment
 * listed a count no client was told of (the capacity benchmark's top 10 then came out inexact now and then).
 */
class CapacityStandInRefusedWriteTest {
    private static final String TABLE = "refused";
    private static final Map<String, AttributeValue> KEY = Map.of("pk", AttributeValue.fromS("k#1"));

    /**
     * 1 when the write is refused as {@code expected}. A 500 (DynamoDB's own fault, here a dropped connection to
     * DynamoDB Local) or a connection the stand-in's HTTP server dropped before reading the request (the JDK's
     * server now and then closes a kept-alive connection as the client reuses it: "no request line") is sent
     * again, as the SDK's retries would; the writer's client has none, so that refusals are counted.
     */
    private static int refusedAs(Class<? extends Exception> expected, Supplier<CompletableFuture<?>> write) {
        for (int attempt = 1; ; attempt++) {
            try {
                write.get().join();
                return 0;
            } catch (CompletionException e) {
                boolean transport = e.getCause() instanceof DynamoDbException fault && fault.statusCode() >= 500
                        || e.getCause() instanceof SdkClientException;
                if (transport && attempt < 5) {
                    continue;
                }
                assertTrue(expected.isInstance(e.getCause()), e.toString());
                return 1;
            }
        }
    }

    @Test
    void noReadByKeySeesAWriteTheStandInRefused() throws Exception {
        PartitionLedger ledger = new PartitionLedger();
        ExecutorService readers = Executors.newFixedThreadPool(2);
        try (EmbeddedDynamo dynamo = EmbeddedDynamo.ephemeral(false);
             CapacityStandIn standIn = CapacityStandIn.start(dynamo.endpoint(), ledger);
             DynamoDbAsyncClient client = DynamoDbAsyncClient.builder().endpointOverride(standIn.endpoint())
                     .region(Region.US_EAST_1).credentialsProvider(StaticCredentialsProvider.create(
                             AwsBasicCredentials.create("local", "local")))
                     .overrideConfiguration(o -> o.retryStrategy(DefaultRetryStrategy.doNotRetry())).build();
             // the readers retry as any DynamoDB client does: what they must never see is a refused write
             DynamoDbAsyncClient reader = DynamoDbAsyncClient.builder().endpointOverride(standIn.endpoint())
                     .region(Region.US_EAST_1).credentialsProvider(StaticCredentialsProvider.create(
                             AwsBasicCredentials.create("local", "local"))).build()) {
            client.createTable(create -> create.tableName(TABLE).billingMode(BillingMode.PAY_PER_REQUEST)
                    .attributeDefinitions(AttributeDefinition.builder().attributeName("pk")
                            .attributeType(ScalarAttributeType.S).build())
                    .keySchema(KeySchemaElement.builder().attributeName("pk").keyType(KeyType.HASH).build())).join();
            client.putItem(put -> put.tableName(TABLE).item(Map.of("pk", KEY.get("pk"), "n", AttributeValue.fromN("0"))))
                    .join();
            ledger.limits(0.5, 1e12); // every write refused, every read answered

            AtomicBoolean writing = new AtomicBoolean(true);
            Future<Long> byGetItem = readers.submit(() -> {
                long seen = 0;
                while (writing.get()) {
                    seen = Math.max(seen, Long.parseLong(reader.getItem(get -> get.tableName(TABLE).key(KEY)
                            .consistentRead(true)).join().item().get("n").n()));
                }
                return seen;
            });
            Future<Long> byBatch = readers.submit(() -> {
                long seen = 0;
                while (writing.get()) {
                    seen = Math.max(seen, Long.parseLong(reader.batchGetItem(batch -> batch.requestItems(Map.of(TABLE,
                            KeysAndAttributes.builder().keys(KEY).build()))).join().responses().get(TABLE).get(0)
                            .get("n").n()));
                }
                return seen;
            });
            int refused = 0;
            try {
                for (int i = 0; i < 150; i++) {
                    refused += refusedAs(ProvisionedThroughputExceededException.class, () -> client.updateItem(update -> update
                            .tableName(TABLE).key(KEY).updateExpression("ADD n :one")
                            .expressionAttributeValues(Map.of(":one", AttributeValue.fromN("1")))));
                    refused += refusedAs(TransactionCanceledException.class, () -> client.transactWriteItems(transaction ->
                            transaction.transactItems(item -> item.update(update -> update.tableName(TABLE).key(KEY)
                                    .updateExpression("ADD n :one")
                                    .expressionAttributeValues(Map.of(":one", AttributeValue.fromN("1")))))));
                }
            } finally {
                writing.set(false);
            }
            assertEquals(300, refused);
            assertEquals(0, byGetItem.get(), "a GetItem saw a refused write before it was undone");
            assertEquals(0, byBatch.get(), "a BatchGetItem saw a refused write before it was undone");
        } finally {
            readers.shutdownNow();
        }
    }
}
