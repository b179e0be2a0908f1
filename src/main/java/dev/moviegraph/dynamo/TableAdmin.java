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

    /**
     * The ARN of the table's change stream for TOTALS=stream, turning a stream of new images on when
     * allowed; fails with what to do when the table has none.
     */
    public String ensureStream(boolean mayEnable) {
        var description = client.describeTable(describe()).join().table();
        if (description.latestStreamArn() != null && description.streamSpecification() != null
                && Boolean.TRUE.equals(description.streamSpecification().streamEnabled())) {
            return description.latestStreamArn();
        }
        if (!mayEnable) {
            throw new IllegalStateException("TOTALS=stream needs a DynamoDB stream (NEW_IMAGE) on table " + table
                    + "; enable it or set CREATE_TABLE=true to let the server enable it");
        }
        client.updateTable(software.amazon.awssdk.services.dynamodb.model.UpdateTableRequest.builder().tableName(table)
                .streamSpecification(TableLayout.createTableRequest(table).streamSpecification())
                .overrideConfiguration(STARTUP).build()).join();
        client.waiter().waitUntilTableExists(describe()).join();
        return client.describeTable(describe()).join().table().latestStreamArn();
    }

    /** Creates the table if it is missing and waits until it is active. Returns whether it created it. */
    public boolean ensureTable() {
        return create(TableLayout.createTableRequest(table));
    }

    /** The same table without its stream yet (the build's snapshot enables it after loading the sample). */
    public boolean ensureTableWithoutStream() {
        return create(TableLayout.createTableRequest(table).toBuilder().streamSpecification(
                software.amazon.awssdk.services.dynamodb.model.StreamSpecification.builder().streamEnabled(false).build())
                .build());
    }

    private boolean create(software.amazon.awssdk.services.dynamodb.model.CreateTableRequest request) {
        if (exists()) {
            return false;
        }
        client.createTable(request.toBuilder().overrideConfiguration(STARTUP).build()).join();
        client.waiter().waitUntilTableExists(describe()).join();
        return true;
    }
}
