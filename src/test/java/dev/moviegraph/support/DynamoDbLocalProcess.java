package dev.moviegraph.support;

import dev.moviegraph.local.EmbeddedDynamo;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * DynamoDB Local as an OS process of its own (this JVM's classpath, loopback only, the database in a
 * folder), so a test can kill it as an outage would and start it again on the same port and data.
 */
public final class DynamoDbLocalProcess implements AutoCloseable {
    private static final long START_SECONDS = 120;

    private final int port;
    private final Path dataDir;
    private final Path log;
    private Process process;

    /** Runs in the child: DynamoDB Local on the port and folder given, until the process is killed. */
    public static void main(String[] args) throws InterruptedException {
        // No orphan when the test JVM dies without killing this one.
        ProcessHandle.current().parent().ifPresent(parent -> parent.onExit()
                .thenRun(() -> Runtime.getRuntime().halt(0)));
        EmbeddedDynamo.persistent(Path.of(args[1]), true, Integer.parseInt(args[0]));
        System.out.println("DynamoDB Local ready");
        Thread.currentThread().join();
    }

    public DynamoDbLocalProcess(Path dataDir, Path log) {
        this.port = EmbeddedDynamo.freePort();
        this.dataDir = dataDir;
        this.log = log;
    }

    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + port);
    }

    /** Starts the process and returns once it accepts connections. */
    public DynamoDbLocalProcess start() {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        try {
            process = new ProcessBuilder(List.of(java, "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                    DynamoDbLocalProcess.class.getName(), Integer.toString(port), dataDir.toString()))
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .start();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_SECONDS);
            while (!Files.readString(log).contains("DynamoDB Local ready") || !accepts()) {
                if (!process.isAlive() || System.nanoTime() > deadline) {
                    throw new IllegalStateException("DynamoDB Local did not start:\n" + Files.readString(log));
                }
                Thread.sleep(50);
            }
            return this;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Kills the process at once (SIGKILL): no clean shutdown, as in a crash. */
    public void kill() {
        process.destroyForcibly();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("DynamoDB Local did not die");
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
            kill();
        }
    }
}
