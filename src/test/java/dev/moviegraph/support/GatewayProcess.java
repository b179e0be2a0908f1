package dev.moviegraph.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The server in a JVM of its own, started as in production: java dev.moviegraph.Main and an environment (the JVM
 * started as {@link ChildJava} starts one, for a faster start).
 */
public final class GatewayProcess implements AutoCloseable {
    /** The ready line, as text or as JSON (LOG_FORMAT=json escapes its slashes). */
    private static final Pattern READY = Pattern.compile("GraphiQL at http:\\\\?/\\\\?/localhost:(\\d+)\\\\?/graphiql");

    private final Process process;
    private final Path logFile;
    private int port;

    private GatewayProcess(Process process, Path logFile) {
        this.process = process;
        this.logFile = logFile;
    }

    /**
     * Starts {@code java dev.moviegraph.Main} on a free port with only PATH, HOME and {@code env} set, and the EC2
     * instance metadata service off unless {@code env} says otherwise (as the tests' JVMs have it: pom.xml).
     */
    public static GatewayProcess launch(Path logFile, Map<String, String> env) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(ChildJava.command("-cp", System.getProperty("java.class.path"),
                "dev.moviegraph.Main"))
                .redirectErrorStream(true).redirectOutput(logFile.toFile());
        Map<String, String> environment = builder.environment();
        environment.keySet().removeIf(key -> !key.equals("PATH") && !key.equals("HOME"));
        environment.put("PORT", "0");
        environment.put("AWS_EC2_METADATA_DISABLED", "true");
        environment.putAll(env);
        return new GatewayProcess(builder.start(), logFile);
    }

    /** Waits for the ready line (PORT=0: it names the port) and a healthy /health. */
    public GatewayProcess awaitReady() throws Exception {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (System.nanoTime() < until && process.isAlive()) {
            Matcher ready = READY.matcher(log());
            if (ready.find()) {
                port = Integer.parseInt(ready.group(1));
                GraphQLClient.Response health = new GraphQLClient(port).get("/health", Map.of(), null);
                assertEquals(200, health.status(), health.raw().body());
                return this;
            }
            Thread.sleep(100);
        }
        fail("the server did not start\n" + log());
        return this;
    }

    public Process process() {
        return process;
    }

    public int port() {
        return port;
    }

    public String log() {
        try {
            return Files.readString(logFile);
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    /** The start-up time and the shutdown steps, as logged. */
    public String shutdownLog() {
        return String.join("\n", log().lines()
                .filter(line -> line.contains("SIGTERM handler") || line.contains("ready in")).toList());
    }

    /** SIGTERM, then SIGKILL if it has not exited within 30 s. */
    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}
