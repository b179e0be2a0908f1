package dev.moviegraph.dynamo.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.local.EmbeddedDynamo;

import java.net.URI;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.ListTablesResponse;

/** The client the server builds while its embedded engine is still opening its data. */
class StartingEngineClientTest {
    @Test
    void aCallMadeBeforeTheEngineIsUpGoesToItOnceItsEndpointIsKnown() throws Exception {
        CompletableFuture<URI> endpoint = new CompletableFuture<>();
        try (DynamoDbAsyncClient client = DynamoClients.createForStarting(endpoint, List.of());
             EmbeddedDynamo engine = EmbeddedDynamo.ephemeral(false)) {
            // the SDK may resolve the endpoint on the calling thread: the call is made on one of its own
            CompletableFuture<ListTablesResponse> call = CompletableFuture.supplyAsync(
                    () -> client.listTables().join());
            Thread.sleep(300);
            assertFalse(call.isDone(), "answered before the engine's endpoint was known");
            endpoint.complete(engine.endpoint());
            assertTrue(call.get(30, TimeUnit.SECONDS).tableNames().isEmpty());
            // and later calls go straight there
            assertEquals(List.of(), client.listTables().get(30, TimeUnit.SECONDS).tableNames());
        }
    }

    @Test
    void anEngineThatFailedToStartFailsTheCallWithItsReason() {
        CompletableFuture<URI> endpoint = new CompletableFuture<>();
        try (DynamoDbAsyncClient client = DynamoClients.createForStarting(endpoint, List.of())) {
            endpoint.completeExceptionally(new IllegalStateException("the data folder is in use"));
            ExecutionException failure = assertThrows(ExecutionException.class,
                    () -> CompletableFuture.supplyAsync(() -> client.listTables().join()).get(30, TimeUnit.SECONDS));
            Throwable cause = failure;
            while (cause.getCause() != null && !(cause instanceof IllegalStateException)) {
                cause = cause.getCause();
            }
            assertInstanceOf(IllegalStateException.class, cause, () -> "no engine failure in " + failure);
            assertEquals("the data folder is in use", cause.getMessage());
        }
    }
}
