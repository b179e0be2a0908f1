package dev.moviegraph.support;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Node.js, which the tests that run JavaScript (the GraphQL-over-HTTP audit, GraphiQL's bootstrap) need. */
public final class Node {
    private Node() {
    }

    /** Whether this command runs and exits 0 within 30 s, its output discarded. */
    public static boolean runs(List<String> command) {
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            process.getInputStream().transferTo(java.io.OutputStream.nullOutputStream());
            return process.waitFor(30, TimeUnit.SECONDS) && process.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Whether node is installed. */
    public static boolean available() {
        return runs(List.of("node", "--version"));
    }
}
