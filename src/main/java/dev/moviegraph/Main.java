package dev.moviegraph;

import dev.moviegraph.cli.Aggregate;
import dev.moviegraph.cli.Benchmark;
import dev.moviegraph.config.AppConfig;
import dev.moviegraph.config.ConfigException;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sun.misc.Signal;

/**
 * Entry point: with no arguments, reads the environment, starts the server and stops it cleanly on
 * SIGTERM (see {@link Moviegraph#close()}), then exits 0; {@code aggregate} runs the stream aggregator
 * alone ({@link Aggregate}); {@code benchmark [options]} runs {@link Benchmark}.
 */
public final class Main {
    private static final Logger LOG = LoggerFactory.getLogger(Main.class);
    private static final AtomicBoolean STOPPING = new AtomicBoolean();

    private Main() {
    }

    public static void main(String[] args) throws InterruptedException {
        if (args.length > 0 && args[0].equals("benchmark")) {
            Benchmark.main(Arrays.copyOfRange(args, 1, args.length));
            return;
        }
        if (args.length > 1 || args.length == 1 && !args[0].equals("aggregate")) {
            // A mistyped command must not quietly start a server instead.
            System.err.println("unknown command '" + String.join(" ", args)
                    + "'; usage: moviegraph.jar [aggregate | benchmark [load] [options]]");
            System.exit(2);
            return;
        }
        AppConfig config;
        try {
            config = AppConfig.fromEnvironment(System.getenv());
        } catch (ConfigException e) {
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        }
        if (args.length == 1) {
            Aggregate.run(config);
            return;
        }
        Moviegraph server = Moviegraph.start(config, List.of());
        // Any other way out (Ctrl-C, System.exit) closes the server in the same order; close() runs once.
        Runtime.getRuntime().addShutdownHook(new Thread(server::close, "moviegraph-shutdown"));
        // SIGTERM asks for a stop, so a clean one exits 0 rather than the JVM's default 143. sun.misc.Signal
        // (jdk.unsupported, kept on purpose by JEP 260) is the JDK's only way to handle a signal; javac warns.
        Signal.handle(new Signal("TERM"), signal -> stop(server, signal));
    }

    private static void stop(Moviegraph server, Signal signal) {
        if (!STOPPING.compareAndSet(false, true)) {
            LOG.info("SIG{} again: already shutting down", signal.getName());
            return;
        }
        LOG.info("SIG{} received", signal.getName());
        int status = 0;
        try {
            server.close();
        } catch (RuntimeException e) {
            LOG.error("Shutdown failed", e);
            status = 1;
        }
        // Exit even though DynamoDB Local leaves a non-daemon thread behind after it stops.
        System.exit(status);
    }
}
