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

/**
 * A server configured as a deployment would be: WRITE_TOKEN, CORS_ORIGINS, tighter limits, no introspection,
 * its own cache ages and batch size.
 */
class DeploymentSettingsTest {
    private static final String TOKEN = "a-write-token-of-some-length";
    private static final String MUTATION = "{\"query\": \"mutation { putPerson(input: {id: \\\"nm9600001\\\", name: \\\"Guarded\\\"}) { name } }\"}";
    private static final String ACCEPT = "application/graphql-response+json";
    private static final String ALLOWED = "https://app.example.com";

    private static Moviegraph server;
    private static GraphQLClient client;

    @BeforeAll
    static void start() {
        server = Moviegraph.start(AppConfig.fromEnvironment(Map.ofEntries(Map.entry("PORT", "0"),
                Map.entry("WRITE_TOKEN", TOKEN), Map.entry("CORS_ORIGINS", ALLOWED), Map.entry("INTROSPECTION", "false"),
                Map.entry("MAX_BODY_BYTES", "2048"), Map.entry("MAX_BATCH_OPERATIONS", "2"),
                Map.entry("CACHE_CURRENT_MONTH_SECONDS", "20"), Map.entry("CACHE_FINISHED_MONTH_SECONDS", "40"),
                Map.entry("CACHE_MAX_AGE_SECONDS", "250"))), List.of());
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
        assertTrue(client.query("{ person(id: \"nm9600001\") { name } }").data().path("person").isNull(),
                "nothing was written");

        Response allowed = client.post(MUTATION, "application/json", ACCEPT, Map.of("Authorization", "Bearer " + TOKEN));

        assertEquals(200, allowed.status(), allowed.raw().body());
        assertEquals("Guarded", client.query("{ person(id: \"nm9600001\") { name } }").data().path("person")
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

    @Test
    void withCorsEveryAnswerVariesOnOriginTooInOneVaryHeader() {
        String query = "{ movie(id: \"tt0111161\") { title } }";
        Response allowed = client.get("/graphql", Map.of("query", query), "application/json", Map.of("Origin", ALLOWED));
        Response sameOrigin = client.get("/graphql", Map.of("query", query), "application/json");
        Response post = client.post(GraphQLClient.body(query, Map.of()), "application/json", ACCEPT,
                Map.of("Origin", ALLOWED));

        assertEquals(ALLOWED, allowed.raw().headers().firstValue("Access-Control-Allow-Origin").orElse(""));
        assertTrue(sameOrigin.raw().headers().firstValue("Access-Control-Allow-Origin").isEmpty());
        for (Response response : List.of(allowed, sameOrigin, post)) {
            assertEquals(List.of("Accept, Accept-Encoding, Moviegraph-Trace, Origin"),
                    response.raw().headers().allValues("Vary"), "an answer without CORS headers must not serve a"
                            + " browser on the allowed origin either");
        }
    }

    @Test
    void theCacheAgesAreConfigurableAndCappedByCacheMaxAgeSeconds() {
        String now = java.time.YearMonth.now(java.time.ZoneOffset.UTC).toString();

        assertEquals("max-age=20, public", cacheControl("{ topMovies(month: \"" + now + "\") { streams } }"));
        assertEquals("max-age=40, public", cacheControl("{ topMovies(month: \"2024-05\") { streams } }"));
        assertEquals("max-age=250, public", cacheControl("{ movie(id: \"tt0111161\") { title } }"),
                "the schema's 300 s for a movie, capped");
    }

    private static String cacheControl(String query) {
        return client.get("/graphql", Map.of("query", query), "application/json").raw().headers()
                .firstValue("Cache-Control").orElse("");
    }

    @Test
    void theBatchSizeIsConfigurable() {
        String op = GraphQLClient.body("{ __typename }", Map.of());

        Response three = client.post("[" + op + "," + op + "," + op + "]", "application/json", ACCEPT);

        assertEquals(400, three.status());
        assertTrue(three.errors().path(0).path("message").asText().contains("at most 2"), three.raw().body());
        assertEquals(200, client.post("[" + op + "," + op + "]", "application/json", ACCEPT).status());
    }

    @Test
    void aMutationInABatchNeedsTheBearerTokenAsAloneWhileTheQueriesBesideItRun() {
        String batch = "[" + GraphQLClient.body("{ movie(id: \"tt0111161\") { title } }", Map.of()) + ","
                + MUTATION.replace("nm9600001", "nm9600002").replace("Guarded", "Batched") + "]";

        Response anonymous = client.post(batch, "application/json", ACCEPT);

        assertEquals(200, anonymous.status());
        assertEquals("The Shawshank Redemption", anonymous.body().path(0).path("data").path("movie").path("title").asText());
        assertEquals("UNAUTHENTICATED", anonymous.body().path(1).path("errors").path(0).path("extensions").path("code")
                .asText(), anonymous.raw().body());
        assertTrue(client.query("{ person(id: \"nm9600002\") { name } }").data().path("person").isNull(),
                "nothing was written");

        Response allowed = client.post(batch, "application/json", ACCEPT, Map.of("Authorization", "Bearer " + TOKEN));

        assertEquals("Batched", allowed.body().path(1).path("data").path("putPerson").path("name").asText(),
                allowed.raw().body());
    }
}
