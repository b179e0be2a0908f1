package dev.moviegraph.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.moviegraph.support.Node;
import dev.moviegraph.support.TestServer;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/**
 * graphql-http's 61 GraphQL-over-HTTP server audits (MUST, SHOULD and MAY), run by Node against the
 * shared real server: no MUST error and no SHOULD warning. The same audit script CI runs against the
 * packaged jar ({@code .ci/audit}); npm installs graphql-http from its lock file on first use.
 */
class GraphQLOverHttpAuditTest {
    private static final Path AUDIT = Path.of(".ci", "audit");

    private static String run(List<String> command, long timeoutSeconds) throws Exception {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] output = process.getInputStream().readAllBytes();
        assertTrue(process.waitFor(timeoutSeconds, TimeUnit.SECONDS), "did not finish: " + command);
        String text = new String(output, StandardCharsets.UTF_8);
        assertEquals(0, process.exitValue(), String.join(" ", command) + "\n" + text);
        return text;
    }

    @Test
    void everyMustAndShouldAuditOfGraphqlHttpPasses() throws Exception {
        // Node and npm are on every machine this project builds on; a machine without them cannot
        // run the audit at all, which is a skip, not a pass.
        assumeTrue(Node.available(), "node is not installed");
        if (!Files.isDirectory(AUDIT.resolve("node_modules").resolve("graphql-http"))) {
            run(List.of("npm", "ci", "--prefix", AUDIT.toString(), "--no-audit", "--no-fund", "--silent"), 300);
        }

        String output = run(List.of("node", AUDIT.resolve("audit.mjs").toString(),
                "http://127.0.0.1:" + TestServer.get().port() + "/graphql"), 120);

        assertTrue(output.contains("summary: 61 audits - ok 61, notice 0, warn 0, error 0"), output);
    }
}
