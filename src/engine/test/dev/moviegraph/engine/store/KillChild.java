package dev.moviegraph.engine.store;

import dev.moviegraph.engine.Engine;
import dev.moviegraph.engine.EngineOptions;

import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.StreamSpecification;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;

/**
 * The process {@link KillTest} kills: an engine on a data folder, and writers that put items through the
 * SDK and print each key once its PutItem was answered ("ACK key"), until the process is killed. Arguments: the
 * data folder, the number of writers, and optionally the journal's compaction floor and each item's padding. The
 * table has an index of each writer's items and a stream.
 */
public final class KillChild {
    public static final String TABLE = "killed";
    /** Each writer's items by their number: a restart must have an entry for each item, no more. */
    public static final String INDEX = "byWriter";

    private KillChild() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        int writers = Integer.parseInt(args[1]);
        // optional: the journal's compaction floor, and the size of each item's padding
        long compactAfterBytes = args.length > 2 ? Long.parseLong(args[2])
                : EngineOptions.inMemory().compactAfterBytes();
        String pad = "p".repeat(args.length > 3 ? Integer.parseInt(args[3]) : 64);
        PrintStream out = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), false,
                StandardCharsets.UTF_8);
        Engine engine = Engine.start(EngineOptions.inMemory().withDataDir(dir).withCompactAfterBytes(compactAfterBytes));
        DynamoDbClient client = client(engine);
        client.createTable(request -> request.tableName(TABLE).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(AttributeDefinition.builder().attributeName("pk")
                        .attributeType(ScalarAttributeType.S).build(),
                        AttributeDefinition.builder().attributeName("w").attributeType(ScalarAttributeType.S).build(),
                        AttributeDefinition.builder().attributeName("n").attributeType(ScalarAttributeType.N).build())
                .keySchema(KeySchemaElement.builder().attributeName("pk").keyType(KeyType.HASH).build())
                .globalSecondaryIndexes(software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex.builder()
                        .indexName(INDEX)
                        .keySchema(KeySchemaElement.builder().attributeName("w").keyType(KeyType.HASH).build(),
                                KeySchemaElement.builder().attributeName("n").keyType(KeyType.RANGE).build())
                        .projection(p -> p.projectionType(
                                software.amazon.awssdk.services.dynamodb.model.ProjectionType.ALL)).build())
                .streamSpecification(StreamSpecification.builder().streamEnabled(true)
                        .streamViewType(StreamViewType.NEW_IMAGE).build()));
        synchronized (out) {
            out.println("PORT " + engine.port());
            out.flush();
        }
        for (int w = 0; w < writers; w++) {
            int writer = w;
            Thread thread = new Thread(() -> {
                for (int i = 0; ; i++) {
                    String key = "w" + writer + "-" + i;
                    String number = Integer.toString(i);
                    client.putItem(request -> request.tableName(TABLE).item(Map.of(
                            "pk", AttributeValue.fromS(key),
                            "w", AttributeValue.fromS("w" + writer),
                            "n", AttributeValue.fromN(number),
                            "pad", AttributeValue.fromS(pad))));
                    synchronized (out) {
                        out.println("ACK " + key);
                        out.flush();
                    }
                }
            }, "writer-" + w);
            thread.start();
        }
        Thread.sleep(Long.MAX_VALUE);
    }

    static DynamoDbClient client(Engine engine) {
        return DynamoDbClient.builder()
                .endpointOverride(engine.endpoint())
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("any", "any")))
                .build();
    }
}
