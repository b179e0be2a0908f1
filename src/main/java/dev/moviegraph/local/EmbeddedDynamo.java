package dev.moviegraph.local;

import dev.moviegraph.dynamo.client.DynamoClients;
import dev.moviegraph.engine.Engine;
import dev.moviegraph.engine.EngineOptions;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;

/**
 * Our DynamoDB-compatible engine (src/engine), started inside this JVM with its own HTTP server, so the
 * gateway talks to it through the real SDK client exactly as it would talk to DynamoDB. The only class
 * of the gateway that knows the engine's classes (EngineApartTest): everything else reaches it through
 * {@link #endpoint()} over HTTP.
 */
public final class EmbeddedDynamo implements AutoCloseable {
    /** The table {@code withSample} creates and loads the sample catalog into: the gateway's default. */
    public static final String SAMPLE_TABLE = "moviegraph";

    private final Engine engine;

    private EmbeddedDynamo(Engine engine) {
        this.engine = engine;
    }

    /** A new temporary folder, on /dev/shm when there is one (memory, not a disk that syncs every write). */
    public static Path scratchDirectory(String prefix) throws IOException {
        Path shm = Path.of("/dev/shm");
        return Files.isDirectory(shm) && Files.isWritable(shm)
                ? Files.createTempDirectory(shm, prefix) : Files.createTempDirectory(prefix);
    }

    /**
     * Starts the engine in memory, on loopback: its data lives only as long as it runs. With
     * {@code withSample}, the table {@value #SAMPLE_TABLE} is created and the sample catalog loaded into it
     * before this returns.
     */
    public static EmbeddedDynamo ephemeral(boolean withSample) {
        return launch(EngineOptions.inMemory(), withSample);
    }

    /**
     * Starts the engine in memory, no table created, with DynamoDB's per-partition ceilings enforced (3,000 read
     * and 1,000 write units a second per partition key value of a table or index, refused as DynamoDB refuses):
     * what the capacity benchmark runs on. Its endpoint also answers {@code MoviegraphEngine.DescribePartitionUsage}
     * (what it charged and refused) and {@code MoviegraphEngine.StartPartitionSecond} (simulated seconds).
     */
    public static EmbeddedDynamo withPartitionLimits() {
        return launch(EngineOptions.inMemory().withPartitionLimits(true), false);
    }

    /** Starts the engine on the data in {@code dataDir}, the sample loaded into it when it has none yet. */
    public static EmbeddedDynamo persistent(Path dataDir, boolean withSample) {
        return persistent(dataDir, withSample, 0);
    }

    /** The same on a given port (0: a free one): an engine that stops and starts again where clients expect it. */
    public static EmbeddedDynamo persistent(Path dataDir, boolean withSample, int port) {
        return launch(EngineOptions.inMemory().withPort(port).withDataDir(dataFolder(dataDir)), withSample);
    }

    /**
     * The engine on its own ({@code moviegraph.jar engine}): on {@code host} and {@code port} (0 picks a
     * free one), its data in {@code dataDir}, or in memory when that is null; no table is created.
     */
    public static EmbeddedDynamo standalone(String host, int port, Path dataDir) {
        EngineOptions options = EngineOptions.inMemory().withHost(host).withPort(port);
        return launch(dataDir == null ? options : options.withDataDir(dataFolder(dataDir)), false);
    }

    private static Path dataFolder(Path dataDir) {
        try {
            return Files.createDirectories(dataDir).toAbsolutePath();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot create the data folder " + dataDir, e);
        }
    }

    private static EmbeddedDynamo launch(EngineOptions options, boolean withSample) {
        Engine engine;
        try {
            engine = Engine.start(options);
        } catch (RuntimeException e) {
            throw new IllegalStateException("The engine did not start on " + options.host() + ":" + options.port()
                    + ": " + e.getMessage(), e);
        }
        EmbeddedDynamo embedded = new EmbeddedDynamo(engine);
        if (withSample) {
            try (DynamoDbAsyncClient client = DynamoClients.create(embedded.endpoint(), List.of())) {
                SampleLoader.intoTable(client, SAMPLE_TABLE);
            } catch (RuntimeException e) {
                embedded.close();
                throw e;
            }
        }
        return embedded;
    }

    public URI endpoint() {
        return engine.endpoint();
    }

    public int port() {
        return engine.port();
    }

    @Override
    public void close() {
        engine.close();
    }

    /** A port nothing listens on right now, on loopback. */
    public static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("No free port for the engine", e);
        }
    }
}
