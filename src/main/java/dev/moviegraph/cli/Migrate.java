package dev.moviegraph.cli;

import dev.moviegraph.config.AppConfig;
import dev.moviegraph.dynamo.admin.FirstCastFill;
import dev.moviegraph.dynamo.admin.LayoutMigration;
import dev.moviegraph.dynamo.admin.TableAdmin;

import java.io.PrintStream;


/**
 * {@code moviegraph.jar migrate}: upgrades the table the usual variables name (DYNAMODB_ENDPOINT,
 * TABLE_NAME, DYNAMODB_DATA_DIR for the embedded engine) to this gateway's layout in place, printing
 * its progress, then gives movie items written before copies were kept their first-billed cast
 * ({@link FirstCastFill}). Stop the servers that use the table first; run it again if it was cut short.
 */
public final class Migrate {
    private Migrate() {
    }

    public static LayoutMigration.Summary run(AppConfig config, PrintStream out) {
        return AdminTable.with(config, "migrate upgrades", client -> {
            if (!new TableAdmin(client, config.tableName()).exists()) {
                throw new IllegalStateException("Table " + config.tableName() + " does not exist; nothing to migrate");
            }
            // The earlier layouts' indexes are deleted on AWS and on the embedded engine; at a URL, which may be
            // DynamoDB Local (it cannot delete an index), they stay there, unused, with the command to delete them.
            boolean dropLayout1Index = !(config.endpoint() instanceof AppConfig.Endpoint.Url);
            LayoutMigration.Summary summary = new LayoutMigration(client, config.tableName(), dropLayout1Index, out::println).run();
            // Movies written before movie items copied their first-billed cast get it (none on a second run).
            new FirstCastFill(client, config.tableName(), out::println).run();
            return summary;
        });
    }
}
