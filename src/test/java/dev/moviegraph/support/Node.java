package dev.moviegraph.support;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Node.js and npm, which every test that runs JavaScript goes through (the JavaScript clients, the
 * GraphQL-over-HTTP audit, GraphiQL's bootstrap and examples). They are on every machine this project
 * builds on, CI's included: a machine without them fails those tests with {@link #missing}'s message,
 * never skips them, so a missing Node cannot pass for a green build.
 */
public final class Node {
    /** What to install, in the message of a missing executable and in README.md ("Two commands"). */
    public static final String INSTALL = "Node.js 20 or newer (with npm)";

    private Node() {
    }

    /** A finished command: its exit code and its two outputs. */
    public record Result(int exitCode, String stdout, String stderr) {
        @Override
        public String toString() {
            return "exit " + exitCode + "\nstdout:\n" + stdout + "\nstderr:\n" + stderr;
        }
    }

    /**
     * Runs {@code command} (node, npm, or an executable of theirs), with these variables added to the
     * environment, and waits up to {@code timeoutSeconds} for it. A command that cannot start fails
     * the test with {@link #missing}; one that does not finish in time is killed and fails it too.
     */
    public static Result run(List<String> command, Map<String, String> environment, long timeoutSeconds) {
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().putAll(environment);
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new AssertionError(missing(command.get(0), e), e);
        }
        CompletableFuture<String> stderr = CompletableFuture.supplyAsync(() -> read(process.getErrorStream()));
        String stdout = read(process.getInputStream());
        try {
            if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                fail(String.join(" ", command) + " still running after " + timeoutSeconds + " s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while running " + String.join(" ", command), e);
        }
        return new Result(process.exitValue(), stdout, stderr.join());
    }

    /** {@link #run} with the environment as it is. */
    public static Result run(List<String> command, long timeoutSeconds) {
        return run(command, Map.of(), timeoutSeconds);
    }

    /** The one message of a test that needs Node on a machine without it. */
    static String missing(String executable, IOException cause) {
        return "this test runs JavaScript and could not start `" + executable + "`: install " + INSTALL
                + " and put it on the PATH (" + cause.getMessage() + ")";
    }

    private static String read(InputStream in) {
        try {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return ""; // the process was killed (a timeout): what it printed no longer matters
        }
    }
}
