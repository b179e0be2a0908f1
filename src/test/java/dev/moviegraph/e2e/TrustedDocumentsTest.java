package dev.moviegraph.e2e;

import static dev.moviegraph.support.PersistedRequests.getDocumentId;
import static dev.moviegraph.support.PersistedRequests.getHash;
import static dev.moviegraph.support.PersistedRequests.postDocumentId;
import static dev.moviegraph.support.PersistedRequests.postHash;
import static dev.moviegraph.support.PersistedRequests.register;
import static dev.moviegraph.support.PersistedRequests.sha256;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.Moviegraph;
import dev.moviegraph.config.AppConfig;
import dev.moviegraph.local.EmbeddedDynamo;
import dev.moviegraph.support.GraphQLClient;
import dev.moviegraph.support.GraphQLClient.Response;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * TRUSTED_DOCUMENTS over real HTTP: only listed documents run, named by APQ hash, by documentId or sent as
 * their text; anything else is refused with Apollo Router's codes, and APQ registers nothing. One server
 * reads an Apollo persisted query manifest (with INTROSPECTION=true), one a Relay manifest; both on one
 * engine with the sample.
 */
class TrustedDocumentsTest {
    private static final String APOLLO_QUERY = "query GetMovie($id: ID!) { movie(id: $id) { title } }";
    private static final String RELAY_ID = "5a1f9c0d2e7b";
    private static final String RELAY_QUERY = "query RelayMovie($id: ID!) {\n  movie(id: $id) {\n    title\n  }\n}";
    private static final String UNLISTED = "query Other($id: ID!) { movie(id: $id) { title year } }";
    /** A router's entity fetch, as Apollo Router writes them for a client's operation: listed like any other. */
    private static final String ROUTER_FETCH = "query Reviews__moviegraph__1($representations:[_Any!]!){_entities("
            + "representations:$representations){...on Movie{title}}}";
    private static final Map<String, Object> SHAWSHANK = Map.of("id", "tt0111161");
    private static final String TITLE = "The Shawshank Redemption";

    @TempDir
    static Path dir;
    private static EmbeddedDynamo dynamo;
    private static Moviegraph apolloServer;
    private static Moviegraph relayServer;
    private static GraphQLClient apollo;
    private static GraphQLClient relay;

    @BeforeAll
    static void start() throws IOException {
        Path apolloManifest = Files.writeString(dir.resolve("apollo.json"), """
                {"format": "apollo-persisted-query-manifest", "version": 1, "operations": [
                  {"id": "%s", "name": "GetMovie", "type": "query", "body": "%s"},
                  {"id": "%s", "name": "Reviews__moviegraph__1", "type": "query", "body": "%s"}
                ]}""".formatted(sha256(APOLLO_QUERY), APOLLO_QUERY.replace("\"", "\\\""), sha256(ROUTER_FETCH),
                ROUTER_FETCH));
        Path relayManifest = Files.writeString(dir.resolve("relay.json"),
                "{\"" + RELAY_ID + "\": \"" + RELAY_QUERY.replace("\n", "\\n") + "\"}");
        dynamo = EmbeddedDynamo.ephemeral(true);
        apolloServer = Moviegraph.start(AppConfig.fromEnvironment(environment(Map.of(
                "TRUSTED_DOCUMENTS", apolloManifest.toString(), "INTROSPECTION", "true"))), List.of());
        relayServer = Moviegraph.start(AppConfig.fromEnvironment(environment(Map.of(
                "TRUSTED_DOCUMENTS", relayManifest.toString()))), List.of());
        apollo = new GraphQLClient(apolloServer.port());
        relay = new GraphQLClient(relayServer.port());
    }

    private static Map<String, String> environment(Map<String, String> more) {
        Map<String, String> env = new HashMap<>(Map.of("PORT", "0", "DYNAMODB_ENDPOINT", dynamo.endpoint().toString()));
        env.putAll(more);
        return env;
    }

    @AfterAll
    static void stop() {
        relayServer.close();
        apolloServer.close();
        dynamo.close();
    }

    private static void assertTitle(Response response) {
        assertEquals(200, response.status(), response.raw().body());
        assertEquals(TITLE, response.data().path("movie").path("title").asText(), response.raw().body());
    }

    private static void assertRefused(int status, String code, Response response) {
        assertEquals(status, response.status(), response.raw().body());
        assertEquals(code, response.firstErrorCode(), response.raw().body());
        assertFalse(response.body().has("data"), response.raw().body());
        assertEquals("private, no-cache, must-revalidate",
                response.raw().headers().firstValue("Cache-Control").orElse(""));
    }

    private static Response text(GraphQLClient client, String query) {
        return client.query(query, SHAWSHANK);
    }

