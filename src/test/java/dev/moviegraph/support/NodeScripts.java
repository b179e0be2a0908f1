package dev.moviegraph.support;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Runs the JavaScript client scripts of {@code src/test/js} (one script per client feature, each printing
 * its result as one JSON line) with Node. Installs their npm packages from the lock file on first use.
 * Node and npm are on every machine this project builds on: without them a test fails, it is not skipped.
 */
public final class NodeScripts {
    public static final Path DIR = Path.of("src", "test", "js");
    private static final long INSTALL_SECONDS = 300;
    private static final long RUN_SECONDS = 120;
    private static boolean installed;

    private NodeScripts() {
    }

    /** A finished script: its exit code, its output, and its last stdout line parsed as JSON when it is. */
    public record Result(int exitCode, String stdout, String stderr, JsonNode json) {
        @Override
        public String toString() {
            return "exit " + exitCode + "\nstdout:\n" + stdout + "\nstderr:\n" + stderr;
        }
    }

    /** Runs {@code node src/test/js/SCRIPT ARGS...} and waits for it. */
    public static Result run(String script, String... args) {
        install();
        List<String> command = new ArrayList<>(List.of("node", DIR.resolve(script).toString()));
        command.addAll(List.of(args));
        Result result = exec(command, RUN_SECONDS);
        String last = result.stdout().strip().lines().reduce((first, second) -> second).orElse("");
        try {
            JsonNode json = last.startsWith("{") ? new ObjectMapper().readTree(last) : null;
            return new Result(result.exitCode(), result.stdout(), result.stderr(), json);
        } catch (IOException e) {
            return result;
        }
    }

    /** {@code npm ci} once per JVM when {@code node_modules} is missing. */
    private static synchronized void install() {
        if (installed) {
            return;
        }
        if (!Files.isDirectory(DIR.resolve("node_modules"))) {
            Result npm = exec(List.of("npm", "ci", "--prefix", DIR.toString(), "--no-audit", "--no-fund"),
                    INSTALL_SECONDS);
            assertTrue(npm.exitCode() == 0, "npm ci failed: " + npm);
        }
        installed = true;
    }

    private static Result exec(List<String> command, long timeoutSeconds) {
        try {
            Process process = new ProcessBuilder(command).start();
            CompletableFuture<String> stderr = CompletableFuture.supplyAsync(() -> read(process.getErrorStream()));
            String stdout = read(process.getInputStream());
            if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                fail(String.join(" ", command) + " still running after " + timeoutSeconds + " s");
            }
            return new Result(process.exitValue(), stdout, stderr.join(), null);
        } catch (IOException e) {
            throw new AssertionError("could not run " + String.join(" ", command)
                    + " (Node and npm must be installed): " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    private static String read(java.io.InputStream in) {
        try {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }
}
