package dev.moviegraph.cli;

import dev.moviegraph.config.AppConfig;
import dev.moviegraph.config.ConfigException;
import dev.moviegraph.dynamo.DynamoClients;
import dev.moviegraph.dynamo.LayoutMigration;
import dev.moviegraph.dynamo.TableAdmin;
import dev.moviegraph.local.EmbeddedDynamo;

import java.io.PrintStream;
import java.net.URI;
import java.util.List;

import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;

/**
 * {@code moviegraph.jar migrate}: upgrades the table the usual variables name (DYNAMODB_ENDPOINT,
 * TABLE_NAME, DYNAMODB_DATA_DIR for the embedded engine) to this gateway's layout in place, printing
 * its progress. Stop the servers that use the table first; run it again if it was cut short.
 */
public final class Migrate {
    private Migrate() {
    }

    public static LayoutMigration.Summary run(AppConfig config, PrintStream out) {
        EmbeddedDynamo embedded = null;
        URI endpoint = null;
        if (config.endpoint() instanceof AppConfig.Endpoint.Embedded) {
            if (config.dataDir() == null) {
                throw new ConfigException("migrate upgrades a table that outlives the process: set DYNAMODB_DATA_DIR"
                        + " (the embedded engine's data folder) or DYNAMODB_ENDPOINT");
            }
            embedded = EmbeddedDynamo.persistent(config.dataDir(), false);
            endpoint = embedded.endpoint();
        } else if (config.endpoint() instanceof AppConfig.Endpoint.Url url) {
            endpoint = url.uri();
        }
        DynamoDbAsyncClient client = DynamoClients.create(endpoint, List.of());
        try {
            if (!new TableAdmin(client, config.tableName()).exists()) {
                throw new IllegalStateException("Table " + config.tableName() + " does not exist; nothing to migrate");
            }
            // DynamoDB Local (embedded or at a URL) cannot delete an index: layout 1's stays there, unused.
            boolean dropLayout1Index = config.endpoint() instanceof AppConfig.Endpoint.Aws;
            return new LayoutMigration(client, config.tableName(), dropLayout1Index, out::println).run();
        } finally {
            client.close();
            if (embedded != null) {
                embedded.close();
            }
        }
    }
}
