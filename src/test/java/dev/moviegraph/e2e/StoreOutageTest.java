package dev.moviegraph.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.Moviegraph;
import dev.moviegraph.config.AppConfig;
import dev.moviegraph.local.EmbeddedDynamo;
import dev.moviegraph.support.GraphQLClient;
import dev.moviegraph.support.GraphQLClient.Response;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The gateway against a DynamoDB it reaches by URL (DYNAMODB_ENDPOINT=http://...), which then goes
 * away: health says so with a 503 and queries get a clean UNAVAILABLE error, not a stack trace.
 */
class StoreOutageTest {
    private static final String QUERY = "{ movie(id: \"tt0133093\") { title } }";

    @Test
    void whenDynamoDbGoesAwayHealthIs503AndQueriesAreUnavailable(@TempDir Path dir) {
        EmbeddedDynamo dynamo = EmbeddedDynamo.persistent(dir, true);
        AppConfig config = AppConfig.fromEnvironment(Map.of("PORT", "0",
                "DYNAMODB_ENDPOINT", dynamo.endpoint().toString()));
        try (Moviegraph server = Moviegraph.start(config, List.of())) {
            GraphQLClient client = new GraphQLClient(server.port());
            assertEquals("The Matrix", client.query(QUERY).data().path("movie").path("title").asText());
            assertEquals(200, client.get("/health", Map.of(), "application/json").status());
            Response write = client.query("mutation { deleteMovie(id: \"tt0133093\") }");
            assertEquals(403, write.status(), "no WRITE_TOKEN and a DynamoDB by URL: writes are off");
            assertEquals("FORBIDDEN", write.firstErrorCode());
            assertTrue(write.errors().get(0).path("message").asText().contains("WRITE_TOKEN"));
            assertEquals("The Matrix", client.query(QUERY).data().path("movie").path("title").asText());

            dynamo.close();

            Response health = client.get("/health", Map.of(), "application/json");
            assertEquals(503, health.status());
            assertEquals("DOWN", health.body().path("dynamodb").asText());
            Response query = client.query(QUERY);
            assertEquals(200, query.status(), "a field error, the request itself was fine");
            assertEquals("UNAVAILABLE", query.firstErrorCode());
            assertTrue(query.errors().path(0).path("extensions").path("errorId").isTextual());
            String body = query.raw().body();
            assertFalse(body.contains("Exception") || body.contains("software.amazon") || body.contains("127.0.0.1"),
                    body);
        }
    }
}
