package dev.moviegraph.e2e;

import static dev.moviegraph.support.PersistedRequests.fresh;
import static dev.moviegraph.support.PersistedRequests.getHash;
import static dev.moviegraph.support.PersistedRequests.postHash;
import static dev.moviegraph.support.PersistedRequests.register;
import static dev.moviegraph.support.PersistedRequests.sha256;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.support.GraphQLClient;
import dev.moviegraph.support.GraphQLClient.Response;
import dev.moviegraph.support.PersistedRequests;
import dev.moviegraph.support.TestServer;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/**
 * Apollo's automatic persisted queries over real HTTP on the shared server (APQ on, the defaults): a hash
 * nobody registered is answered the way Apollo Server 4 answers it, so Apollo's link sends the query; a
 * query with the wrong hash is refused; a registered hash runs by POST and by GET, and by the
 * GraphQL-over-HTTP {@code documentId}; only documents that fit and validate are stored.
 */
class PersistedQueriesTest {
    private static final String MOVIE = "query Movie($id: ID!) { movie(id: $id) { title } }";
    private static final Map<String, Object> SHAWSHANK = Map.of("id", "tt0111161");
    private static final String TITLE = "The Shawshank Redemption";

    private final GraphQLClient client = TestServer.get().client();

    private static void assertNotFound(Response response) {
        // Apollo Server 4: 200, this message and code, never cached; Apollo's link retries with the query
        assertEquals(200, response.status(), response.raw().body());
        assertEquals("PersistedQueryNotFound", response.errors().path(0).path("message").asText(), response.raw().body());
        assertEquals("PERSISTED_QUERY_NOT_FOUND", response.firstErrorCode());
        assertFalse(response.body().has("data"), "nothing ran: " + response.raw().body());
        assertEquals("private, no-cache, must-revalidate",
                response.raw().headers().firstValue("Cache-Control").orElse(""));
    }

    private static void assertTitle(Response response) {
        assertEquals(200, response.status(), response.raw().body());
        assertEquals(TITLE, response.data().path("movie").path("title").asText(), response.raw().body());
    }

    @Test
    void anUnknownHashIsPersistedQueryNotFoundByPostAndByGet() {
        String hash = sha256(fresh(MOVIE));

        assertNotFound(postHash(client, hash, SHAWSHANK));
        assertNotFound(getHash(client, hash, SHAWSHANK));
    }

    @Test
    void aRegisteredHashRunsByPostAndByGetWithItsVariables() {
        String query = fresh(MOVIE);
        assertNotFound(postHash(client, sha256(query), SHAWSHANK));

        assertTitle(register(client, query, SHAWSHANK));

        assertTitle(postHash(client, sha256(query), SHAWSHANK));
        assertTitle(getHash(client, sha256(query), SHAWSHANK));
        Response other = getHash(client, sha256(query), Map.of("id", "tt0068646"));
        assertEquals("The Godfather", other.data().path("movie").path("title").asText(), other.raw().body());
    }

    @Test
    void aHashThatIsNotTheQuerysIsRefusedAndStoresNothing() {
        String query = fresh(MOVIE);
        String other = fresh(MOVIE);

        Response refused = register(client, query, sha256(other), SHAWSHANK);

        // Apollo Server's message and status; the code is our BAD_REQUEST (Apollo Server 4 sets none)
        assertEquals(400, refused.status(), refused.raw().body());
        assertEquals("provided sha does not match query", refused.errors().path(0).path("message").asText());
        assertEquals("BAD_REQUEST", refused.firstErrorCode());
        assertFalse(refused.body().has("data"), refused.raw().body());
        // neither the text under the wrong hash, nor under its own
        assertNotFound(postHash(client, sha256(other), SHAWSHANK));
        assertNotFound(postHash(client, sha256(query), SHAWSHANK));
    }

    @Test
    void aDocumentOverApqMaxDocumentBytesRunsButIsNotStored() {
        // 16,384 bytes is the default; the parser's own limit (MAX_QUERY_CHARS) is 20,000 characters
        String query = fresh("{ movie(id: \"tt0111161\") { title } } #" + "x".repeat(17_000));

        assertEquals(TITLE, register(client, query, Map.of()).data().path("movie").path("title").asText());

        assertNotFound(postHash(client, sha256(query), Map.of()));
    }

