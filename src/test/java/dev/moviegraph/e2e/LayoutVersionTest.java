package dev.moviegraph.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.Moviegraph;
import dev.moviegraph.config.AppConfig;
import dev.moviegraph.dynamo.admin.TableAdmin;
import dev.moviegraph.dynamo.client.DynamoClients;
import dev.moviegraph.dynamo.model.TableModel;
import dev.moviegraph.local.EmbeddedDynamo;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;

/**
 * The table records the layout it was written with; a server pointed at a table of another layout
 * refuses to start, says what to run, and writes nothing to it.
 */
class LayoutVersionTest {
    private static EmbeddedDynamo dynamo;
    private static DynamoDbAsyncClient client;

    @BeforeAll
    static void start() {
        dynamo = EmbeddedDynamo.ephemeral(false);
        client = DynamoClients.create(dynamo.endpoint(), List.of());
    }

    @AfterAll
    static void stop() {
        client.close();
        dynamo.close();
    }

    private static AppConfig config(String table) {
        return AppConfig.fromEnvironment(Map.of("DYNAMODB_ENDPOINT", dynamo.endpoint().toString(), "TABLE_NAME", table,
                "CREATE_TABLE", "true", "LOAD_SAMPLE", "false", "PORT", "0"));
    }

    private static int count(String table) {
        return client.scan(ScanRequest.builder().tableName(table).build()).join().count();
    }

    /** A table as layout 1 made it: GSI1 was the inversion of the table's keys, and there was no layout item. */
    private static void createLayoutOneTable(String table) {
        KeySchemaElement pk = KeySchemaElement.builder().attributeName("pk").keyType(KeyType.HASH).build();
        KeySchemaElement sk = KeySchemaElement.builder().attributeName("sk").keyType(KeyType.RANGE).build();
        client.createTable(CreateTableRequest.builder().tableName(table).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(AttributeDefinition.builder().attributeName("pk").attributeType(ScalarAttributeType.S).build(),
                        AttributeDefinition.builder().attributeName("sk").attributeType(ScalarAttributeType.S).build())
                .keySchema(pk, sk)
                .globalSecondaryIndexes(GlobalSecondaryIndex.builder().indexName("gsi1")
                        .keySchema(KeySchemaElement.builder().attributeName("sk").keyType(KeyType.HASH).build(),
                                KeySchemaElement.builder().attributeName("pk").keyType(KeyType.RANGE).build())
                        .projection(Projection.builder().projectionType(ProjectionType.ALL).build()).build())
                .build()).join();
        client.putItem(PutItemRequest.builder().tableName(table).item(Map.of("pk", AttributeValue.fromS("act#nm0000001"),
                "sk", AttributeValue.fromS("act#nm0000001"), "type", AttributeValue.fromS("actor"),
                "actorId", AttributeValue.fromS("nm0000001"), "name", AttributeValue.fromS("Old Layout"))).build()).join();
    }

    @Test
    void aTableOfTheEarlierLayoutIsRefusedWithWhatToRunAndNothingWritten() {
        createLayoutOneTable("layout-one");
        IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> Moviegraph.start(config("layout-one"), List.of()).close());
        assertTrue(refused.getMessage().contains("java -jar moviegraph.jar migrate"), refused.getMessage());
        assertTrue(refused.getMessage().contains("nothing was written"), refused.getMessage());
        assertEquals(1, count("layout-one"), "nothing written to the refused table");
        assertEquals(TableAdmin.Layout.OLDER, new TableAdmin(client, "layout-one").layout());
    }

    @Test
    void aNewTableRecordsItsLayoutAndALaterLayoutIsRefused() {
        try (Moviegraph server = Moviegraph.start(config("layout-new"), List.of())) {
            assertTrue(server.port() > 0);
        }
        TableAdmin admin = new TableAdmin(client, "layout-new");
        assertEquals(TableAdmin.Layout.CURRENT, admin.layout());
        client.putItem(PutItemRequest.builder().tableName("layout-new").item(Map.of(
                "pk", AttributeValue.fromS("meta#layout"), "sk", AttributeValue.fromS("meta#layout"),
                "type", AttributeValue.fromS("meta"), "name", AttributeValue.fromS("layout"),
                "layoutVersion", AttributeValue.fromN(Integer.toString(TableModel.LAYOUT_VERSION + 1)))).build()).join();
        IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> Moviegraph.start(config("layout-new"), List.of()).close());
        assertTrue(refused.getMessage().contains("later layout"), refused.getMessage());
    }
}
