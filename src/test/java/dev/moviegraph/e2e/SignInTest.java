package dev.moviegraph.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.Moviegraph;
import dev.moviegraph.catalog.Movie;
import dev.moviegraph.config.AppConfig;
import dev.moviegraph.local.SampleCatalog;
import dev.moviegraph.support.GraphQLClient;
import dev.moviegraph.support.GraphQLClient.Response;
import dev.moviegraph.support.StreamedResponse;
import dev.moviegraph.support.WsClient;

import com.fasterxml.jackson.databind.JsonNode;

import java.net.ServerSocket;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;

import kotlin.jvm.functions.Function0;
import no.nav.security.mock.oauth2.MockOAuth2Server;
import no.nav.security.mock.oauth2.OAuth2Config;
import no.nav.security.mock.oauth2.token.DefaultOAuth2TokenCallback;
import no.nav.security.mock.oauth2.token.KeyProvider;
import no.nav.security.mock.oauth2.token.OAuth2TokenProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The real server signing viewers in with a real OpenID Connect provider (mock-oauth2-server, started
 * here): an editor's token may change the catalog, a viewer's may not (403), no token is 401 with
 * WWW-Authenticate, a bad token is 401 with a GraphQL error naming what was wrong, the WRITE_TOKEN still
 * works, budgets count by subject, a WebSocket's token is checked at connection_init and the socket closes
 * when it expires, and a provider that is down gives a clear 503 and no hang.
 */
class SignInTest {
    private static final String ISSUER = "moviegraph-test";
    private static final String AUDIENCE = "moviegraph-api";
    private static final String WRITE_TOKEN = "sign-in-test-write-token";
    private static final String JSON = "application/json";
    private static final String MUTATION = GraphQLClient.body(
            "mutation { putPerson(input: {id: \"nm9700001\", name: \"Signed In\"}) { name } }", Map.of());

    private static final AtomicReference<Duration> providerClockShift = new AtomicReference<>(Duration.ZERO);
    private static MockOAuth2Server provider;
    private static Moviegraph server;
    private static GraphQLClient client;
    private static String spend;

    @BeforeAll
    static void start() {
        Function0<Instant> clock = () -> Instant.now().plus(providerClockShift.get());
        provider = new MockOAuth2Server(new OAuth2Config(false, null, null, false,
                new OAuth2TokenProvider(new KeyProvider(), clock)));
        provider.start();
        server = Moviegraph.start(AppConfig.fromEnvironment(Map.of("PORT", "0",
                "OIDC_ISSUER", provider.issuerUrl(ISSUER).toString(), "OIDC_AUDIENCE", AUDIENCE,
                "WRITE_TOKEN", WRITE_TOKEN, "CLIENT_READ_UNITS_PER_SECOND", "1")), List.of());
        client = new GraphQLClient(server.port());
        String ids = SampleCatalog.generate(SampleCatalog.DEFAULT_SEED).movies().stream().limit(50).map(Movie::id)
                .map(id -> "\"" + id.value() + "\"").collect(Collectors.joining(", ", "[", "]"));
        spend = GraphQLClient.body("{ movies(ids: " + ids + ") { title } }", Map.of());
        awaitProvider(client);
    }

