package dev.moviegraph.cli;

import dev.moviegraph.config.AppConfig;
import dev.moviegraph.dynamo.admin.TableAdmin;
import dev.moviegraph.dynamo.client.DynamoClients;
import dev.moviegraph.dynamo.streams.StreamAggregator;
import dev.moviegraph.metrics.GatewayMetrics;

import java.net.URI;
import java.util.List;

import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsAsyncClient;

/**
 * {@code moviegraph.jar aggregate}: the stream aggregator on its own, for deployments that run the
 * gateways with TOTALS=stream and AGGREGATOR=off and scale the aggregation separately. Reads the same
 * environment as the server (DYNAMODB_ENDPOINT must be aws or a URL); runs until SIGTERM. Several may run
 * at once: a shard's checkpoint moves in the same transaction as its totals, so they never double count.
 */
public final class Aggregate {
    private Aggregate() {
    }

    public static void run(AppConfig config) throws InterruptedException {
        URI endpoint;
        if (config.endpoint() instanceof AppConfig.Endpoint.Url url) {
            endpoint = url.uri();
        } else if (config.endpoint() instanceof AppConfig.Endpoint.Aws) {
            endpoint = null;
        } else {
            System.err.println("aggregate needs DYNAMODB_ENDPOINT=aws or a URL: an embedded engine "
                    + "lives inside the server, whose own aggregator runs by default with TOTALS=stream");
            System.exit(2);
            return;
        }
        DynamoDbAsyncClient client = DynamoClients.create(endpoint, List.of());
        DynamoDbStreamsAsyncClient streams = DynamoClients.createStreams(endpoint);
        String arn = new TableAdmin(client, config.tableName()).ensureStream(config.createTable());
        StreamAggregator aggregator = new StreamAggregator(client, streams, config.tableName(), arn,
                new GatewayMetrics()).start();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            aggregator.close();
            streams.close();
            client.close();
        }, "moviegraph-aggregate-shutdown"));
        Thread.currentThread().join();
    }
}
