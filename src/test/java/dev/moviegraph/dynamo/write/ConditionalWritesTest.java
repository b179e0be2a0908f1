package dev.moviegraph.dynamo.write;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.catalog.CallContext;
import dev.moviegraph.catalog.StoreUnavailableException;
import dev.moviegraph.dynamo.admin.TableAdmin;
import dev.moviegraph.dynamo.client.DynamoClients;
import dev.moviegraph.dynamo.model.Access;
import dev.moviegraph.dynamo.model.Condition;
import dev.moviegraph.dynamo.model.Expression;
import dev.moviegraph.dynamo.model.ItemUpdate;
import dev.moviegraph.dynamo.model.TableModel;
import dev.moviegraph.local.EmbeddedDynamo;
import dev.moviegraph.metrics.GatewayMetrics;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * A conditional write whose condition fails is an answer, not a failure: the top lists, the stream
 * counters' checkpoints and the late copies of a rename all go on from {@code false}. Only DynamoDB's
 * own failures are thrown, as the catalog's.
 */
class ConditionalWritesTest {
    private static final String TABLE = "moviegraph";
    private static final CallContext CONTEXT = new CallContext(new GatewayMetrics(), List.of("test"));
    private static EmbeddedDynamo dynamo;
    private static DynamoDbAsyncClient client;

    @BeforeAll
    static void table() {
        dynamo = EmbeddedDynamo.ephemeral(false);
        client = DynamoClients.create(dynamo.endpoint(), List.of());
        new TableAdmin(client, TABLE).ensureTable();
    }

    @AfterAll
    static void close() {
        client.close();
        dynamo.close();
    }

    private static PutItemRequest.Builder putIfAbsent(String table, String name) {
        Expression absent = Expression.of(Condition.notExists(TableModel.PK));
        return PutItemRequest.builder().tableName(table)
                .item(Map.of(TableModel.PK, AttributeValue.fromS("test#" + name), TableModel.SK, AttributeValue.fromS("test")))
                .conditionExpression(absent.condition()).expressionAttributeNames(absent.names());
    }

    @Test
    void aFailedConditionIsFalseAndTheWriteIsNotMade() {
        assertTrue(ConditionalWrites.putIf(client, CONTEXT, Access.TOP_LIST_WRITE, putIfAbsent(TABLE, "once")));
        assertFalse(ConditionalWrites.putIf(client, CONTEXT, Access.TOP_LIST_WRITE, putIfAbsent(TABLE, "once")));

        Map<String, AttributeValue> key = Map.of(TableModel.PK, AttributeValue.fromS("test#once"),
                TableModel.SK, AttributeValue.fromS("test"));
        Expression below = Expression.of(ItemUpdate.create().set("n", AttributeValue.fromN("5")),
                Condition.compare("n", "<", AttributeValue.fromN("3")));
        UpdateItemRequest.Builder update = UpdateItemRequest.builder().tableName(TABLE).key(key)
                .updateExpression(below.update()).conditionExpression(below.condition())
                .expressionAttributeNames(below.names()).expressionAttributeValues(below.values());
        assertFalse(ConditionalWrites.updateIf(client, CONTEXT, Access.TOP_LIST_WRITE, update),
                "n is absent, so n < 3 does not hold");
        assertEquals(Map.of(), client.getItem(request -> request.tableName(TABLE).key(key).consistentRead(true)).join()
                .item().entrySet().stream().filter(attribute -> attribute.getKey().equals("n"))
                .collect(java.util.stream.Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue)));
    }

    @Test
    void anyOtherFailureIsTheCatalogsUnavailableStore() {
        RuntimeException failure = assertThrows(RuntimeException.class,
                () -> ConditionalWrites.putIf(client, CONTEXT, Access.TOP_LIST_WRITE, putIfAbsent("no-such-table", "x")));
        assertInstanceOf(StoreUnavailableException.class, failure, failure.toString());
    }
}
