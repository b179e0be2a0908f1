package dev.moviegraph.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.support.GraphQLClient.Response;
import dev.moviegraph.support.TestServer;

import java.util.List;

import org.junit.jupiter.api.Test;

/** The default limits on the shared server: each refused with LIMIT_EXCEEDED and no DynamoDB call. */
class LimitsTest {
    private final TestServer server = TestServer.get();

    private Response refused(String query) {
        server.counter().reset();
        Response response = server.client().query(query);
        assertEquals("LIMIT_EXCEEDED", response.firstErrorCode(), response.raw().body());
        assertEquals(List.of(), server.counter().operations(), "refused before any DynamoDB call");
        return response;
    }

    @Test
    void aQueryDeeperThanTheLimitIsRefused() {
        // movie > cast > edges > node > person > movies > edges > node > movie > cast ... : 17 levels
        String deep = "{ movie(id: \"tt0111161\") { cast { edges { node { person { movies { edges { node { movie "
                + "{ cast { edges { node { person { movies { edges { node { movie { title } } } } } } } } } } } } } } } } } }";

        refused(deep);
    }

    @Test
    void moreAliasesThanTheLimitAreRefused() {
        StringBuilder query = new StringBuilder("{");
        for (int i = 0; i < 51; i++) {
            query.append(" a").append(i).append(": movie(id: \"tt0111161\") { title }");
        }
        Response response = refused(query.append(" }").toString());

        assertTrue(response.errors().get(0).path("message").asText().contains("51 aliased fields; at most 50"),
                response.raw().body());
    }

    /** {@code { ...F0 }} and fragments F0 .. F(n-1), each spreading the next, the last reading a title. */
    private static String fragmentChain(int fragments) {
        StringBuilder query = new StringBuilder("{ ...F0 }");
        for (int i = 0; i < fragments - 1; i++) {
            query.append(" fragment F").append(i).append(" on Query { __typename ...F").append(i + 1).append(" }");
        }
        return query.append(" fragment F").append(fragments - 1)
                .append(" on Query { movie(id: \"tt0111161\") { title } }").toString();
    }

    @Test
    void moreFragmentsThanTheLimitAreRefusedBeforeValidation() {
        // Found by FuzzTest: graphql-java's fragment-cycle check takes time growing with the cube of a chain
        // of fragments; 300 of them (2,700 tokens) took seconds of CPU to validate.
        Response response = refused(fragmentChain(51));

        assertTrue(response.errors().get(0).path("message").asText().contains("51 fragments; at most 50"),
                response.raw().body());
        assertEquals("LIMIT_EXCEEDED", refused(fragmentChain(400)).firstErrorCode());
        Response fifty = server.client().query(fragmentChain(50));
        assertEquals("The Shawshank Redemption", fifty.data().path("movie").path("title").asText(), fifty.raw().body());
    }

    @Test
    void moreTokensThanTheParserAllowsAreRefusedWhileParsing() {
        StringBuilder query = new StringBuilder("{ movie(id: \"tt0111161\") { title");
        for (int i = 0; i < 5_000; i++) {
            query.append(" title");
        }
        refused(query.append(" } }").toString());
    }

    @Test
    void aQueryWithinTheLimitsRuns() {
        Response response = server.client().query("{ a: movie(id: \"tt0111161\") { title } b: movie(id: \"tt0068646\") { title } }");

        assertTrue(response.errors().isMissingNode(), response.raw().body());
        assertEquals("The Godfather", response.data().path("b").path("title").asText());
    }
}
