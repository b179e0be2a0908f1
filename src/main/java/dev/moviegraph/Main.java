package dev.moviegraph;

import dev.moviegraph.cli.Aggregate;
import dev.moviegraph.cli.Benchmark;
import dev.moviegraph.config.AppConfig;
import dev.moviegraph.config.ConfigException;

import java.util.Arrays;
import java.util.List;

/**
 * Entry point: with no arguments, reads the environment, starts the server and stops it cleanly on
 * SIGTERM; {@code aggregate} runs the stream aggregator alone ({@link Aggregate}); {@code benchmark
 * [options]} runs {@link Benchmark}.
 */
public final class Main {
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
                    + "'; usage: moviegraph.jar [aggregate | benchmark [options]]");
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
        Runtime.getRuntime().addShutdownHook(new Thread(server::close, "moviegraph-shutdown"));
    }
}