    @Test
    void anApolloManifestDocumentRunsByApqHashByDocumentIdAndAsItsText() {
        String hash = sha256(APOLLO_QUERY);

        assertTitle(postHash(apollo, hash, SHAWSHANK));
        assertTitle(getHash(apollo, hash, SHAWSHANK));
        assertTitle(postDocumentId(apollo, "sha256:" + hash, SHAWSHANK));
        assertTitle(getDocumentId(apollo, "sha256:" + hash, SHAWSHANK));
        assertTitle(text(apollo, APOLLO_QUERY));
        // the same document written differently: whitespace, commas and comments are ignored tokens
        assertTitle(text(apollo, "# listed\nquery GetMovie( $id: ID! ) {\n  movie(id: $id) { title, }\n}\n"));
    }

    @Test
    void aRelayManifestDocumentRunsByItsIdAndAsItsText() {
        assertTitle(postDocumentId(relay, RELAY_ID, SHAWSHANK));
        assertTitle(getDocumentId(relay, RELAY_ID, SHAWSHANK));
        assertTitle(postHash(relay, sha256(RELAY_QUERY), SHAWSHANK));
        assertTitle(text(relay, RELAY_QUERY));
    }

    @Test
    void aRoutersEntityFetchRunsWhenListedAndIsRefusedWhenNot() {
        Map<String, Object> representations = Map.of("representations",
                List.of(Map.of("__typename", "Movie", "id", "tt0111161")));

        Response listed = apollo.query(ROUTER_FETCH, representations);
        Response unlisted = apollo.query(ROUTER_FETCH.replace("{title}", "{title year}"), representations);

        assertEquals(200, listed.status(), listed.raw().body());
        assertEquals(TITLE, listed.data().path("_entities").get(0).path("title").asText(), listed.raw().body());
        assertRefused(403, "QUERY_NOT_IN_SAFELIST", unlisted);
        // the SDL a router composes from is schema, as introspection is: it runs where introspection does
        assertTrue(apollo.query("{ _service { sdl } }").data().path("_service").path("sdl").asText()
                .contains("@key"));
        assertRefused(403, "QUERY_NOT_IN_SAFELIST", relay.query("{ _service { sdl } }"));
    }

    @Test
    void anUnlistedTextIsQueryNotInSafelist() {
        assertRefused(403, "QUERY_NOT_IN_SAFELIST", text(apollo, UNLISTED));
        assertRefused(403, "QUERY_NOT_IN_SAFELIST", text(relay, UNLISTED));
        assertRefused(403, "QUERY_NOT_IN_SAFELIST", apollo.get("/graphql", Map.of("query", UNLISTED,
                "variables", "{\"id\":\"tt0111161\"}"), "application/json"));
    }

    @Test
    void anUnknownHashOrIdIsPersistedQueryNotInList() {
        String hash = sha256(UNLISTED);

        assertRefused(404, "PERSISTED_QUERY_NOT_IN_LIST", postHash(apollo, hash, SHAWSHANK));
        assertRefused(404, "PERSISTED_QUERY_NOT_IN_LIST", getHash(apollo, hash, SHAWSHANK));
        assertRefused(404, "PERSISTED_QUERY_NOT_IN_LIST", postDocumentId(apollo, "sha256:" + hash, SHAWSHANK));
        assertRefused(404, "PERSISTED_QUERY_NOT_IN_LIST", postDocumentId(relay, "nope123", SHAWSHANK));
        // an id of the other manifest is not one of this server's
        assertRefused(404, "PERSISTED_QUERY_NOT_IN_LIST", postDocumentId(apollo, RELAY_ID, SHAWSHANK));
    }

    @Test
    void apqRegistrationIsOffSoAnUnlistedDocumentStaysRefused() {
        assertRefused(403, "QUERY_NOT_IN_SAFELIST", register(apollo, UNLISTED, SHAWSHANK));

        assertRefused(404, "PERSISTED_QUERY_NOT_IN_LIST", postHash(apollo, sha256(UNLISTED), SHAWSHANK));
    }

    @Test
    void introspectionRunsWhereIntrospectionIsOnAndIsRefusedWhereItIsOff() {
        String introspection = "{ __schema { queryType { name } } }";

        Response on = apollo.query(introspection);
        assertEquals("Query", on.data().path("__schema").path("queryType").path("name").asText(), on.raw().body());
        assertRefused(403, "QUERY_NOT_IN_SAFELIST", relay.query(introspection));
        assertRefused(403, "QUERY_NOT_IN_SAFELIST", relay.query("{ __typename }"));
        assertEquals("Query", apollo.query("{ __typename }").data().path("__typename").asText());
        assertRefused(403, "QUERY_NOT_IN_SAFELIST", apollo.query("{ __typename movie(id: \"tt0111161\") { title } }"));
    }
}
