package dev.moviegraph.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.moviegraph.support.Node;
import dev.moviegraph.support.NpmInstall;
import dev.moviegraph.support.TestServer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * GraphiQL at /graphiql in real headless Chromium (Debian's, driven by playwright-core from
 * {@code src/test/browser}, which downloads no browser): the page loads from this server alone under its
 * Content-Security-Policy, and from GraphiQL's own editor and button it runs a query, a query with
 * {@code @defer} (the title shown first, then the cast merged into it) and a subscription over graphql-ws
 * (its first answer, then the update after a stream is recorded).
 *
 * <p>Without Chromium ({@code /usr/bin/chromium}, or the path in {@code CHROMIUM}) the test is skipped with a
 * message, unless {@code REQUIRE_BROWSER=1} (CI's {@code .ci/run} installs Chromium and sets it), where it fails.
 */
class GraphiqlBrowserTest {
    private static final Path DIR = Path.of("src", "test", "browser");
    private static final String MOVIE = "tt0111161";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static boolean installed;

    @Test
    @Timeout(180)
    void graphiqlRunsAQueryADeferredQueryAndASubscriptionInChromium(@TempDir Path profile) throws IOException {
        Path chromium = Path.of(System.getenv().getOrDefault("CHROMIUM", "/usr/bin/chromium"));
        if (!Files.isExecutable(chromium)) {
            String message = "Chromium is not installed (" + chromium + "): install Debian's package chromium "
                    + "(apt-get install chromium) or set CHROMIUM to its path to run GraphiQL in a browser";
            if ("1".equals(System.getenv("REQUIRE_BROWSER"))) {
                fail(message + " (REQUIRE_BROWSER=1)");
            }
            Assumptions.abort(message);
        }
        TestServer server = TestServer.get();
        install();
        var months = server.sample().months();
        String month = months.get(months.size() - 3).toString();

        Node.Result run = Node.run(List.of("node", DIR.resolve("graphiql.mjs").toString(),
                "http://127.0.0.1:" + server.port(), chromium.toString(), profile.toString(), MOVIE, month), 150);
        String last = run.stdout().strip().lines().reduce((a, b) -> b).orElse("");
        assertEquals(0, run.exitCode(), run.toString());
        JsonNode seen = JSON.readTree(last);
        assertFalse(seen.has("error"), () -> "the page did not get through: " + seen.path("error").asText() + "\n" + run);

        // Everything from the server itself (no CDN), nothing refused by the CSP, no script error.
        assertEquals(List.of(), texts(seen.path("foreign")), "requests to other hosts: " + seen.path("requests"));
        assertEquals(List.of(), texts(seen.path("pageErrors")), run.toString());
        assertEquals(List.of(), texts(seen.path("consoleErrors")), run.toString());
        assertTrue(texts(seen.path("requests")).contains("WS /graphql"), "the subscription's socket: " + seen);

        // (a) A query: the result pane shows its answer.
        JsonNode expected = server.client().query("{ movie(id: \"" + MOVIE + "\") { title year cast(first: 3) "
                + "{ edges { node { person { name birthYear movies(first: 2) { edges { node { movie { title } } } } } } } } } }")
                .data().path("movie");
        assertEquals(expected.path("title"), seen.path("plain").path("data").path("movie").path("title"), seen.toString());
        assertEquals(expected.path("year"), seen.path("plain").path("data").path("movie").path("year"), seen.toString());

        // (b) The deferred query went out accepting multipart/mixed and came back in parts, the title first and
        // the cast in a later part; the pane ends with the cast merged into the movie and, when the first part
        // was whole well before the last, showed the title alone first.
        JsonNode attempts = seen.path("deferred");
        assertTrue(attempts.size() >= 1, seen.toString());
        JsonNode separated = null;
        ObjectNode merged = ((ObjectNode) expected.deepCopy()).remove(List.of("year"));
        for (JsonNode attempt : attempts) {
            assertTrue(attempt.path("accept").asText().contains("multipart/mixed"), attempt.toString());
            assertTrue(attempt.path("contentType").asText().startsWith("multipart/mixed")
                    && attempt.path("contentType").asText().contains("deferSpec=20220824"), attempt.toString());
            assertEquals(List.of(), texts(attempt.path("errors")), "DevTools gave the answer's bytes: " + attempt);
            JsonNode parts = attempt.path("parts");
            assertTrue(parts.size() >= 2, "in parts: " + attempt);
            JsonNode firstPart = parts.get(0);
            assertTrue(firstPart.path("hasNext").asBoolean(), attempt.toString());
            assertEquals(expected.path("title"), firstPart.path("data").path("movie").path("title"), attempt.toString());
            assertTrue(firstPart.path("data").path("movie").path("cast").isMissingNode(), "the cast is deferred: " + attempt);
            JsonNode lastPart = parts.get(parts.size() - 1);
            assertFalse(lastPart.path("hasNext").asBoolean(true), attempt.toString());
            assertEquals("cast", parts.get(1).path("incremental").path(0).path("label").asText(), attempt.toString());

            JsonNode movie = attempt.path("final").path("data").path("movie");
            assertEquals(merged, movie, "the merged result: " + attempt);
            assertFalse(attempt.path("final").has("errors"), attempt.toString());
            for (JsonNode shown : attempt.path("shown")) {
                if (shown.path("pending").asBoolean(false)) {
                    assertTrue(shown.path("cast").isNull() && shown.path("title").asText().equals(expected.path("title").asText()),
                            "a result before the last part shows the title and no cast yet: " + attempt);
                }
            }
            if (attempt.path("firstWhole").isNumber()
                    && attempt.path("lastWhole").asLong() - attempt.path("firstWhole").asLong() >= 100) {
                separated = attempt;
            }
        }
        if (separated != null) {
            // The first part was whole some 100 ms or more before the last: the page showed it alone first.
            List<String> states = new ArrayList<>();
            for (JsonNode shown : separated.path("shown")) {
                if (!shown.path("title").isNull()) {
                    states.add(shown.path("cast").isNull() ? "title" : "title+cast");
                }
            }
            assertEquals(List.of("title", "title+cast"), states, "shown part by part: " + separated);
        } else {
            System.err.println("GraphiqlBrowserTest: the deferred parts arrived together each time (" + attempts.size()
                    + " runs): only the merged result was checked");
        }

        // (c) The subscription: its first answer, then the update after a stream was recorded.
        JsonNode subscription = seen.path("subscription");
        assertTrue(seen.path("recorded").path("data").path("recordStream").path("counted").asBoolean(), seen.toString());
        assertNotNull(subscription.get("first"), seen.toString());
        assertEquals(subscription.path("first").asLong() + 1, subscription.path("updated").asLong(), seen.toString());
    }

    private static List<String> texts(JsonNode array) {
        List<String> texts = new ArrayList<>();
        array.forEach(node -> texts.add(node.asText()));
        return texts;
    }

    /** {@code npm ci} in src/test/browser once per JVM when its node_modules is missing or older than the lock. */
    private static synchronized void install() {
        if (installed) {
            return;
        }
        NpmInstall.locked(DIR, () -> {
            Path installedLock = DIR.resolve("node_modules").resolve(".package-lock.json");
            boolean upToDate;
            try {
                upToDate = Files.isRegularFile(installedLock) && Files.getLastModifiedTime(installedLock)
                        .compareTo(Files.getLastModifiedTime(DIR.resolve("package-lock.json"))) >= 0;
            } catch (IOException e) {
                upToDate = false;
            }
            if (!upToDate) {
                Node.Result npm = Node.run(List.of("npm", "ci", "--prefix", DIR.toString(), "--no-audit", "--no-fund"), 300);
                assertTrue(npm.exitCode() == 0, "npm ci failed: " + npm);
            }
        });
        installed = true;
    }
}
