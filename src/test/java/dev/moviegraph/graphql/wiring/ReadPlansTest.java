package dev.moviegraph.graphql.wiring;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.moviegraph.catalog.PageRequest;
import dev.moviegraph.catalog.Part;
import dev.moviegraph.catalog.Slice;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;

import graphql.GraphQL;
import graphql.schema.DataFetchingFieldSelectionSet;
import graphql.schema.idl.RuntimeWiring;
import graphql.schema.idl.SchemaGenerator;
import graphql.schema.idl.SchemaParser;
import org.junit.jupiter.api.Test;

/**
 * What a root read prefetches when its field returns an interface: a list field counts only where it is
 * selected for the type being read, even when another type has a field of the same name.
 */
class ReadPlansTest {
    private static final String SCHEMA = """
            interface Node { id: ID! }
            type Movie implements Node { id: ID! cast(first: Int = 50): [String!]! }
            type Play implements Node { id: ID! cast(first: Int = 10): [String!]! }
            type Query { node(id: ID!): Node }
            """;
    private static final List<ListField> LISTS = List.of(ListField.page("cast", Part.CAST));

    /** The selection set of {@code node} in {@code query}. */
    private static DataFetchingFieldSelectionSet selectionOf(String query) {
        AtomicReference<DataFetchingFieldSelectionSet> selection = new AtomicReference<>();
        RuntimeWiring wiring = RuntimeWiring.newRuntimeWiring()
                .type("Query", type -> type.dataFetcher("node", env -> {
                    selection.set(env.getSelectionSet());
                    return null;
                }))
                .type("Node", type -> type.typeResolver(env -> env.getSchema().getObjectType("Movie")))
                .build();
        GraphQL graphQL = GraphQL.newGraphQL(new SchemaGenerator()
                .makeExecutableSchema(new SchemaParser().parse(SCHEMA), wiring)).build();
        graphQL.execute(query);
        return selection.get();
    }

    @Test
    void aListFieldSelectedForTheTypeReadIsPrefetchedWithItsArguments() {
        DataFetchingFieldSelectionSet selection = selectionOf("{ node(id: 1) { id ... on Movie { cast(first: 3) } } }");

        assertEquals(Map.of(Part.CAST, Slice.page(PageRequest.of(3, null))),
                ReadPlans.prefetch(selection, Set.of("Movie"), LISTS));
    }

    @Test
    void aListFieldSelectedForAnotherTypeIsNotPrefetched() {
        DataFetchingFieldSelectionSet selection = selectionOf("{ node(id: 1) { id ... on Play { cast(first: 3) } } }");

        assertEquals(Map.of(), ReadPlans.prefetch(selection, Set.of("Movie"), LISTS));
    }

    @Test
    void theTypeReadTakesItsOwnSelectionWhenBothTypesSelectTheName() {
        DataFetchingFieldSelectionSet selection = selectionOf(
                "{ node(id: 1) { ... on Play { cast(first: 7) } ... on Movie { cast } } }");

        assertEquals(Map.of(Part.CAST, Slice.page(PageRequest.of(50, null))),
                ReadPlans.prefetch(selection, Set.of("Movie"), LISTS), "Movie's default, not Play's arguments");
        assertEquals(Map.of(Part.CAST, Slice.page(PageRequest.of(7, null))),
                ReadPlans.prefetch(selection, Set.of("Play"), LISTS));
    }
}
