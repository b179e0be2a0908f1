package dev.moviegraph.dynamo.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.moviegraph.catalog.Movie;
import dev.moviegraph.catalog.MovieId;
import dev.moviegraph.dynamo.model.CursorCodec;
import dev.moviegraph.dynamo.model.TableModel;
import dev.moviegraph.dynamo.read.DynamoCatalog;
import dev.moviegraph.graphql.GraphQLRequest;
import dev.moviegraph.graphql.GraphQLService;
import dev.moviegraph.graphql.TraceMode;
import dev.moviegraph.metrics.GatewayMetrics;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The whole path of a key DynamoDB keeps refusing: a fake client returns it in UnprocessedKeys on every
 * round, the batch gives up after its budget and hands it back, the catalog maps it to its movie, and
 * the GraphQL answer fails that movie alone while the rest of the same BatchGetItem keeps its data.
 */
class UnprocessedKeysThroughGraphQLTest {

    @Test
    @SuppressWarnings("unchecked")
    void aKeyStillUnprocessedAfterTheBudgetFailsExactlyTheFieldThatNeededIt() {
        BatchesTest.FakeDynamo dynamo = new BatchesTest.FakeDynamo();
        for (String id : List.of("tt0000001", "tt0000002", "tt0000003")) {
            Map<String, AttributeValue> item = TableModel.MOVIE.encode(
                    new Movie(MovieId.of(id), "Title " + id, 2001, null, List.of("Drama"), null));
            dynamo.stored.put(TableModel.movieKey(MovieId.of(id)), item);
        }
        dynamo.refuse(TableModel.movieKey(MovieId.of("tt0000002")), Integer.MAX_VALUE);
        GraphQLService service = GraphQLService.builder(
                new DynamoCatalog(dynamo, BatchesTest.TABLE, new CursorCodec("a test secret of 16+ chars")),
                new GatewayMetrics()).build();

        Map<String, Object> result = service.execute(new GraphQLRequest(
                "{ movies(ids: [\"tt0000001\", \"tt0000002\", \"tt0000003\"]) { title } }", null, Map.of()),
                TraceMode.OFF).join();

        List<Map<String, Object>> movies = (List<Map<String, Object>>) ((Map<String, Object>) result.get("data")).get("movies");
        assertEquals(Map.of("title", "Title tt0000001"), movies.get(0));
        assertNull(movies.get(1));
        assertEquals(Map.of("title", "Title tt0000003"), movies.get(2));
        List<Map<String, Object>> errors = (List<Map<String, Object>>) result.get("errors");
        assertEquals(1, errors.size(), errors.toString());
        assertEquals(List.of("movies", 1), errors.get(0).get("path"));
        assertEquals("UNAVAILABLE", ((Map<String, Object>) errors.get(0).get("extensions")).get("code"));
        Map<String, Object> cost = (Map<String, Object>) ((Map<String, Object>) result.get("extensions")).get("cost");
        assertEquals(8, cost.get("requests"), "one BatchGetItem and seven rounds for the refused key");
        assertEquals(8, dynamo.getRequests.size());
    }
}
