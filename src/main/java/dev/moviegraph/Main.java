package dev.moviegraph;

import dev.moviegraph.config.AppConfig;
import dev.moviegraph.config.ConfigException;

import java.util.List;

/** Entry point: reads the environment, starts the server, stops it cleanly on SIGTERM. */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) {
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
