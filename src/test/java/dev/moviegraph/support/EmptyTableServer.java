package dev.moviegraph.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.Moviegraph;
import dev.moviegraph.config.AppConfig;
import dev.moviegraph.dynamo.client.DynamoClients;
import dev.moviegraph.local.EmbeddedDynamo;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;

/**
 * A server of its own over an empty table in an engine of its own (no sample), for a test that
 * writes items straight into the table beside the server's writes; {@link #ok} sends the write token.
 */
public final class EmptyTableServer implements AutoCloseable {
    private final String token;
    private final EmbeddedDynamo dynamo;
    private final DynamoDbAsyncClient sdk;
    private final Moviegraph server;
    private final GraphQLClient client;

    public EmptyTableServer(String token, List<ExecutionInterceptor> interceptors) {
        this.token = token;
        dynamo = EmbeddedDynamo.ephemeral(false);
        sdk = DynamoClients.create(dynamo.endpoint(), List.of());
        server = Moviegraph.start(AppConfig.fromEnvironment(Map.of("PORT", "0",
                "DYNAMODB_ENDPOINT", dynamo.endpoint().toString(), "CREATE_TABLE", "true", "WRITE_TOKEN", token)),
                interceptors);
        client = new GraphQLClient(server.port());
    }

    /** A client of the table itself, past the server. */
    public DynamoDbAsyncClient sdk() {
        return sdk;
    }

    public int port() {
        return server.port();
    }

    public GraphQLClient client() {
        return client;
    }

    /** Runs a query or mutation (with the write token) that must succeed, and returns its data. */
    public JsonNode ok(String query) {
        GraphQLClient.Response response = client.post(GraphQLClient.body(query, Map.of()), "application/json",
                "application/json", Map.of("Authorization", "Bearer " + token));
        assertEquals(200, response.status(), response.raw().body());
        assertTrue(response.errors().isMissingNode(), () -> "unexpected errors: " + response.raw().body());
        assertFalse(response.raw().body().contains("Exception"));
        return response.data();
    }

    @Override
    public void close() {
        server.close();
        sdk.close();
        dynamo.close();
    }
}
