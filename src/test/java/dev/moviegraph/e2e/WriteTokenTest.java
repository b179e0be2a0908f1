package dev.moviegraph.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.Moviegraph;
import dev.moviegraph.config.AppConfig;
import dev.moviegraph.support.GraphQLClient;
import dev.moviegraph.support.GraphQLClient.Response;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** A server with WRITE_TOKEN set: mutations need the bearer token, queries do not. */
class WriteTokenTest {
    private static final String TOKEN = "a-write-token-of-some-length";
    private static final String MUTATION = "{\"query\": \"mutation { putActor(input: {id: \\\"nm9600001\\\", name: \\\"Guarded\\\"}) { name } }\"}";
    private static final String ACCEPT = "application/graphql-response+json";

    @Test
    void mutationsNeedTheBearerTokenAndQueriesDoNot() {
        try (Moviegraph server = Moviegraph.start(AppConfig.defaults().withPort(0).withWriteToken(TOKEN), List.of())) {
            GraphQLClient client = new GraphQLClient(server.port());

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
    }
}
