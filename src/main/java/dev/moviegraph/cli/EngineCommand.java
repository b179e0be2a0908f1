package dev.moviegraph.cli;

import dev.moviegraph.local.EmbeddedDynamo;

import java.io.PrintStream;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code moviegraph.jar engine [--port 8000] [--data-dir DIR] [--host H]}: the DynamoDB-compatible engine
 * on its own, for gateways, commands and tools that reach it as DYNAMODB_ENDPOINT=URL. In memory without
 * {@code --data-dir}; on loopback ({@value #DEFAULT_HOST}) unless {@code --host} says otherwise (it checks
 * no credentials, so an address others can reach exposes every table to them). Prints where its data is,
 * then {@code engine listening on http://HOST:PORT} once it accepts requests, and runs until it is killed; SIGTERM
 * or Ctrl-C closes it (its data folder complete). A bad argument is one line on stderr and exit status 2, a
 * failed start (the port taken, a data folder it cannot use) one line and 1.
 */
public final class EngineCommand {
    static final String USAGE = "usage: moviegraph.jar engine [--port 8000] [--data-dir DIR] [--host 127.0.0.1]";
    static final int DEFAULT_PORT = 8000;
    static final String DEFAULT_HOST = "127.0.0.1";

    private EngineCommand() {
    }

    /** What the arguments ask for. */
    record Options(String host, int port, Path dataDir) {
    }

    /** A wrong argument, said in one line. */
    static final class BadArgument extends Exception {
        BadArgument(String message) {
            super(message);
        }
    }

    /** The command's own main class, also run directly ({@code java -cp ... dev.moviegraph.cli.EngineCommand}). */
    public static void main(String[] args) throws InterruptedException {
        System.exit(run(List.of(args), System.out, System.err));
    }

    /** Starts the engine and waits until the process is stopped; returns an exit status when it cannot start. */
    public static int run(List<String> args, PrintStream out, PrintStream err) throws InterruptedException {
        if (args.size() == 1 && (args.get(0).equals("--help") || args.get(0).equals("-h"))) {
            out.println(USAGE);
            return 0;
        }
        Options options;
        try {
            options = parse(args);
        } catch (BadArgument e) {
            err.println("engine: " + e.getMessage() + "; " + USAGE);
            return 2;
        }
        EmbeddedDynamo engine;
        try {
            engine = EmbeddedDynamo.standalone(options.host(), options.port(), options.dataDir());
        } catch (RuntimeException e) {
            err.println("engine did not start: " + oneLine(e));
            return 1;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(engine::close, "engine-shutdown"));
        URI endpoint = engine.endpoint();
        out.println(options.dataDir() == null ? "engine data: in memory, gone when it stops"
                : "engine data: kept in " + options.dataDir().toAbsolutePath() + "; " + engine.rowsDescription());
        // Last: the line that says it is ready.
        out.println("engine listening on " + endpoint);
        out.flush();
        // The engine's threads are daemons: this one keeps the process until it is stopped.
        Thread.currentThread().join();
        return 0;
    }

    static Options parse(List<String> args) throws BadArgument {
        String host = DEFAULT_HOST;
        int port = DEFAULT_PORT;
        Path dataDir = null;
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            String name = arg;
            String value;
            int equals = arg.indexOf('=');
            if (arg.startsWith("--") && equals > 0) {
                name = arg.substring(0, equals);
                value = arg.substring(equals + 1);
            } else if (List.of("--port", "--data-dir", "--host").contains(arg)) {
                if (i + 1 >= args.size()) {
                    throw new BadArgument(arg + " needs a value");
                }
                value = args.get(++i);
            } else {
                throw new BadArgument("unknown argument '" + arg + "'");
            }
            if (!seen.add(name) && List.of("--port", "--data-dir", "--host").contains(name)) {
                throw new BadArgument(name + " is given twice");
            }
            switch (name) {
                case "--port" -> port = port(value);
                case "--data-dir" -> dataDir = dataDir(value);
                case "--host" -> host = host(value);
                default -> throw new BadArgument("unknown argument '" + arg + "'");
            }
        }
        return new Options(host, port, dataDir);
    }

    private static int port(String value) throws BadArgument {
        try {
            int port = Integer.parseInt(value.strip());
            if (port >= 0 && port <= 65535) {
                return port;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw new BadArgument("--port must be a number from 0 (a free port) to 65535, not '" + value + "'");
    }

    private static Path dataDir(String value) throws BadArgument {
        if (value.isBlank()) {
            throw new BadArgument("--data-dir needs a folder");
        }
        Path dir;
        try {
            dir = Path.of(value);
        } catch (InvalidPathException e) {
            throw new BadArgument("--data-dir '" + value + "' is not a path: " + e.getReason());
        }
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw new BadArgument("--data-dir '" + value + "' is a file, not a folder");
        }
        return dir;
    }

    private static String host(String value) throws BadArgument {
        if (value.isBlank()) {
            throw new BadArgument("--host needs an address");
        }
        try {
            InetAddress.getByName(value.strip());
            return value.strip();
        } catch (UnknownHostException e) {
            throw new BadArgument("--host '" + value + "' is not an address of this machine");
        }
    }

    /** The messages down the cause chain, once each, on one line. */
    private static String oneLine(Throwable failure) {
        StringBuilder text = new StringBuilder();
        for (Throwable cause = failure; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            String message = cause.getMessage() == null || cause.getMessage().isBlank()
                    ? cause.getClass().getSimpleName() : cause.getMessage().strip();
            if (text.indexOf(message) < 0) {
                text.append(text.length() == 0 ? "" : ": ").append(message);
            }
        }
        return text.toString().replaceAll("\\s*\\R\\s*", " ");
    }
}
