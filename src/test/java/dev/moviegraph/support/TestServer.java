package dev.moviegraph.support;

import dev.moviegraph.Moviegraph;
import dev.moviegraph.config.AppConfig;
import dev.moviegraph.local.SampleCatalog;

import java.util.List;

/**
 * One server on the embedded default (the engine in-process, sample catalog loaded), started once
 * per test JVM and shared by the end-to-end tests, which run one query at a time.
 */
public final class TestServer {
    private static TestServer instance;

    private final RequestCounter counter = new RequestCounter();
    private final Moviegraph server;
    private final GraphQLClient client;
    private final SampleCatalog sample = SampleCatalog.generate(SampleCatalog.DEFAULT_SEED);

    private TestServer() {
        server = Moviegraph.start(AppConfig.defaults().withPort(0), List.of(counter));
        client = new GraphQLClient(server.port());
        Runtime.getRuntime().addShutdownHook(new Thread(server::close));
    }

    public static synchronized TestServer get() {
        if (instance == null) {
            instance = new TestServer();
        }
        return instance;
    }

    public RequestCounter counter() {
        return counter;
    }

    public GraphQLClient client() {
        return client;
    }

    public int port() {
        return server.port();
    }

    /** A query's response with the DynamoDB operations it made, in order. */
    public record Counted(GraphQLClient.Response response, List<String> operations) {
        public com.fasterxml.jackson.databind.JsonNode data() {
            return response.data();
        }
    }

    /**
     * Runs a query that must succeed, counting its DynamoDB requests: a 200 with no errors, and never a
     * Scan (a resolver that scans fails the test that ran it).
     */
    public Counted counted(String query) {
        counter.reset();
        GraphQLClient.Response response = client.query(query);
        List<String> operations = counter.operations();
        org.junit.jupiter.api.Assertions.assertEquals(200, response.status(), response.raw().body());
        org.junit.jupiter.api.Assertions.assertTrue(response.errors().isMissingNode(),
                () -> "unexpected errors: " + response.errors());
        org.junit.jupiter.api.Assertions.assertFalse(operations.contains("Scan"), "a resolver scanned the table");
        return new Counted(response, operations);
    }

    /** The catalog the server loaded: tests derive their expectations from it, not from constants. */
    public SampleCatalog sample() {
        return sample;
    }
}
