package dev.moviegraph.support;

import dev.moviegraph.cli.EngineCommand;
import dev.moviegraph.dynamo.client.DynamoClients;
import dev.moviegraph.local.EmbeddedDynamo;
import dev.moviegraph.local.SampleLoader;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;

/**
 * The engine as an OS process of its own: the {@code engine} command's main class ({@link EngineCommand}) on
 * this JVM's classpath, on loopback, its data in a folder, so a test can kill it as an outage would (SIGKILL,
 * or SIGSTOP to freeze it) and start it again on the same port and data. Before the first start the folder gets
 * the sample catalog in the table {@value EmbeddedDynamo#SAMPLE_TABLE}, with its stream, as the embedded default
 * has it: a copy of the build's snapshot ({@link EmbeddedDynamo#seed}), which the process opens at its start
 * (6 s of CPU on a busy 2-core machine) where writing its 45,645 items over HTTP took 20 to 50 s there (without
 * a snapshot, they are written so); later starts find it in the folder. The JVM is started as {@link ChildJava}
 * starts one: a restart takes 1.8 s of CPU where it took 3.
 */
public final class EngineProcess implements AutoCloseable {
    private static final long START_SECONDS = 120;
    private static final String READY = "engine listening on ";

    private final int port;
    private final Path dataDir;
    private final Path log;
    private final boolean withSample;
    private Process process;
    private Thread reaper;

    /** An engine whose first start loads the sample. */
    public EngineProcess(Path dataDir, Path log) {
        this(dataDir, log, true);
    }

    public EngineProcess(Path dataDir, Path log, boolean withSample) {
        this.port = EmbeddedDynamo.freePort();
        this.dataDir = dataDir;
        this.log = log;
        this.withSample = withSample;
    }

    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + port);
    }

    /** Starts the process and returns once it accepts connections (holding the sample when asked to). */
    public EngineProcess start() {
        boolean load = process == null && withSample;
        try {
            Files.createDirectories(dataDir);
            if (load && EmbeddedDynamo.seed(dataDir)) {
                load = false;
            }
            long logged = Files.exists(log) ? Files.size(log) : 0;
            process = new ProcessBuilder(ChildJava.command("-Xmx512m", "-cp", System.getProperty("java.class.path"),
                    EngineCommand.class.getName(), "--port", Integer.toString(port), "--data-dir", dataDir.toString()))
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .start();
            if (reaper == null) {
                // No engine left running when this JVM ends without closing it (a test that timed out).
                reaper = new Thread(this::close, "engine-process-reaper");
                Runtime.getRuntime().addShutdownHook(reaper);
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_SECONDS);
            while (!Files.readString(log).substring((int) logged).contains(READY) || !accepts()) {
                if (!process.isAlive() || System.nanoTime() > deadline) {
                    throw new IllegalStateException("The engine did not start:\n" + Files.readString(log));
                }
                Thread.sleep(20);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        if (load) {
            try (DynamoDbAsyncClient client = DynamoClients.create(endpoint(), List.of())) {
                SampleLoader.intoTable(client, EmbeddedDynamo.SAMPLE_TABLE);
            }
        }
        return this;
    }

    /** Kills the process at once (SIGKILL): no clean shutdown, as in a crash. */
    public void kill() {
        process.destroyForcibly();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("The engine did not die");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Sends the process a signal (STOP freezes it with its port still open, CONT thaws it). */
    public void signal(String name) throws IOException, InterruptedException {
        new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).inheritIO().start().waitFor();
    }

    private boolean accepts() {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    @Override
    public void close() {
        if (process != null && process.isAlive()) {
            // A frozen process dies of SIGKILL all the same.
            kill();
        }
        if (reaper != null && Thread.currentThread() != reaper) {
            try {
                Runtime.getRuntime().removeShutdownHook(reaper);
            } catch (IllegalStateException shuttingDown) {
                // the hook runs anyway
            }
            reaper = null;
        }
    }
}
