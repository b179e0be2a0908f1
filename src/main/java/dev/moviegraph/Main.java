package dev.moviegraph;

import dev.moviegraph.cli.Benchmark;
import dev.moviegraph.config.AppConfig;
import dev.moviegraph.config.ConfigException;

import java.util.Arrays;
import java.util.List;

/**
 * Entry point: with no arguments, reads the environment, starts the server and stops it cleanly on
 * SIGTERM; {@code benchmark [options]} runs {@link Benchmark} instead.
 */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) {
        if (args.length > 0) {
            if (args[0].equals("benchmark")) {
                Benchmark.main(Arrays.copyOfRange(args, 1, args.length));
                return;
            }
            // A mistyped command must not quietly start a server instead.
            System.err.println("unknown command '" + args[0] + "'; usage: moviegraph.jar [benchmark [options]]");
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
        Moviegraph server = Moviegraph.start(config, List.of());
        Runtime.getRuntime().addShutdownHook(new Thread(server::close, "moviegraph-shutdown"));
    }
}
