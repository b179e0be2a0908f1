package dev.moviegraph.lambda;

import dev.moviegraph.catalog.CatalogChanges;
import dev.moviegraph.config.AppConfig;
import dev.moviegraph.config.ConfigException;
import dev.moviegraph.dynamo.client.DynamoClients;
import dev.moviegraph.dynamo.streams.ChangedKeys;

import java.net.URI;
import java.util.List;
import java.util.Map;

import com.amazonaws.services.lambda.runtime.events.DynamodbEvent.DynamodbStreamRecord;
import com.amazonaws.services.lambda.runtime.events.models.dynamodb.AttributeValue;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsAsyncClient;

/** What the functions share: their DynamoDB client, and reading Lambda's stream records. */
final class StreamRecords {
    private StreamRecords() {
    }

    /** The table's client: DYNAMODB_ENDPOINT=aws (the function's role and region) or a URL. */
    static DynamoDbAsyncClient client(AppConfig config) {
        if (config.endpoint() instanceof AppConfig.Endpoint.Url url) {
            return DynamoClients.create(url.uri(), List.of());
        }
        if (config.endpoint() instanceof AppConfig.Endpoint.Aws) {
            return DynamoClients.create((URI) null, List.of());
        }
        throw new ConfigException("The function needs DYNAMODB_ENDPOINT=aws (or a URL): it reads a table's stream,"
                + " not an embedded engine");
    }

    /** The table's stream's client, as {@link #client}. */
    static DynamoDbStreamsAsyncClient streamsClient(AppConfig config) {
        return config.endpoint() instanceof AppConfig.Endpoint.Url url ? DynamoClients.createStreams(url.uri())
                : DynamoClients.createStreams(null);
    }

    /** The movies and months the records changed, from their keys. */
    static CatalogChanges changes(List<DynamodbStreamRecord> records) {
        ChangedKeys changed = new ChangedKeys();
        for (DynamodbStreamRecord record : records) {
            Map<String, AttributeValue> keys = record.getDynamodb() == null ? null : record.getDynamodb().getKeys();
            if (keys != null) {
                changed.add(name -> text(keys.get(name)));
            }
        }
        return changed.changes();
    }

    static String text(AttributeValue value) {
        return value == null ? null : value.getS() != null ? value.getS() : value.getN();
    }

    static String sequence(DynamodbStreamRecord record) {
        return record.getDynamodb().getSequenceNumber();
    }
}
