package dev.moviegraph.graphql;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.catalog.CatalogAccess;
import dev.moviegraph.metrics.GatewayMetrics;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Set;

import org.junit.jupiter.api.Test;

/** The server refuses to start when a field of the schema is not bound to an access pattern of the store. */
class StartupCheckTest {

    private static String schema() throws IOException {
        try (var in = StartupCheckTest.class.getResourceAsStream("/schema.graphqls")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void theShippedSchemaIsFullyBound() {
        assertDoesNotThrow(() -> GraphQLService.builder(StubCatalog.complete(Set.of()), new GatewayMetrics()).build());
    }

    @Test
    void aFieldBoundToNothingStopsTheStartNamingIt() throws IOException {
        String withSequel = schema() + "\nextend type Movie { sequel: Movie }\n";

        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> GraphQLService.builder(StubCatalog.complete(Set.of()), new GatewayMetrics()).schema(withSequel).build());

        assertTrue(e.getMessage().contains("Movie.sequel is bound to no access pattern"), e.getMessage());
    }

    @Test
    void aNewRootFieldBoundToNothingStopsTheStartNamingIt() throws IOException {
        String withSearch = schema() + "\nextend type Query { searchMovies(text: String!): [Movie!]! }\n";

        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> GraphQLService.builder(StubCatalog.complete(Set.of()), new GatewayMetrics()).schema(withSearch).build());

        assertTrue(e.getMessage().contains("Query.searchMovies"), e.getMessage());
    }

    @Test
    void aStoreWithoutAPatternForAReadStopsTheStartNamingTheFieldsThatNeedIt() throws IOException {
        StubCatalog noSearch = new StubCatalog(Set.of(), CatalogAccess.ITEMS_BY_KEY, CatalogAccess.MOVIE_COLLECTION,
                CatalogAccess.PERSON_CREDITS);
        String schema = schema();

        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> GraphQLService.builder(noSearch, new GatewayMetrics()).schema(schema).build());

        assertTrue(e.getMessage().contains("Query.search needs a SEARCH access pattern"), e.getMessage());
    }
}
