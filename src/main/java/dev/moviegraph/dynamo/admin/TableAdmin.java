package dev.moviegraph.dynamo.admin;

import dev.moviegraph.dynamo.client.DynamoClients;
import dev.moviegraph.dynamo.model.Index;
import dev.moviegraph.dynamo.model.TableDefinition;
import dev.moviegraph.dynamo.model.TableModel;

import java.util.concurrent.CompletionException;

import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.DescribeTableRequest;
import software.amazon.awssdk.services.dynamodb.model.DescribeTimeToLiveRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveSpecification;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveStatus;
import software.amazon.awssdk.services.dynamodb.model.UpdateTimeToLiveRequest;

/** Creates the table and its indexes when missing, and tells whether it exists. */
public final class TableAdmin {
    /** The meta item of a table created without its stream for a load that has not finished. */
    static final String STREAM_AFTER_LOAD = "stream-after-load";

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
        return DescribeTableRequest.builder().tableName(table).overrideConfiguration(DynamoClients.STARTUP).build();
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
                .streamSpecification(TableDefinition.createTableRequest(table).streamSpecification())
                .overrideConfiguration(DynamoClients.STARTUP).build()).join();
        client.waiter().waitUntilTableExists(describe()).join();
        return client.describeTable(describe()).join().table().latestStreamArn();
    }

    /** What a table says about the layout it was written with. */
    public enum Layout {
        /** Written by this model ({@link TableModel#LAYOUT_VERSION}). */
        CURRENT,
        /** No layout recorded and no item written yet by any layout: a new table. */
        NEW,
        /** Written by an earlier layout (or a migration that has not finished). */
        OLDER,
        /** Written by a later layout than this gateway knows. */
        NEWER
    }

    /** The layout a table is in, from its layout item and, for tables of layout 1 (which had none), its indexes. */
    public Layout layout() {
        var response = client.getItem(GetItemRequest.builder().tableName(table).key(TableModel.metaKey(TableModel.LAYOUT))
                .consistentRead(true).overrideConfiguration(DynamoClients.STARTUP).build()).join();
        if (response.hasItem() && !response.item().isEmpty()) {
            Integer recorded = TableModel.META.decode(response.item()).layoutVersion();
            int version = recorded == null ? 1 : recorded;
            return version == TableModel.LAYOUT_VERSION ? Layout.CURRENT
                    : version < TableModel.LAYOUT_VERSION ? Layout.OLDER : Layout.NEWER;
        }
        var description = client.describeTable(describe()).join().table();
        boolean currentIndexes = description.hasGlobalSecondaryIndexes() && description.globalSecondaryIndexes().stream()
                .anyMatch(index -> index.indexName().equals(Index.GSI3.indexName())
                        && index.keySchema().get(0).attributeName().equals(Index.GSI3.partitionKey()));
        return currentIndexes ? Layout.NEW : Layout.OLDER;
    }

    /** Records that the table holds this model's layout. */
    public void recordLayout() {
        recordLayout(TableModel.LAYOUT_VERSION);
    }

    /** Records that the table holds {@code version} (a migration that finished one step of its chain). */
    void recordLayout(int version) {
        client.putItem(PutItemRequest.builder().tableName(table)
                .item(TableModel.META.encode(new TableModel.Meta(TableModel.LAYOUT, version, null)))
                .overrideConfiguration(DynamoClients.STARTUP).build()).join();
    }

    /** Whether the table has the meta item {@code name}: a one-time step of a migration that is done. */
    boolean marker(String name) {
        var response = client.getItem(GetItemRequest.builder().tableName(table).key(TableModel.metaKey(name))
                .consistentRead(true).overrideConfiguration(DynamoClients.STARTUP).build()).join();
        return response.hasItem() && !response.item().isEmpty();
    }

    /** Writes the meta item {@code name}, with when. */
    void mark(String name) {
        client.putItem(PutItemRequest.builder().tableName(table)
                .item(TableModel.META.encode(new TableModel.Meta(name, null, java.time.Instant.now())))
                .overrideConfiguration(DynamoClients.STARTUP).build()).join();
    }

    /** The layout the table's layout item records; 1 when it has none (layout 1 wrote none). */
    int recordedLayout() {
        var response = client.getItem(GetItemRequest.builder().tableName(table).key(TableModel.metaKey(TableModel.LAYOUT))
                .consistentRead(true).overrideConfiguration(DynamoClients.STARTUP).build()).join();
        Integer recorded = response.hasItem() && !response.item().isEmpty()
                ? TableModel.META.decode(response.item()).layoutVersion() : null;
        return recorded == null ? 1 : recorded;
    }

    /**
     * Refuses a table of another layout, writing nothing to it, with what to run; records the layout of
     * a new table.
     */
    public void requireLayout() {
        switch (layout()) {
            case CURRENT -> { }
            case NEW -> recordLayout();
            case OLDER -> throw new IllegalStateException("Table " + table + " was written by an earlier layout of"
                    + " moviegraph (this gateway writes layout " + TableModel.LAYOUT_VERSION + "); nothing was written"
                    + " to it. Stop the servers that use it and run `java -jar moviegraph.jar migrate` with the same"
                    + " environment (DYNAMODB_ENDPOINT, TABLE_NAME, DYNAMODB_DATA_DIR) to upgrade it in place");
            case NEWER -> throw new IllegalStateException("Table " + table + " was written by a later layout of"
                    + " moviegraph than this one (layout " + TableModel.LAYOUT_VERSION + "); run the newer gateway");
        }
    }

    /** What {@link #ensureTimeToLive()} found or did. */
    public enum TimeToLive {
        /** It was already on, on {@link TableModel#EXPIRES_AT}. */
        ON,
        /** It was off and has been turned on. */
        ENABLED,
        /** It is on for another attribute (a table has at most one); expired documents are only ignored. */
        OTHER_ATTRIBUTE
    }

    /**
     * Turns DynamoDB's time to live on for {@link TableModel#EXPIRES_AT}, so expired persisted queries are
     * deleted by DynamoDB (at no cost) instead of staying forever; reads ignore them either way.
     */
    public TimeToLive ensureTimeToLive() {
        var current = client.describeTimeToLive(DescribeTimeToLiveRequest.builder().tableName(table)
                .overrideConfiguration(DynamoClients.STARTUP).build()).join().timeToLiveDescription();
        TimeToLiveStatus status = current == null ? null : current.timeToLiveStatus();
        if (status == TimeToLiveStatus.ENABLED || status == TimeToLiveStatus.ENABLING) {
            return TableModel.EXPIRES_AT.equals(current.attributeName()) ? TimeToLive.ON : TimeToLive.OTHER_ATTRIBUTE;
        }
        try {
            client.updateTimeToLive(UpdateTimeToLiveRequest.builder().tableName(table)
                    .timeToLiveSpecification(TimeToLiveSpecification.builder()
                            .attributeName(TableModel.EXPIRES_AT).enabled(true).build())
                    .overrideConfiguration(DynamoClients.STARTUP).build()).join();
        } catch (java.util.concurrent.CompletionException e) {
            // Replicas starting together: another one turned it on between our describe and our update.
            if (e.getCause() instanceof software.amazon.awssdk.services.dynamodb.model.DynamoDbException refused
                    && refused.getMessage() != null && refused.getMessage().contains("already enabled")) {
                return ensureTimeToLive();
            }
            throw e;
        }
        return TimeToLive.ENABLED;
    }

    /** Creates the table if it is missing and waits until it is active. Returns whether it created it. */
    public boolean ensureTable() {
        return create(TableDefinition.createTableRequest(table));
    }

    /** The same table without its stream yet (a bulk load turns it on when it is done). */
    public boolean ensureTableWithoutStream() {
        return create(TableDefinition.createTableRequest(table).toBuilder().streamSpecification(
                software.amazon.awssdk.services.dynamodb.model.StreamSpecification.builder().streamEnabled(false).build())
                .build());
    }

    /**
     * For a bulk load into a table it may create: creates a missing table without its stream, noting so in
     * the table, so that {@link #startStreamAfterLoad()} turns it on once the load is done, also when a
     * later run of a killed load finishes it. A table that exists is left as it is. Returns whether it
     * created the table.
     */
    public boolean ensureTableForLoad() {
        if (ensureTableWithoutStream()) {
            mark(STREAM_AFTER_LOAD);
            return true;
        }
        return false;
    }

    /** Turns the stream on if {@link #ensureTableForLoad()} created the table without it. */
    public void startStreamAfterLoad() {
        if (marker(STREAM_AFTER_LOAD)) {
            ensureStream(true);
            client.deleteItem(software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest.builder().tableName(table)
                    .key(TableModel.metaKey(STREAM_AFTER_LOAD)).overrideConfiguration(DynamoClients.STARTUP).build()).join();
        }
    }

    private boolean create(software.amazon.awssdk.services.dynamodb.model.CreateTableRequest request) {
        if (exists()) {
            return false;
        }
        client.createTable(request.toBuilder().overrideConfiguration(DynamoClients.STARTUP).build()).join();
        client.waiter().waitUntilTableExists(describe()).join();
        return true;
    }
}
