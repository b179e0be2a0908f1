package dev.moviegraph.local;

import com.amazonaws.services.dynamodbv2.local.main.ServerRunner;
import com.amazonaws.services.dynamodbv2.local.server.DynamoDBProxyServer;

import java.io.IOException;
import java.lang.reflect.Field;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import java.util.logging.Level;
import java.util.logging.Logger;

import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/**
 * AWS's DynamoDB Local, started inside this JVM with its own HTTP server, so the gateway talks to it
 * through the real SDK client exactly as it would talk to DynamoDB.
 */
public final class EmbeddedDynamo implements AutoCloseable {
    /** sqlite4java's native libraries, copied into the jar at build time (see pom.xml). */
    private static final List<String> NATIVE_LIBRARIES = List.of(
            "libsqlite4java-linux-amd64.so", "libsqlite4java-osx.dylib", "sqlite4java-win32-x64.dll");

    /** Held so the JUL logger (and its level) is not collected: sqlite4java warns about its jar version. */
    private static final Logger SQLITE_LOG = Logger.getLogger("com.almworks.sqlite4java");

    static {
        SQLITE_LOG.setLevel(Level.SEVERE);
    }

    private final DynamoDBProxyServer server;
    private final URI endpoint;
    /** The folder of an ephemeral database file, deleted at close; null otherwise. */
    private final Path temporary;

    private EmbeddedDynamo(DynamoDBProxyServer server, URI endpoint, Path temporary) {
        this.server = server;
        this.endpoint = endpoint;
        this.temporary = temporary;
    }

    /**
     * A new temporary folder, on /dev/shm when there is one: DynamoDB Local syncs its SQLite file at
     * every write, which on a disk makes each transaction wait for it.
     */
    public static Path scratchDirectory(String prefix) throws IOException {
        Path shm = Path.of("/dev/shm");
        return Files.isDirectory(shm) && Files.isWritable(shm)
                ? Files.createTempDirectory(shm, prefix) : Files.createTempDirectory(prefix);
    }

    /**
     * Starts DynamoDB Local whose data lives only as long as this process: a copy of the sample
     * snapshot in a temporary folder (in memory when the machine has a tmpfs) when {@code withSample},
     * pure memory otherwise.
     */
    public static EmbeddedDynamo ephemeral(boolean withSample) {
        if (!withSample) {
            return launch(freePort(), List.of("-inMemory"), null);
        }
        try {
            Path dir = scratchDirectory("moviegraph-dynamodb");
            SampleSnapshot.seed(dir);
            return launch(freePort(), List.of("-dbPath", dir.toString()), dir);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot create a temporary folder for DynamoDB Local", e);
        }
    }

    /** Starts DynamoDB Local on the database in {@code dataDir}, seeded with the sample when it has none. */
    public static EmbeddedDynamo persistent(Path dataDir, boolean withSample) {
        return persistent(dataDir, withSample, freePort());
    }

    /** The same on a given port: a DynamoDB Local that stops and starts again where clients expect it. */
    public static EmbeddedDynamo persistent(Path dataDir, boolean withSample, int port) {
        try {
            Files.createDirectories(dataDir);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot create DYNAMODB_DATA_DIR " + dataDir, e);
        }
        if (withSample) {
            SampleSnapshot.seed(dataDir);
        }
        return launch(port, List.of("-dbPath", dataDir.toAbsolutePath().toString()), null);
    }

    private static EmbeddedDynamo launch(int port, List<String> storage, Path temporary) {
        System.setProperty("sqlite4java.library.path", extractNativeLibraries().toString());
        // -disableTelemetry: with telemetry on, DynamoDB Local writes dynamodb-local-metadata.json (an
        // installation id) into the working directory, the project root under Maven, whatever the storage
        // options, and sends usage events to AWS (Cognito, Pinpoint); the flag stops both, and the
        // DDB_LOCAL_TELEMETRY variable cannot turn them back on.
        List<String> args = new ArrayList<>(List.of("-port", Integer.toString(port), "-sharedDb", "-disableTelemetry"));
        args.addAll(storage);
        try {
            DynamoDBProxyServer server = ServerRunner.createServerFromCommandLineArgs(args.toArray(String[]::new));
            bindToLoopback(server);
            server.start();
            return new EmbeddedDynamo(server, URI.create("http://127.0.0.1:" + port), temporary);
        } catch (Exception e) {
            throw new IllegalStateException("DynamoDB Local did not start: " + e.getMessage(), e);
        }
    }

    public URI endpoint() {
        return endpoint;
    }

    @Override
    public void close() {
        try {
            server.stop();
        } catch (Exception e) {
            throw new IllegalStateException("DynamoDB Local did not stop cleanly", e);
        } finally {
            deleteTemporary();
        }
    }

    /**
     * DynamoDB Local has no host option and listens on every interface; an unauthenticated database
     * has no business on the network, so its connector is narrowed to loopback before it starts.
     */
    private static void bindToLoopback(DynamoDBProxyServer proxy) throws ReflectiveOperationException {
        Field field = DynamoDBProxyServer.class.getDeclaredField("server");
        field.setAccessible(true);
        Server jetty = (Server) field.get(proxy);
        for (Connector connector : jetty.getConnectors()) {
            if (connector instanceof ServerConnector network) {
                network.setHost(InetAddress.getLoopbackAddress().getHostAddress());
            }
        }
    }

    private void deleteTemporary() {
        if (temporary == null) {
            return;
        }
        try (Stream<Path> files = Files.walk(temporary)) {
            files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot delete " + temporary, e);
        }
    }

    /** A port nothing listens on right now, on loopback. */
    public static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("No free port for DynamoDB Local", e);
        }
    }

    private static Path extractNativeLibraries() {
        try {
            Path dir = Files.createTempDirectory("moviegraph-sqlite4java");
            dir.toFile().deleteOnExit();
            for (String name : NATIVE_LIBRARIES) {
                try (InputStream in = EmbeddedDynamo.class.getResourceAsStream("/sqlite4java/" + name)) {
                    if (in != null) {
                        Path target = dir.resolve(name);
                        Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
                        target.toFile().deleteOnExit();
                    }
                }
            }
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot unpack sqlite4java for DynamoDB Local", e);
        }
    }
}
