package dev.moviegraph.graphql.wiring;

import dev.moviegraph.catalog.CallContext;
import dev.moviegraph.catalog.CallObserver;
import dev.moviegraph.catalog.CatalogReader;
import dev.moviegraph.catalog.CatalogWriter;

import java.util.List;

import graphql.schema.DataFetchingEnvironment;

/**
 * What the fetchers of one request read and write through: the real catalog, or the planning one when the
 * request is only planned (which never writes); and the observer that keeps the request's receipt.
 * Lives in the GraphQL context.
 */
public record RequestScope(CatalogReader catalog, CatalogWriter writer, CallObserver observer) {

    static RequestScope of(DataFetchingEnvironment env) {
        return env.getGraphQlContext().get(RequestScope.class);
    }

    CallContext context(List<String> paths) {
        return new CallContext(observer, paths);
    }
}
