package dev.moviegraph.dynamo;

import java.time.Duration;
import java.util.concurrent.CompletionException;

import software.amazon.awssdk.awscore.AwsRequestOverrideConfiguration;

import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.DescribeTableRequest;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;

/** Creates the table and its indexes when missing, and tells whether it exists. */
public final class TableAdmin {
    /**
     * Start-up calls may wait for a cold DynamoDB Local to open its database file, far longer than the
     * per-attempt timeout that suits queries.
     */
    static final AwsRequestOverrideConfiguration STARTUP = AwsRequestOverrideConfiguration.builder()
            .apiCallAttemptTimeout(Duration.ofSeconds(60))
            .apiCallTimeout(Duration.ofSeconds(120))
            .build();

    private final DynamoDbAsyncClient client;
    private final String table;

    public TableAdmin(DynamoDbAsyncClient client, String table) {
        this.client = client;
        this.table = table;
    }

    public boolean exists() {
        try {
            client.describeTable(describe()).join();
            return true;
        } catch (CompletionException e) {
            if (e.getCause() instanceof ResourceNotFoundException) {
                return false;
            }
            throw e;
        }
    }

    private DescribeTableRequest describe() {
        return DescribeTableRequest.builder().tableName(table).overrideConfiguration(STARTUP).build();
    }

    /** Creates the table if it is missing and waits until it is active. Returns whether it created it. */
    public boolean ensureTable() {
        if (exists()) {
            return false;
        }
        client.createTable(TableLayout.createTableRequest(table).toBuilder()
                .overrideConfiguration(STARTUP).build()).join();
        client.waiter().waitUntilTableExists(describe()).join();
        return true;
    }
}