    /**
     * Until the gateway has the provider's keys: on a busy machine the provider's first answers (a JVM
     * warming up) may take longer than the gateway's 3 s timeout, and the gateway then waits 5 s before
     * asking again, answering 503 meanwhile, as it would for a provider that is down.
     */
    private static void awaitProvider(GraphQLClient gateway) {
        String probe = GraphQLClient.body("{ movie(id: \"tt0111161\") { title } }", Map.of());
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (gateway.post(probe, JSON, JSON, bearer(token("probe", List.of(), List.of(AUDIENCE), 600))).status() == 503) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("The gateway never got the provider's keys");
            }
            try {
                Thread.sleep(500);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    @AfterAll
    static void stop() {
        server.close();
        provider.shutdown();
    }

    @AfterEach
    void resetClock() {
        providerClockShift.set(Duration.ZERO);
    }

    private static String token(String subject, List<String> roles, List<String> audience, long lifetimeSeconds) {
        return provider.issueToken(ISSUER, "movies-web", new DefaultOAuth2TokenCallback(ISSUER, subject, "JWT", audience,
                roles.isEmpty() ? Map.of() : Map.of("roles", roles), lifetimeSeconds)).serialize();
    }

    private static Map<String, String> bearer(String token) {
        return Map.of("Authorization", "Bearer " + token);
    }

    private static Response mutate(Map<String, String> headers) {
        return client.post(MUTATION, JSON, JSON, headers);
    }

    @Test
    void anEditorsTokenMayChangeTheCatalogAndAViewersMayNot() {
        Response viewer = mutate(bearer(token("viola", List.of(), List.of(AUDIENCE), 600)));
        assertEquals(403, viewer.status(), viewer.raw().body());
        assertEquals("FORBIDDEN", viewer.firstErrorCode());
        assertTrue(viewer.errors().get(0).path("message").asText().contains("editor"), viewer.raw().body());

        Response editor = mutate(bearer(token("erin", List.of("Editor"), List.of(AUDIENCE), 600)));
        assertEquals(200, editor.status(), editor.raw().body());
        assertEquals("Signed In", editor.data().path("putPerson").path("name").asText());
    }

    @Test
    void noTokenIsAnonymousReadsWorkAndAMutationIs401WithWwwAuthenticate() {
        assertEquals(200, client.post(GraphQLClient.body("{ movie(id: \"tt0111161\") { title } }", Map.of()), JSON, JSON,
                Map.of()).status());
        Response anonymous = mutate(Map.of());
        assertEquals(401, anonymous.status());
        assertEquals("UNAUTHENTICATED", anonymous.firstErrorCode());
        assertTrue(anonymous.raw().headers().firstValue("WWW-Authenticate").orElse("").startsWith("Bearer"));
    }

    @Test
    void aPersistedMutationIsUnderTheSameRules() {
        String query = "mutation { putPerson(input: {id: \"nm9700002\", name: \"Persisted\"}) { name } }";
        String hash = dev.moviegraph.support.PersistedRequests.sha256(query);
        String extensions = dev.moviegraph.support.PersistedRequests.extension(hash);
        String register = "{\"query\":" + com.fasterxml.jackson.databind.node.TextNode.valueOf(query) + ",\"extensions\":"
                + extensions + "}";
        String byHash = "{\"extensions\":" + extensions + "}";

        Response anonymous = client.post(register, JSON, JSON, Map.of());
        assertEquals(401, anonymous.status(), anonymous.raw().body());
        Response viewer = client.post(byHash, JSON, JSON, bearer(token("viola", List.of(), List.of(AUDIENCE), 600)));
        assertEquals(403, viewer.status(), "known by its hash now, refused all the same: " + viewer.raw().body());
        Response editor = client.post(byHash, JSON, JSON, bearer(token("erin", List.of("editor"), List.of(AUDIENCE), 600)));
        assertEquals(200, editor.status(), editor.raw().body());
        assertEquals("Persisted", editor.data().path("putPerson").path("name").asText());
    }

    @Test
    void theWriteTokenStillWorksForScripts() {
        assertEquals(200, mutate(Map.of("Authorization", "Bearer " + WRITE_TOKEN)).status());
    }

    @Test
    void anExpiredTokenIs401NamingWhatWasWrongWithoutAStackTrace() {
        providerClockShift.set(Duration.ofHours(-2));
        String expired = token("erin", List.of("editor"), List.of(AUDIENCE), 600);
        providerClockShift.set(Duration.ZERO);

        Response response = client.post(GraphQLClient.body("{ movie(id: \"tt0111161\") { title } }", Map.of()), JSON,
                JSON, bearer(expired));

        assertEquals(401, response.status(), response.raw().body());
        assertEquals("UNAUTHENTICATED", response.firstErrorCode());
        String message = response.errors().get(0).path("message").asText();
        assertTrue(message.toLowerCase().contains("expired"), message);
        String challenge = response.raw().headers().firstValue("WWW-Authenticate").orElse("");
        assertTrue(challenge.startsWith("Bearer error=\"invalid_token\""), challenge);
        assertFalse(response.raw().body().contains("Exception") || response.raw().body().contains("\tat "),
                response.raw().body());
    }

    @Test
    void aTokenForAnotherApiIs401() {
        Response response = mutate(bearer(token("erin", List.of("editor"), List.of("another-api"), 600)));
        assertEquals(401, response.status(), response.raw().body());
        assertTrue(response.errors().get(0).path("message").asText().contains(AUDIENCE), response.raw().body());
    }

    @Test
    void aSignedInViewersReadUnitsCountByItsSubjectNotItsAddress() {
        String alice = token("alice-budget", List.of(), List.of(AUDIENCE), 600);
        String bob = token("bob-budget", List.of(), List.of(AUDIENCE), 600);
        assertEquals(200, client.post(spend, JSON, JSON, bearer(alice)).status());
        Response again = client.post(spend, JSON, JSON, bearer(alice));
        assertEquals(429, again.status(), "alice spent her units: " + again.raw().body());
        Response other = client.post(spend, JSON, JSON, bearer(bob));
        assertEquals(200, other.status(), "bob, from the same address, has his own: " + other.raw().body());
        String aliceAgain = token("alice-budget", List.of(), List.of(AUDIENCE), 600);
        assertEquals(429, client.post(spend, JSON, JSON, bearer(aliceAgain)).status(),
                "a new token of the same subject is the same budget");
    }

    @Test
    void aWebSocketsTokenIsCheckedAtConnectionInit() {
        try (WsClient socket = WsClient.open(server.port())) {
            socket.send(Map.of("type", "connection_init", "payload", Map.of("Authorization", "Bearer not-a-token")));
            assertEquals(4403, socket.closeCode(10));
            assertTrue(socket.closeReason().startsWith("Forbidden"), socket.closeReason());
        }
    }

    @Test
    void aWebSocketClosesWith4403WhenItsTokenExpires() {
        // Valid for 5 s: accepted at connection_init, and the socket is closed at its exp (the clock skew
        // allowed when a token is checked does not lengthen a socket's life).
        String shortLived = token("sam", List.of(), List.of(AUDIENCE), 5);
        try (WsClient socket = WsClient.open(server.port())) {
            socket.send(Map.of("type", "connection_init", "payload", Map.of("Authorization", "Bearer " + shortLived)));
            assertEquals("connection_ack", socket.next(10).path("type").asText());
            assertEquals(4403, socket.closeCode(30), "closed once the token expired");
            assertTrue(socket.closeReason().contains("expired"), socket.closeReason());
        }
    }

    @Test
    void anEventStreamSignsInWithItsAuthorizationHeaderAndEndsWhenItsTokenExpires() {
        String body = GraphQLClient.body("subscription { watchlistChanged { id } }", Map.of());
        try (StreamedResponse refused = StreamedResponse.post(server.port(), body, "text/event-stream",
                bearer("not-a-token"))) {
            assertEquals(401, refused.status(), refused.raw());
            assertTrue(refused.headers().firstValue("WWW-Authenticate").orElse("").contains("invalid_token"));
        }
        try (StreamedResponse anonymous = StreamedResponse.post(server.port(), body, "text/event-stream", Map.of())) {
            List<JsonNode> results = anonymous.jsonUntilEnd(Duration.ofSeconds(30));
            assertEquals("UNAUTHENTICATED", results.get(0).path("errors").get(0).path("extensions").path("code").asText(),
                    anonymous.raw());
            assertTrue(anonymous.closedProperly(), anonymous.raw());
        }
        // Valid for 8 s: the viewer's watchlist at once, and the end of the stream at the token's exp.
        try (StreamedResponse signedIn = StreamedResponse.post(server.port(), body, "text/event-stream",
                bearer(token("sse-sam", List.of(), List.of(AUDIENCE), 8)))) {
            StreamedResponse.Piece first = signedIn.next(Duration.ofSeconds(30));
            assertNotNull(first, signedIn.raw());
            assertEquals("viewer:sse-sam", first.json().path("data").path("watchlistChanged").path("id").asText(),
                    signedIn.raw());
            List<JsonNode> rest = signedIn.jsonUntilEnd(Duration.ofSeconds(30));
            assertEquals("UNAUTHENTICATED", rest.get(rest.size() - 1).path("errors").get(0).path("extensions")
                    .path("code").asText(), signedIn.raw());
            assertTrue(signedIn.closedProperly(), "ended with complete once the token expired: " + signedIn.raw());
        }
    }

    @Test
    void aProviderThatIsDownGivesAClear503AndNoHangWhileAnonymousReadsGoOn() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        try (Moviegraph orphan = Moviegraph.start(AppConfig.fromEnvironment(Map.of("PORT", "0",
                "OIDC_ISSUER", "http://127.0.0.1:" + closedPort + "/gone", "OIDC_AUDIENCE", AUDIENCE)), List.of())) {
            GraphQLClient orphaned = new GraphQLClient(orphan.port());
            long start = System.nanoTime();
            Response refused = orphaned.post(GraphQLClient.body("{ movie(id: \"tt0111161\") { title } }", Map.of()),
                    JSON, JSON, bearer(token("alice", List.of(), List.of(AUDIENCE), 600)));
            long millis = (System.nanoTime() - start) / 1_000_000;

            assertEquals(503, refused.status(), refused.raw().body());
            assertEquals("UNAVAILABLE", refused.firstErrorCode());
            assertTrue(refused.errors().get(0).path("message").asText().contains("could not be reached"),
                    refused.raw().body());
            assertTrue(millis < 20_000, "answered in " + millis + " ms, not hung");
            assertEquals(200, orphaned.post(GraphQLClient.body("{ movie(id: \"tt0111161\") { title } }", Map.of()),
                    JSON, JSON, Map.of()).status());
        }
    }
}
