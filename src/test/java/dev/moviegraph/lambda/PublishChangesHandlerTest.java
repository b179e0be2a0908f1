package dev.moviegraph.lambda;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.dynamo.client.DynamoClients;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.util.List;
import java.util.Map;

import com.amazonaws.services.lambda.runtime.events.DynamodbEvent.DynamodbStreamRecord;
import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import com.amazonaws.services.lambda.runtime.events.models.dynamodb.AttributeValue;
import com.amazonaws.services.lambda.runtime.events.models.dynamodb.StreamRecord;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;

/**
 * What the publishing function answers Lambda (the publishing itself is proven end to end in
 * SubscriptionsPublishedByLambdaTest): nothing to retry for an empty batch, and when the log cannot be
 * written, an error, so Lambda retries the whole batch whatever the mapping's response types.
 */
class PublishChangesHandlerTest {
    private static DynamodbStreamRecord record(String sequence, String movie) {
        DynamodbStreamRecord record = new DynamodbStreamRecord();
        record.setEventName("MODIFY");
        record.setDynamodb(new StreamRecord().withSequenceNumber(sequence).withKeys(Map.of(
                "pk", new AttributeValue().withS("mov#" + movie), "sk", new AttributeValue().withS("tot#2026-11"))));
        return record;
    }

    private static DynamodbEvent event(List<DynamodbStreamRecord> records) {
        DynamodbEvent event = new DynamodbEvent();
        event.setRecords(records);
        return event;
    }

    @Test
    void aBatchThatCannotBePublishedFailsTheInvocationSoLambdaRetriesIt() throws IOException {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        try (DynamoDbAsyncClient unreachable = DynamoClients.create(URI.create("http://127.0.0.1:" + closedPort), List.of())) {
            PublishChangesHandler function = new PublishChangesHandler(unreachable, "moviegraph");
            IllegalStateException failed = assertThrows(IllegalStateException.class, () -> function.handleRequest(
                    event(List.of(record("100", "tt0000001"), record("101", "tt0000002"))), null));
            assertTrue(failed.getMessage().contains("from 100"), failed.getMessage());
            assertTrue(function.handleRequest(event(List.of()), null).getBatchItemFailures().isEmpty(),
                    "an empty batch has nothing to publish");
        }
    }
}
