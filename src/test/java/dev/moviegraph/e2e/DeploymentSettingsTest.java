package dev.moviegraph.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.Moviegraph;
import dev.moviegraph.config.AppConfig;
import dev.moviegraph.support.GraphQLClient;
import dev.moviegraph.support.GraphQLClient.Response;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** A server configured as a deployment would be: WRITE_TOKEN, CORS_ORIGINS, tighter limits, no introspection. */
class DeploymentSettingsTest {
    private static final String TOKEN = "a-write-token-of-some-length";
    private static final String MUTATION = "{\"query\": \"mutation { putActor(input: {id: \\\"nm9600001\\\", name: \\\"Guarded\\\"}) { name } }\"}";
    private static final String ACCEPT = "application/graphql-response+json";
    private static final String ALLOWED = "https://app.example.com";

    private static Moviegraph server;
    private static GraphQLClient client;

    @BeforeAll
    static void start() {
        server = Moviegraph.start(AppConfig.fromEnvironment(Map.of("PORT", "0", "WRITE_TOKEN", TOKEN,
                "CORS_ORIGINS", ALLOWED, "INTROSPECTION", "false", "MAX_BODY_BYTES", "2048")), List.of());
        client = new GraphQLClient(server.port());
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void mutationsNeedTheBearerTokenAndQueriesDoNot() {
        Response anonymous = client.post(MUTATION, "application/json", ACCEPT);
        Response wrong = client.post(MUTATION, "application/json", ACCEPT, Map.of("Authorization", "Bearer nope"));

        assertEquals(401, anonymous.status());
        assertEquals("UNAUTHENTICATED", anonymous.firstErrorCode());
        assertEquals("Bearer", anonymous.raw().headers().firstValue("WWW-Authenticate").orElse(""));
        assertEquals(401, wrong.status());
        assertTrue(client.query("{ actor(id: \"nm9600001\") { name } }").data().path("actor").isNull(),
                "nothing was written");

        Response allowed = client.post(MUTATION, "application/json", ACCEPT, Map.of("Authorization", "Bearer " + TOKEN));

        assertEquals(200, allowed.status(), allowed.raw().body());
        assertEquals("Guarded", client.query("{ actor(id: \"nm9600001\") { name } }").data().path("actor")
                .path("name").asText());
    }

    @Test
    void aBrowserPreflightIsAllowedForTheConfiguredOriginOnly() throws Exception {
        HttpClient http = HttpClient.newHttpClient();

        HttpResponse<String> allowed = http.send(preflight(ALLOWED), HttpResponse.BodyHandlers.ofString());
        HttpResponse<String> other = http.send(preflight("https://evil.example.net"), HttpResponse.BodyHandlers.ofString());

        assertEquals(ALLOWED, allowed.headers().firstValue("Access-Control-Allow-Origin").orElse(""));
        assertTrue(other.headers().firstValue("Access-Control-Allow-Origin").isEmpty(), other.headers().toString());
    }

    private HttpRequest preflight(String origin) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/graphql"))
                .method("OPTIONS", HttpRequest.BodyPublishers.noBody())
                .header("Origin", origin)
                .header("Access-Control-Request-Method", "POST")
                .header("Access-Control-Request-Headers", "content-type")
                .build();
    }

    @Test
    void introspectionCanBeSwitchedOff() {
        Response response = client.query("{ __schema { queryType { name } } }");

        assertTrue(response.data().path("__schema").isMissingNode() || response.data().path("__schema").isNull(),
                response.raw().body());
        assertTrue(response.raw().body().contains("ntrospection"), response.raw().body());
    }

    @Test
    void aMisspelledFieldIsNotAnsweredWithSuggestionsThatWouldGiveTheSchemaAway() {
        Response response = client.query("{ movie(id: \"tt0111161\") { titel } }");

        assertEquals("GRAPHQL_VALIDATION_FAILED", response.firstErrorCode());
        String message = response.errors().get(0).path("message").asText();
        assertTrue(message.contains("'titel'"), message);
        assertTrue(!message.contains("Did you mean") && !message.contains("'title'"), message);
    }

    @Test
    void aBodyOverTheConfiguredSizeIs413() {
        String padded = "{\"query\": \"{ movie(id: \\\"tt0111161\\\") { title } }\", \"variables\": {\"pad\": \""
                + "x".repeat(3_000) + "\"}}";

        Response response = client.post(padded, "application/json", ACCEPT);

        assertEquals(413, response.status(), response.raw().body());
    }
}
