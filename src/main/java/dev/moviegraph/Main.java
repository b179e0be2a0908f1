package dev.moviegraph;

import dev.moviegraph.cli.Aggregate;
import dev.moviegraph.cli.EngineCommand;
import dev.moviegraph.cli.Import;
import dev.moviegraph.cli.Migrate;
import dev.moviegraph.config.AppConfig;
import dev.moviegraph.config.ConfigException;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.UndeclaredThrowableException;
import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sun.misc.Signal;

/**
 * Entry point: with no arguments, reads the environment, starts the server and stops it cleanly on
 * SIGTERM (see {@link Moviegraph#close()}), then exits 0; {@code aggregate} runs the stream aggregator
 * alone ({@link Aggregate}); {@code engine [--port 8000] [--data-dir DIR] [--host H]} runs the DynamoDB-compatible
 * engine on its own ({@link EngineCommand}); {@code migrate} upgrades the table to this layout ({@link Migrate});
 * {@code import DIR [options]} imports IMDb's datasets ({@link Import}); {@code benchmark [load | import]
 * [options]} runs the benchmarks when the jar was built with them ({@code mvn -Pbench package}, docs/benchmarks.md); {@code warm-up} starts the server, sends it the warm-up's queries
 * (WARMUP_SECONDS, else {@value #TRAINING_SECONDS} s) and exits 0: the training run of the image's AOT cache. A server or aggregator that
 * cannot start prints one line on stderr and exits 2 for its configuration (a bad variable, or
 * DYNAMODB_ENDPOINT=aws with no region or credentials), 1 for anything else (the stack trace is logged
 * at debug level).
 */
public final class Main {
    private static final Logger LOG = LoggerFactory.getLogger(Main.class);
    private static final AtomicBoolean STOPPING = new AtomicBoolean();
    /** How long {@code warm-up} trains when WARMUP_SECONDS is not set. */
    static final int TRAINING_SECONDS = 20;
    private static final String BENCHMARKS = "dev.moviegraph.bench.Benchmark";
    private static final Set<String> COMMANDS = Set.of("aggregate", "migrate", "warm-up");

    private Main() {
    }

    public static void main(String[] args) throws InterruptedException {
        if (args.length > 0 && args[0].equals("benchmark")) {
            runBenchmark(Arrays.copyOfRange(args, 1, args.length));
            return;
        }
        if (args.length > 0 && args[0].equals("engine")) {
            // Its own arguments, no environment: it runs until killed, or returns why it could not start.
            System.exit(EngineCommand.run(Arrays.asList(args).subList(1, args.length), System.out, System.err));
            return;
        }
        boolean importing = args.length > 0 && args[0].equals("import");
        if (!importing && (args.length > 1 || args.length == 1 && !COMMANDS.contains(args[0]))) {
            // A mistyped command must not quietly start a server instead.
            System.err.println("unknown command '" + String.join(" ", args)
                    + "'; usage: moviegraph.jar [aggregate | migrate | warm-up | import DIR [options]"
                    + " | engine [--port 8000] [--data-dir DIR] [--host H] | benchmark [load | import | capacity] [options]]");
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
        Moviegraph server;
        try {
            if (importing) {
                Import.run(config, Arrays.asList(args).subList(1, args.length), System.out);
                // Exit now rather than wait for a library's non-daemon thread, should one be left.
                System.exit(0);
                return;
            }
            if (args.length == 1 && args[0].equals("migrate")) {
                Migrate.run(config, System.out);
                // Exit now rather than wait for a library's non-daemon thread, should one be left.
                System.exit(0);
                return;
            }
            if (args.length == 1 && args[0].equals("warm-up")) {
                // The JVM must exit by itself for -XX:AOTCacheOutput to write the cache it recorded.
                Moviegraph.start(config.withPort(0).withWarmUpSeconds(config.warmUpSeconds() > 0
                        ? config.warmUpSeconds() : TRAINING_SECONDS), List.of()).close();
                System.exit(0);
                return;
            }
            if (args.length == 1) {
                Aggregate.run(config);
                return;
            }
            server = Moviegraph.start(config, List.of());
        } catch (ConfigException e) {
            // Found out while starting, e.g. DYNAMODB_ENDPOINT=aws with no region or no credentials.
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        } catch (RuntimeException | LinkageError e) {
            // An operator reads one line saying what failed; the stack trace is for debugging only.
            LOG.debug("Start-up failed", e);
            System.err.println(args.length >= 1 && (args[0].equals("migrate") || importing)
                    ? args[0] + " stopped: " + oneLine(e) + " (running it again continues where it stopped)"
                    : "moviegraph did not start: " + oneLine(e));
            System.exit(1);
            return;
        }
        // Any other way out (Ctrl-C, System.exit) closes the server in the same order; close() runs once.
        Runtime.getRuntime().addShutdownHook(new Thread(server::close, "moviegraph-shutdown"));
        // SIGTERM asks for a stop, so a clean one exits 0 rather than the JVM's default 143. sun.misc.Signal
        // (jdk.unsupported, kept on purpose by JEP 260) is the JDK's only way to handle a signal; javac warns.
        Signal.handle(new Signal("TERM"), signal -> stop(server, signal));
    }

    /**
     * The benchmarks are not production classes (src/bench/java): only a jar built with {@code -Pbench} has
     * them, so they are found by name rather than linked.
     */
    private static void runBenchmark(String[] args) {
        java.lang.reflect.Method main;
        try {
            main = Class.forName(BENCHMARKS).getMethod("main", String[].class);
        } catch (ClassNotFoundException | NoSuchMethodException e) {
            System.err.println("benchmark: this jar is built without the benchmarks;"
                    + " build one with them: mvn -Pbench -DskipTests package");
            System.exit(2);
            return;
        }
        try {
            main.invoke(null, (Object) args);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        } catch (InvocationTargetException e) {
            System.err.println("benchmark stopped: " + oneLine(e));
            System.exit(1);
        }
    }

    /**
     * What went wrong, on one line: the messages down the cause chain, each joined with ": " unless the
     * one before already says it, wrappers without a message of their own (CompletionException and the
     * like) skipped, line breaks made spaces.
     */
    static String oneLine(Throwable failure) {
        StringBuilder text = new StringBuilder();
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Throwable cause = failure; cause != null && seen.add(cause); cause = cause.getCause()) {
            if (isWrapper(cause)) {
                continue;
            }
            String message = cause.getMessage() == null || cause.getMessage().isBlank()
                    ? cause.getClass().getSimpleName() : cause.getMessage().strip();
            if (text.indexOf(message) < 0) {
                text.append(text.length() == 0 ? "" : ": ").append(message);
            }
        }
        String line = text.length() == 0 ? failure.getClass().getSimpleName() : text.toString();
        return line.replaceAll("\\s*\\R\\s*", " ");
    }

    /** Only carries its cause: its message, if any, is the cause's toString(). */
    private static boolean isWrapper(Throwable e) {
        return (e instanceof CompletionException || e instanceof ExecutionException
                || e instanceof InvocationTargetException || e instanceof UndeclaredThrowableException)
                && e.getCause() != null;
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
        // Exit even if a library leaves a non-daemon thread behind after it stops.
        System.exit(status);
    }
}
