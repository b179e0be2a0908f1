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

    /** The build's copy of the engine's data folder with the sample loaded ({@link #buildSampleSnapshot}). */
    private static final String SNAPSHOT = "/sample-engine/";
    private static final String SNAPSHOT_FILES = "files.txt";

    private final Engine engine;
    /** A data folder made for this engine alone, deleted at close; null otherwise. */
    private Path temporary;

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
        if (withSample) {
            // Start from the build's data folder with the sample in it: replaying it takes a fraction of a
            // second, where writing the sample's items through the API takes seconds.
            try {
                Path dir = scratchDirectory("moviegraph-engine");
                if (seed(dir)) {
                    // rows on the heap: the folder is memory already, its journal only the sample's start.
                    // The copy holds the table, its stream and the sample: no client needed to check them here
                    // (building one is a second of class loading a fresh JVM would spend twice).
                    EmbeddedDynamo embedded = launch(EngineOptions.inMemory().withDataDir(dir).withRowsInMemory(true),
                            false);
                    embedded.temporary = dir;
                    return embedded;
                }
                delete(dir);
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot create a temporary folder for the engine", e);
            }
        }
        return launch(EngineOptions.inMemory(), withSample);
    }

    /**
     * Writes the engine's data folder with the sample loaded into {@code dir} (the build does, into the jar's
     * classes), with the list of its files, so that {@link #ephemeral(boolean)} and {@link #persistent} start
     * from a copy of it.
     */
    public static void buildSampleSnapshot(Path dir) throws IOException {
        delete(dir);
        Files.createDirectories(dir);
        try (EmbeddedDynamo embedded = launch(EngineOptions.inMemory().withDataDir(dir).withRowsInMemory(true), true)) {
            // loaded by launch
        }
        Files.deleteIfExists(dir.resolve("engine.lock"));
        try (var files = Files.list(dir)) {
            List<String> names = files.map(file -> file.getFileName().toString())
                    .filter(name -> name.endsWith(".log")).sorted().toList();
            Files.write(dir.resolve(SNAPSHOT_FILES), names);
        }
    }

    /**
     * Copies the build's sample data folder into {@code dir} unless it holds data; false when the jar has none.
     * Public for engines started as processes of their own on {@code dir} (the tests' EngineProcess), which
     * then open the sample at their start instead of having its items written to them over HTTP.
     */
    public static boolean seed(Path dir) throws IOException {
        try (var existing = Files.list(dir)) {
            if (existing.anyMatch(file -> file.getFileName().toString().endsWith(".log"))) {
                return true;
            }
        }
        try (var list = EmbeddedDynamo.class.getResourceAsStream(SNAPSHOT + SNAPSHOT_FILES)) {
            if (list == null) {
                return false;
            }
            for (String name : new String(list.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).split("\n")) {
                if (name.isBlank()) {
                    continue;
                }
                try (var in = EmbeddedDynamo.class.getResourceAsStream(SNAPSHOT + name.strip())) {
                    if (in == null) {
                        return false;
                    }
                    Files.copy(in, dir.resolve(name.strip()), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                }
            }
            return true;
        }
    }

    private static void delete(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (var files = Files.walk(dir)) {
            for (Path file : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(file);
            }
        }
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
        Path folder = dataFolder(dataDir);
        if (withSample) {
            try {
                seed(folder);
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot copy the sample into " + dataDir, e);
            }
        }
        return launch(EngineOptions.inMemory().withPort(port).withDataDir(folder), withSample);
    }

    /**
     * The engine on its own ({@code moviegraph.jar engine}): on {@code host} and {@code port} (0 picks a
     * free one), its data in {@code dataDir}, or in memory when that is null; no table is created.
     */
    public static EmbeddedDynamo standalone(String host, int port, Path dataDir) {
        EngineOptions options = EngineOptions.inMemory().withHost(host).withPort(port);
        return launch(dataDir == null ? options : options.withDataDir(dataFolder(dataDir)), false);
    }

    /** Where the engine keeps its rows: in memory, or on disk with its layers and cache. */
    public String rowsDescription() {
        return engine.rowsDescription();
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
        try {
            engine.close();
        } finally {
            if (temporary != null) {
                try {
                    delete(temporary);
                } catch (IOException e) {
                    throw new UncheckedIOException("Cannot delete " + temporary, e);
                }
            }
        }
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
