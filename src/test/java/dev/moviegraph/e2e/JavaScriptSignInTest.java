package dev.moviegraph.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.Moviegraph;
import dev.moviegraph.config.AppConfig;
import dev.moviegraph.local.SampleCatalog;
import dev.moviegraph.support.NodeScripts;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.List;
import java.util.Map;

import no.nav.security.mock.oauth2.MockOAuth2Server;
import no.nav.security.mock.oauth2.token.DefaultOAuth2TokenCallback;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A signed-in app's real JavaScript clients (src/test/js/signin.mjs) against the real server signing
 * viewers in with a real OpenID Connect provider (mock-oauth2-server, started here): Apollo Client with an
 * auth link sends the token the app holds, and sees a refused operation as its error link and its
 * ApolloError show it; graphql-ws sends the token in connectionParams and sees the server's 4403.
 */
class JavaScriptSignInTest {
    private static final String ISSUER = "moviegraph-js";
    private static final String AUDIENCE = "moviegraph-api";

    private static MockOAuth2Server provider;
    private static Moviegraph server;

    @BeforeAll
    static void start() {
        provider = new MockOAuth2Server();
        provider.start();
        server = Moviegraph.start(AppConfig.fromEnvironment(Map.of("PORT", "0",
                "OIDC_ISSUER", provider.issuerUrl(ISSUER).toString(), "OIDC_AUDIENCE", AUDIENCE)), List.of());
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
        if (provider != null) {
            provider.shutdown();
        }
    }

    private static String token(String subject, List<String> roles) {
        return provider.issueToken(ISSUER, "movies-web", new DefaultOAuth2TokenCallback(ISSUER, subject, "JWT",
                List.of(AUDIENCE), roles.isEmpty() ? Map.of() : Map.of("roles", roles), 600)).serialize();
    }

    private static NodeScripts.Result run(String token, String scenario, String argument) {
        NodeScripts.Result result = NodeScripts.run(token == null ? Map.of() : Map.of("MOVIEGRAPH_TOKEN", token),
                "signin.mjs", "http://127.0.0.1:" + server.port() + "/graphql", scenario, argument);
        assertEquals(0, result.exitCode(), result.toString());
        assertTrue(result.json() != null, result.toString());
        return result;
    }

    private static String month() {
        var months = SampleCatalog.generate(SampleCatalog.DEFAULT_SEED).months();
        return months.get(months.size() - 1).toString();
    }

    @Test
    void anEditorsApolloClientChangesTheCatalogAndAnAnonymousOneGetsUnauthenticated() {
        NodeScripts.Result result = run(token("erin", List.of("editor")), "mutate", "nm9700002");

        JsonNode signedIn = result.json().path("signedIn");
        assertEquals("Signed In From Apollo", signedIn.path("data").path("putPerson").path("name").asText(),
                result.toString());
        assertEquals(0, signedIn.path("seen").size(), "the error link saw nothing: " + result);

        // What the app sees of the anonymous attempt: `await client.mutate(...)` throws an ApolloError whose
        // network error is the 401 with the server's GraphQL errors as its result, and the error link saw
        // the same with the response's WWW-Authenticate challenge (its cue to sign the user in).
        JsonNode anonymous = result.json().path("anonymous");
        JsonNode error = anonymous.path("error");
        assertEquals("ApolloError", error.path("name").asText(), result.toString());
        assertEquals(401, error.path("statusCode").asInt(), result.toString());
        assertEquals(List.of("UNAUTHENTICATED"), texts(error.path("codes")), result.toString());
        assertTrue(anonymous.path("data").isNull(), result.toString());
        JsonNode seen = anonymous.path("seen").get(0);
        assertEquals(401, seen.path("statusCode").asInt(), result.toString());
        assertEquals(List.of("UNAUTHENTICATED"), texts(seen.path("codes")), result.toString());
        assertTrue(seen.path("wwwAuthenticate").asText().startsWith("Bearer"), result.toString());
    }

    @Test
    void aViewersApolloClientReadsAndIsForbiddenToChangeTheCatalog() {
        NodeScripts.Result result = run(token("viola", List.of()), "query", "tt0111161");

        JsonNode query = result.json().path("query");
        assertEquals("tt0111161", query.path("data").path("movie").path("id").asText(), result.toString());
        assertTrue(query.path("data").path("movie").path("title").asText().length() > 0, result.toString());
        JsonNode refused = result.json().path("mutate").path("error");
        assertEquals(403, refused.path("statusCode").asInt(), result.toString());
        assertEquals(List.of("FORBIDDEN"), texts(refused.path("codes")), result.toString());
        assertTrue(texts(refused.path("messages")).get(0).contains("editor"), result.toString());
    }

    @Test
    void graphqlWsWithAValidTokenSubscribesAndGetsItsFirstAnswer() {
        NodeScripts.Result result = run(token("sam", List.of()), "subscribe", month());

        JsonNode top = result.json().path("next").path("data").path("topMoviesChanged");
        assertEquals(1, top.size(), result.toString());
        assertTrue(top.get(0).path("streams").asLong() > 0, result.toString());
        assertTrue(top.get(0).path("movie").path("title").asText().length() > 0, result.toString());
        assertEquals("connected", result.json().path("events").get(0).path("event").asText(), result.toString());
    }

    @Test
    void graphqlWsWithABadTokenIsClosedWith4403() {
        String forged = token("mallory", List.of("editor"));
        // the same token with another signature: the header and claims are the provider's, the signature not
        String bad = forged.substring(0, forged.lastIndexOf('.') + 1) + "AAAA" + forged.substring(forged.lastIndexOf('.') + 5);

        NodeScripts.Result result = run(bad, "refused", month());

        JsonNode error = result.json().path("error");
        assertEquals(4403, error.path("code").asInt(), result.toString());
        assertTrue(error.path("reason").asText().startsWith("Forbidden"), result.toString());
        JsonNode events = result.json().path("events");
        assertEquals(List.of("closed"), texts(events, "event"), "never connected: " + result);
        assertEquals(4403, events.get(0).path("code").asInt(), result.toString());
    }

    private static List<String> texts(JsonNode array) {
        return java.util.stream.StreamSupport.stream(array.spliterator(), false).map(JsonNode::asText).toList();
    }

    private static List<String> texts(JsonNode array, String field) {
        return java.util.stream.StreamSupport.stream(array.spliterator(), false)
                .map(node -> node.path(field).asText()).toList();
    }
}
