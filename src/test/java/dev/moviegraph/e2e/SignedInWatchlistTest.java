package dev.moviegraph.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.Moviegraph;
import dev.moviegraph.config.AppConfig;
import dev.moviegraph.support.GraphQLClient;
import dev.moviegraph.support.GraphQLClient.Response;
import dev.moviegraph.support.RequestCounter;
import dev.moviegraph.support.WsClient;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import no.nav.security.mock.oauth2.MockOAuth2Server;
import no.nav.security.mock.oauth2.token.DefaultOAuth2TokenCallback;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Each signed-in viewer's own watchlist on the real server, with tokens from a real OpenID Connect
 * provider: newest first, idempotent, exact counts, a page in one Query and one BatchGetItem (counted as
 * the SDK sends them), another viewer refused before any call, a deleted movie's entry kept, and
 * watchlistChanged reaching its own viewer only.
 */
class SignedInWatchlistTest {
    private static final String ISSUER = "watchlist-test";
    private static final String AUDIENCE = "moviegraph-api";
    private static final String WRITE_TOKEN = "watchlist-test-write-token";
    private static final String JSON = "application/json";
    private static final String PAGE = "query($first: Int, $after: String) { viewer { id watchlist(first: $first,"
            + " after: $after) { totalCount pageInfo { hasNextPage endCursor } edges { cursor addedAt movieId"
            + " movie { title year } } } } }";

    private static final RequestCounter counter = new RequestCounter();
    /** Two movies of the sample besides tt0111161 and tt0068646. */
    private static final List<String> MORE = dev.moviegraph.local.SampleCatalog.generate(
                    dev.moviegraph.local.SampleCatalog.DEFAULT_SEED).movies().stream()
            .map(movie -> movie.id().value()).filter(id -> !id.equals("tt0111161") && !id.equals("tt0068646"))
            .limit(2).toList();
    private static MockOAuth2Server provider;
    private static Moviegraph server;
    private static GraphQLClient client;

    @BeforeAll
    static void start() {
        provider = new MockOAuth2Server();
        provider.start();
        server = Moviegraph.start(AppConfig.fromEnvironment(Map.of("PORT", "0",
                "OIDC_ISSUER", provider.issuerUrl(ISSUER).toString(), "OIDC_AUDIENCE", AUDIENCE,
                "WRITE_TOKEN", WRITE_TOKEN)), List.of(counter));
        client = new GraphQLClient(server.port());
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (send("probe", "{ viewer { id } }", Map.of()).status() == 503 && System.nanoTime() < deadline) {
            sleep(500); // the provider's first answer, on a busy machine, may outlast the gateway's timeout
        }
    }

    @AfterAll
    static void stop() {
        server.close();
        provider.shutdown();
    }

    private static String token(String subject) {
        return provider.issueToken(ISSUER, "movies-web", new DefaultOAuth2TokenCallback(ISSUER, subject, "JWT",
                List.of(AUDIENCE), Map.of(), 3600)).serialize();
    }

    private static Response send(String subject, String query, Map<String, Object> variables) {
        Map<String, String> headers = subject == null ? Map.of() : Map.of("Authorization", "Bearer " + token(subject));
        return client.post(GraphQLClient.body(query, variables), JSON, JSON, headers);
    }

    private static JsonNode add(String subject, String movieId) {
        Response response = send(subject, "mutation($id: ID!) { addToWatchlist(movieId: $id) { addedAt movieId"
                + " movie { title } } }", Map.of("id", movieId));
        assertFalse(response.body().has("errors"), response.raw().body());
        return response.data().path("addToWatchlist");
    }

    private static boolean remove(String subject, String movieId) {
        Response response = send(subject, "mutation($id: ID!) { removeFromWatchlist(movieId: $id) }", Map.of("id", movieId));
        assertFalse(response.body().has("errors"), response.raw().body());
        return response.data().path("removeFromWatchlist").asBoolean();
    }

