package dev.moviegraph.cli;

import dev.moviegraph.config.AppConfig;
import dev.moviegraph.config.ConfigException;
import dev.moviegraph.dynamo.client.DynamoClients;
import dev.moviegraph.local.EmbeddedDynamo;

import java.net.URI;
import java.util.List;
import java.util.function.Function;

import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;

/**
 * The table an admin command (migrate, import) works on, named by the usual variables: DynamoDB at
 * DYNAMODB_ENDPOINT, or the embedded engine on DYNAMODB_DATA_DIR (an in-memory table would be gone
 * when the command ends, so it is refused). Opens a client, runs the command, closes everything.
 */
final class AdminTable {
    private AdminTable() {
    }

    /** Runs {@code command} with a client of the table; {@code doing} says what it does, for the refusal. */
    static <T> T with(AppConfig config, String doing, Function<DynamoDbAsyncClient, T> command) {
        EmbeddedDynamo embedded = null;
        URI endpoint = null;
        if (config.endpoint() instanceof AppConfig.Endpoint.Embedded) {
            if (config.dataDir() == null) {
                throw new ConfigException(doing + " a table that outlives the process: set DYNAMODB_DATA_DIR"
                        + " (the embedded engine's data folder, which the server then serves) or DYNAMODB_ENDPOINT");
            }
            embedded = EmbeddedDynamo.persistent(config.dataDir(), false);
            endpoint = embedded.endpoint();
        } else if (config.endpoint() instanceof AppConfig.Endpoint.Url url) {
            endpoint = url.uri();
        }
        DynamoDbAsyncClient client = DynamoClients.create(endpoint, List.of());
        try {
            return command.apply(client);
        } finally {
            client.close();
            if (embedded != null) {
                embedded.close();
            }
        }
    }
}
