package dev.moviegraph.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.support.Node;
import dev.moviegraph.support.NpmInstall;
import dev.moviegraph.support.TestServer;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * graphql-http's 61 GraphQL-over-HTTP server audits (MUST, SHOULD and MAY), run by Node against the
 * shared real server: no MUST error and no SHOULD warning. The same audit script CI runs against the
 * packaged jar ({@code .ci/audit}); npm installs graphql-http from its lock file on first use.
 */
class GraphQLOverHttpAuditTest {
    private static final Path AUDIT = Path.of(".ci", "audit");

    private static String run(List<String> command, long timeoutSeconds) {
        Node.Result run = Node.run(command, timeoutSeconds);
        assertEquals(0, run.exitCode(), String.join(" ", command) + "\n" + run);
        return run.stdout() + run.stderr();
    }

    @Test
    void everyMustAndShouldAuditOfGraphqlHttpPasses() {
        NpmInstall.locked(AUDIT, () -> {
            if (!Files.isDirectory(AUDIT.resolve("node_modules").resolve("graphql-http"))) {
                run(List.of("npm", "ci", "--prefix", AUDIT.toString(), "--no-audit", "--no-fund", "--silent"), 300);
            }
        });

        String output = run(List.of("node", AUDIT.resolve("audit.mjs").toString(),
                "http://127.0.0.1:" + TestServer.get().port() + "/graphql"), 120);

        assertTrue(output.contains("summary: 61 audits - ok 61, notice 0, warn 0, error 0"), output);
    }
}
