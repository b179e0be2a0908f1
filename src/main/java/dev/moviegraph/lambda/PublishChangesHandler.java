package dev.moviegraph.lambda;

import dev.moviegraph.config.AppConfig;
import dev.moviegraph.dynamo.streams.ChangeLog;
import dev.moviegraph.telemetry.Telemetry;

import java.time.Clock;
import java.util.List;
import java.util.Map;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.DynamodbEvent.DynamodbStreamRecord;
import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;

/**
 * The change feed at scale with TOTALS=transactional (with TOTALS=stream, {@link CountStreamsHandler}
 * does this as well as counting): a Lambda function on the table's stream
 * ({@code dev.moviegraph.lambda.PublishChangesHandler::handleRequest}) that publishes what each batch
 * changed to the feed's log, so the gateways (CHANGE_FEED=published) read no stream and each shard has
 * one reader. A failed publish throws, so Lambda retries the whole batch whatever the event source
 * mapping's response types (nothing of a batch is published until all of it is); publishing a batch
 * twice only makes subscriptions read once more.
 */
public final class PublishChangesHandler implements RequestHandler<DynamodbEvent, StreamsEventResponse> {
    private final ChangeLog log;
    private final InvocationTrace trace;

    /** What Lambda calls: the table from TABLE_NAME, DynamoDB from DYNAMODB_ENDPOINT (aws) and the function's role. */
    public PublishChangesHandler() {
        this(AppConfig.fromEnvironment(System.getenv()));
    }

    PublishChangesHandler(AppConfig config) {
        this(StreamRecords.client(config), config.tableName(),
                Telemetry.fromEnvironment(config.telemetry(), "moviegraph-publish-changes", config.tableName()));
    }

    public PublishChangesHandler(DynamoDbAsyncClient client, String table) {
        this(client, table, Telemetry.OFF);
    }

    private PublishChangesHandler(DynamoDbAsyncClient client, String table, Telemetry telemetry) {
        this.log = new ChangeLog(client, table, Clock.systemUTC());
        this.trace = new InvocationTrace(telemetry, dev.moviegraph.catalog.CallObserver.NONE);
    }

    /** One invocation, in a span of its own when traced. */
    @Override
    public StreamsEventResponse handleRequest(DynamodbEvent event, Context context) {
        trace.begin("PublishChanges", Map.of("faas.trigger", "datasource",
                "moviegraph.records", String.valueOf(event.getRecords() == null ? 0 : event.getRecords().size())));
        String error = null;
        try {
            return publish(event);
        } catch (RuntimeException e) {
            error = e.toString();
            throw e;
        } finally {
            trace.end(error);
        }
    }

    private StreamsEventResponse publish(DynamodbEvent event) {
        List<DynamodbStreamRecord> records = event.getRecords() == null ? List.of() : event.getRecords();
        if (records.isEmpty()) {
            return new StreamsEventResponse(List.of());
        }
        try {
            log.publish(StreamRecords.changes(records));
            return new StreamsEventResponse(List.of());
        } catch (RuntimeException e) {
            throw new IllegalStateException("The batch from " + StreamRecords.sequence(records.get(0))
                    + " was not published (" + e + "); Lambda retries it", e);
        }
    }
}
