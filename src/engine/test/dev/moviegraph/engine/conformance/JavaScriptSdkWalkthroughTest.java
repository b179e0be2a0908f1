package dev.moviegraph.engine.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import dev.moviegraph.engine.Engine;
import dev.moviegraph.engine.EngineOptions;
import dev.moviegraph.support.NodeScripts;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * A client that is not ours against the engine: the AWS SDK for JavaScript v3, as its users use it
 * (src/test/js/dynamodb-walkthrough.mjs): tables and PartiQL through the low-level DynamoDBClient, items
 * through lib-dynamodb's DynamoDBDocumentClient, the stream through DynamoDBStreamsClient. The script asserts
 * every answer as DynamoDB gives it and stops at the first divergence, naming the step; this test only checks
 * that it went through all of them. Like every JavaScript test of the project it needs Node and fails, not
 * skips, without it.
 */
class JavaScriptSdkWalkthroughTest {
    private static final List<String> STEPS = List.of(
            "CreateTable with a stream and a global secondary index",
            "waitUntilTableExists, then DescribeTable and ListTables",
            "Put and Get through the document client",
            "Update with a condition that holds",
            "Update with a condition that fails: ConditionalCheckFailedException",
            "BatchWrite then BatchGet",
            "Query a key condition, page by page with Limit and ExclusiveStartKey",
            "Query the global secondary index",
            "TransactWrite that succeeds",
            "TransactWrite that is cancelled: TransactionCanceledException with CancellationReasons",
            "Delete returning the old item",
            "Stream: ListStreams, DescribeStream, GetShardIterator, GetRecords",
            "PartiQL: ExecuteStatement INSERT, then SELECT with a parameter",
            "PartiQL: BatchExecuteStatement writes, then reads",
            "PartiQL: ExecuteTransaction",
            "DeleteTable, then waitUntilTableNotExists");

    @Test
    void theJavaScriptSdkWalksThroughATablesLifeAsAgainstDynamoDb() {
        try (Engine engine = Engine.start(EngineOptions.inMemory())) {
            NodeScripts.Result result = NodeScripts.run("dynamodb-walkthrough.mjs", engine.endpoint().toString(),
                    Conformance.tableName("sdk-walkthrough"));

            assertEquals(0, result.exitCode(), result.toString());
            assertNotNull(result.json(), result.toString());
            List<String> passed = new ArrayList<>();
            result.json().path("passed").forEach(step -> passed.add(step.asText()));
            assertEquals(STEPS, passed, result.toString());
        }
    }
}
