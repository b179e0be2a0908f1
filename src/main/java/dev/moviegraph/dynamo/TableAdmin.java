package dev.moviegraph.dynamo;

import java.util.concurrent.CompletionException;

import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.DescribeTableRequest;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;

/** Creates the table and its indexes when missing, and tells whether it exists. */
public final class TableAdmin {
    private final DynamoDbAsyncClient client;
    private final String table;

    public TableAdmin(DynamoDbAsyncClient client, String table) {
        this.client = client;
        this.table = table;
    }

    public boolean exists() {
        try {
            client.describeTable(DescribeTableRequest.builder().tableName(table).build()).join();
            return true;
        } catch (CompletionException e) {
            if (e.getCause() instanceof ResourceNotFoundException) {
                return false;
            }
            throw e;
        }
    }

    /** Creates the table if it is missing and waits until it is active. Returns whether it created it. */
    public boolean ensureTable() {
        if (exists()) {
            return false;
        }
        client.createTable(TableLayout.createTableRequest(table)).join();
        client.waiter().waitUntilTableExists(DescribeTableRequest.builder().tableName(table).build()).join();
        return true;
    }
}