    private static JsonNode page(String subject, int first, String after) {
        Map<String, Object> variables = after == null ? Map.of("first", first) : Map.of("first", first, "after", after);
        Response response = send(subject, PAGE, variables);
        assertFalse(response.body().has("errors"), response.raw().body());
        return response.data().path("viewer").path("watchlist");
    }

    private static List<String> movieIds(JsonNode page) {
        List<String> ids = new java.util.ArrayList<>();
        page.path("edges").forEach(edge -> ids.add(edge.path("movieId").asText()));
        return ids;
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void newestFirstIdempotentExactCountsAndPaging() {
        String me = "ana";
        JsonNode first = add(me, "tt0111161");
        sleep(5);
        add(me, "tt0068646");
        sleep(5);
        add(me, MORE.get(0));
        JsonNode again = add(me, "tt0111161");

        assertEquals(first.path("addedAt").asText(), again.path("addedAt").asText(), "added again: the same entry");
        JsonNode top = page(me, 2, null);
        assertEquals(3, top.path("totalCount").asInt(), "counted once");
        assertEquals(List.of(MORE.get(0), "tt0068646"), movieIds(top), "newest first");
        assertTrue(top.path("pageInfo").path("hasNextPage").asBoolean());
        assertEquals("The Shawshank Redemption", first.path("movie").path("title").asText());

        JsonNode rest = page(me, 2, top.path("pageInfo").path("endCursor").asText());
        assertEquals(List.of("tt0111161"), movieIds(rest));
        assertFalse(rest.path("pageInfo").path("hasNextPage").asBoolean());

        assertTrue(remove(me, "tt0068646"));
        assertFalse(remove(me, "tt0068646"), "not there any more");
        assertEquals(2, page(me, 10, null).path("totalCount").asInt());
        assertEquals(List.of(MORE.get(0), "tt0111161"), movieIds(page(me, 10, null)));
    }

    @Test
    void aPageIsOneQueryAndOneBatchGetItemForItsMovies() {
        String me = "carl";
        for (String id : List.of("tt0111161", "tt0068646", MORE.get(0), MORE.get(1))) {
            add(me, id);
        }
        counter.reset();
        JsonNode top = page(me, 3, null);
        // By what they name: the server's own background calls (the change feed's poll, its lease) may fall in.
        assertEquals(List.of("Query"), counter.operationsNaming("vwr#" + me), "the page with its count");
        assertEquals(List.of("BatchGetItem"), counter.operationsNaming("mov#"), "then its movies, together");
        assertEquals(4, top.path("totalCount").asInt());
        assertEquals(3, top.path("edges").size());
        top.path("edges").forEach(edge -> assertFalse(edge.path("movie").path("title").asText().isEmpty()));

        counter.reset();
        Response plan = client.post(GraphQLClient.body(PAGE, Map.of("first", 3)), JSON, JSON,
                Map.of("Authorization", "Bearer " + token(me), "Moviegraph-Trace", "plan"));
        assertEquals(List.of(), counter.operationsNaming("vwr#" + me), "a plan reads nothing");
        assertEquals(List.of(), counter.operationsNaming("mov#"), "a plan reads nothing");
        List<String> planned = new java.util.ArrayList<>();
        plan.body().path("extensions").path("plan").path("fields").forEach(field -> planned.add(field.path("operation").asText()));
        assertTrue(planned.contains("Query") && planned.contains("BatchGetItem"), plan.raw().body());
    }

    @Test
    void anotherViewersWatchlistIsForbiddenBeforeAnyCall() {
        add("dora", "tt0111161");
        counter.reset();
        Response response = send("eve", "{ node(id: \"viewer:dora\") { ... on Viewer { watchlist { totalCount } } } }",
                Map.of());

        assertEquals("FORBIDDEN", response.firstErrorCode(), response.raw().body());
        assertTrue(response.raw().body().contains("another viewer"), response.raw().body());
        assertEquals(List.of(), counter.operationsNaming("vwr#"), "refused before any DynamoDB call");
        assertEquals(1, send("dora", "{ node(id: \"viewer:dora\") { ... on Viewer { watchlist { totalCount } } } }",
                Map.of()).data().path("node").path("watchlist").path("totalCount").asInt(), "its owner may");
    }

    @Test
    void nobodySignedInHasNoWatchlist() {
        counter.reset();
        Response viewer = send(null, PAGE, Map.of("first", 1));
        Response add = send(null, "mutation { addToWatchlist(movieId: \"tt0111161\") { addedAt } }", Map.of());
        assertEquals(401, viewer.status());
        assertEquals("UNAUTHENTICATED", viewer.firstErrorCode());
        assertEquals(401, add.status());
        assertEquals(List.of(), counter.operationsNaming("vwr#"), "no viewer's partition read or written");
        assertEquals(List.of(), counter.operationsNaming("mov#"), "no movie read");
    }

    @Test
    void anUnknownMovieIsNotFoundAndListsNothing() {
        Response response = send("finn", "mutation { addToWatchlist(movieId: \"tt9999991\") { addedAt } }", Map.of());
        assertEquals("NOT_FOUND", response.firstErrorCode(), response.raw().body());
        assertEquals(0, page("finn", 5, null).path("totalCount").asInt());
    }

    @Test
    void aDeletedMoviesEntryStaysWithoutItsMovieAndStillCounts() {
        Map<String, String> editor = Map.of("Authorization", "Bearer " + WRITE_TOKEN);
        assertEquals(200, client.post(GraphQLClient.body("mutation { putMovie(input: {id: \"tt9700001\", title:"
                + " \"Soon Gone\", year: 2020}) { id } }", Map.of()), JSON, JSON, editor).status());
        add("gus", "tt9700001");
        add("gus", "tt0111161");
        assertEquals(200, client.post(GraphQLClient.body("mutation { deleteMovie(id: \"tt9700001\") }", Map.of()),
                JSON, JSON, editor).status());

        JsonNode list = page("gus", 10, null);
        assertEquals(2, list.path("totalCount").asInt());
        JsonNode gone = list.path("edges").get(1);
        assertEquals("tt9700001", gone.path("movieId").asText());
        assertTrue(gone.path("movie").isNull(), list.toString());
        assertTrue(remove("gus", "tt9700001"), "the viewer can still take it off");
        assertEquals(1, page("gus", 10, null).path("totalCount").asInt());
    }

    @Test
    void watchlistChangedReachesItsOwnViewerOnly() {
        String subscription = "subscription { watchlistChanged { watchlist(first: 5) { totalCount edges { movieId } } } }";
        try (WsClient hana = WsClient.open(server.port()); WsClient ivan = WsClient.open(server.port())) {
            hana.send(Map.of("type", "connection_init", "payload", Map.of("Authorization", "Bearer " + token("hana"))));
            ivan.send(Map.of("type", "connection_init", "payload", Map.of("Authorization", "Bearer " + token("ivan"))));
            assertEquals("connection_ack", hana.next(10).path("type").asText());
            assertEquals("connection_ack", ivan.next(10).path("type").asText());
            hana.subscribe("1", subscription, Map.of());
            ivan.subscribe("1", subscription, Map.of());
            assertEquals(0, hana.next(10).path("payload").path("data").path("watchlistChanged").path("watchlist")
                    .path("totalCount").asInt(), "the reading at subscribe");
            assertEquals(0, ivan.next(10).path("payload").path("data").path("watchlistChanged").path("watchlist")
                    .path("totalCount").asInt());

            add("hana", "tt0111161");

            JsonNode update = hana.next(20);
            assertEquals(1, update.path("payload").path("data").path("watchlistChanged").path("watchlist")
                    .path("totalCount").asInt(), String.valueOf(update));
            assertNull(ivan.next(3), "nobody else's change reaches ivan");
        }
    }
}