    @Test
    void documentsThatDoNotParseOrValidateAreAnsweredWithTheirErrorAndNotStored() {
        for (String bad : List.of(fresh("{ movie(id: \"tt0111161\") { nope } }"), fresh("{ movie(id: "),
                fresh("{ movie(id: $undefined) { title } }"))) {
            Response response = register(client, bad, SHAWSHANK);

            assertTrue(response.firstErrorCode().startsWith("GRAPHQL_"), bad + ": " + response.raw().body());
            assertNotFound(postHash(client, sha256(bad), SHAWSHANK));
        }
    }

    @Test
    void aMalformedPersistedQueryExtensionIsABadRequest() {
        String hash = sha256(fresh(MOVIE));
        Map<String, String> bad = Map.of(
                "{\"persistedQuery\":{\"version\":2,\"sha256Hash\":\"" + hash + "\"}}", "Unsupported persisted query version",
                "{\"persistedQuery\":{\"version\":1,\"sha256Hash\":\"abc\"}}", "sha256Hash",
                "{\"persistedQuery\":{\"version\":1}}", "sha256Hash",
                "{\"persistedQuery\":\"" + hash + "\"}", "must be an object");
        bad.forEach((extensions, message) -> {
            Response post = client.post("{\"extensions\":" + extensions + "}", "application/json", "application/json");
            assertEquals(400, post.status(), extensions + ": " + post.raw().body());
            assertEquals("BAD_REQUEST", post.firstErrorCode(), extensions);
            assertTrue(post.errors().path(0).path("message").asText().contains(message), post.raw().body());
            Response get = client.get("/graphql", Map.of("extensions", extensions), "application/json");
            assertEquals(400, get.status(), extensions + ": " + get.raw().body());
        });
    }

    @Test
    void aHashOfAMutationRunsByPostButNeverByGet() {
        // unknown ids: the mutation changes nothing (false), it only has to be a valid, stored mutation
        String mutation = fresh("mutation { uncastActor(movieId: \"tt9690001\", actorId: \"nm9690001\") }");
        assertFalse(register(client, mutation, Map.of()).data().path("uncastActor").asBoolean(true));

        Response get = getHash(client, sha256(mutation), Map.of());

        assertEquals(405, get.status(), get.raw().body());
        assertEquals("POST", get.raw().headers().firstValue("Allow").orElse(""));
        assertEquals(200, postHash(client, sha256(mutation), Map.of()).status());
    }

    @Test
    void aDocumentIdOfSha256NamesTheStoredDocumentByPostAndByGet() {
        String query = fresh(MOVIE);
        String id = "sha256:" + sha256(query);
        assertNotFound(PersistedRequests.postDocumentId(client, id, SHAWSHANK));
        register(client, query, SHAWSHANK);

        assertTitle(PersistedRequests.postDocumentId(client, id, SHAWSHANK));
        assertTitle(PersistedRequests.getDocumentId(client, id, SHAWSHANK));
    }

    @Test
    void aDocumentIdThatIsNotASha256OrComesWithAQueryIsABadRequest() {
        for (String body : List.of("{\"documentId\":\"abc123\"}", "{\"documentId\":\"sha256:ABC\"}",
                "{\"documentId\":7}", "{\"documentId\":\"sha256:" + sha256(MOVIE) + "\",\"query\":\"{ __typename }\"}")) {
            Response response = client.post(body, "application/json", "application/json");

            assertEquals(400, response.status(), body + ": " + response.raw().body());
            assertEquals("BAD_REQUEST", response.firstErrorCode(), body);
        }
    }

    @Test
    void aRequestWithNeitherQueryNorHashIsStillABadRequest() {
        Response response = client.post("{\"variables\":{}}", "application/json", "application/json");

        assertEquals(400, response.status(), response.raw().body());
        assertEquals("BAD_REQUEST", response.firstErrorCode());
    }
}
