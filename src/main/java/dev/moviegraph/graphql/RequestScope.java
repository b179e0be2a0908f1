package dev.moviegraph.graphql;

import dev.moviegraph.catalog.CallContext;
import dev.moviegraph.catalog.CallObserver;
import dev.moviegraph.catalog.CatalogReader;
import dev.moviegraph.catalog.CatalogWriter;

import graphql.schema.DataFetchingEnvironment;

import java.util.List;

/**
 * What the fetchers of one request read and write through: the real catalog, or the planning one when the
 * request is only planned (which never writes); and the observer that keeps the request's receipt.
 * Lives in the GraphQL context.
 */
record RequestScope(CatalogReader catalog, CatalogWriter writer, CallObserver observer) {

    static RequestScope of(DataFetchingEnvironment env) {
        return env.getGraphQlContext().get(RequestScope.class);
    }

    CallContext context(List<String> paths) {
        return new CallContext(observer, paths);
    }
}
