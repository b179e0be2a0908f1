package dev.moviegraph.support;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Runs the JavaScript client scripts of {@code src/test/js} (one script per client feature, each printing
 * its result as one JSON line) with Node. Installs their npm packages from the lock file on first use.
 * Node and npm are on every machine this project builds on: without them a test fails with
 * {@link Node}'s message, it is not skipped.
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
        return run(Map.of(), script, args);
    }

    /**
     * {@link #run(String, String...)} with these variables added to the script's environment (what a
     * script should not take as an argument, such as a token).
     */
    public static Result run(Map<String, String> environment, String script, String... args) {
        install();
        List<String> command = new ArrayList<>(List.of("node", DIR.resolve(script).toString()));
        command.addAll(List.of(args));
        Node.Result result = Node.run(command, environment, RUN_SECONDS);
        String last = result.stdout().strip().lines().reduce((first, second) -> second).orElse("");
        JsonNode json = null;
        try {
            json = last.startsWith("{") ? new ObjectMapper().readTree(last) : null;
        } catch (IOException e) {
            // not JSON: the script failed before printing its result, which the output shows
        }
        return new Result(result.exitCode(), result.stdout(), result.stderr(), json);
    }

    /**
     * {@code npm ci} once per JVM when {@code node_modules} is missing or older than the lock file (a
     * package added since the last install), one JVM at a time ({@link NpmInstall}).
     */
    private static synchronized void install() {
        if (installed) {
            return;
        }
        NpmInstall.locked(DIR, () -> {
            if (!upToDate()) {
                Node.Result npm = Node.run(List.of("npm", "ci", "--prefix", DIR.toString(), "--no-audit", "--no-fund"),
                        INSTALL_SECONDS);
                assertTrue(npm.exitCode() == 0, "npm ci failed: " + npm);
            }
        });
        installed = true;
    }

    private static boolean upToDate() {
        // npm writes node_modules/.package-lock.json on every install: it is the installed tree's lock.
        Path installedLock = DIR.resolve("node_modules").resolve(".package-lock.json");
        try {
            return Files.isRegularFile(installedLock) && Files.getLastModifiedTime(installedLock)
                    .compareTo(Files.getLastModifiedTime(DIR.resolve("package-lock.json"))) >= 0;
        } catch (IOException e) {
            return false;
        }
    }
}
