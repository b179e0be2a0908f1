package dev.moviegraph.graphql.wiring;

import dev.moviegraph.catalog.AccessPattern;
import dev.moviegraph.catalog.CatalogReader;
import dev.moviegraph.catalog.StandIns;
import dev.moviegraph.graphql.auth.AuthRules;
import dev.moviegraph.graphql.caching.CacheHints;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;

import graphql.schema.GraphQLSchema;
import graphql.schema.idl.RuntimeWiring;
import graphql.schema.idl.SchemaGenerator;
import graphql.schema.idl.SchemaParser;
import graphql.schema.idl.TypeDefinitionRegistry;

/**
 * The executable schema, built once at start: schema.graphqls wired to the catalog's fetchers
 * ({@link CatalogWiring}), then checked against the store's access patterns and for cache hints. A field
 * bound to no read, or to one the store has no access pattern for, or one without the
 * {@code @cacheControl} hint it needs ({@link CacheHints}), or a record the planning run cannot stand
 * in for ({@link StandIns#requireBuildable()}), or a mutation or viewer's field without an {@code @auth} rule
 * ({@link AuthRules}), stops the start naming it, rather than failing (or
 * being cached wrongly, or estimated from a null) on the first request that asks for it.
 */
public final class GatewaySchema {
    private final GraphQLSchema schema;
    private final GraphQLSchema live;

    private GatewaySchema(GraphQLSchema schema) {
        this.schema = schema;
        // A subscription is a query read again on every change: the same types, fetchers and limits with
        // the Subscription type as the query root, so each message runs through the query pipeline.
        this.live = schema.getSubscriptionType() == null ? null : GraphQLSchema.newSchema(schema)
                .query(schema.getSubscriptionType())
                .mutation((graphql.schema.GraphQLObjectType) null)
                .subscription((graphql.schema.GraphQLObjectType) null)
                .build();
    }

    /** The shipped schema.graphqls, checked against {@code catalog}. */
    public static GatewaySchema load(CatalogReader catalog, Clock clock) {
        return load(catalog.accessPatterns(), clock);
    }

    /**
     * The shipped schema.graphqls, checked against a store's access patterns: all the schema needs of the
     * store, so the server builds it while the store is still starting.
     */
    public static GatewaySchema load(List<AccessPattern> accessPatterns, Clock clock) {
        return of(shippedText(), accessPatterns, clock);
    }

    /** Another schema text (tests extend the shipped one), checked against {@code catalog}. */
    public static GatewaySchema of(String schemaText, CatalogReader catalog, Clock clock) {
        return of(schemaText, catalog.accessPatterns(), clock);
    }

    private static GatewaySchema of(String schemaText, List<AccessPattern> accessPatterns, Clock clock) {
        CatalogWiring wiring = new CatalogWiring(clock);
        GraphQLSchema schema = unchecked(schemaText, wiring.runtimeWiring());
        wiring.bindings().verify(schema, accessPatterns);
        StandIns.requireBuildable();
        List<String> unhinted = CacheHints.problems(schema);
        if (!unhinted.isEmpty()) {
            throw new IllegalStateException("schema.graphqls has fields that HTTP caches would not know how long"
                    + " to keep: " + String.join("; ", unhinted));
        }
        List<String> unguarded = AuthRules.problems(schema);
        if (!unguarded.isEmpty()) {
            throw new IllegalStateException("schema.graphqls has fields without the @auth rule they need: "
                    + String.join("; ", unguarded));
        }
        return new GatewaySchema(AuthRules.enforceOwners(schema));
    }

    /**
     * A schema text made executable with {@code wiring} as the server makes it (an Apollo Federation 2
     * subgraph: the definitions its @link names, {@code _entities} and {@code _service}; see {@link Subgraph}),
     * and none of the checks: for tests of one check, and tools.
     */
    public static GraphQLSchema unchecked(String schemaText, RuntimeWiring wiring) {
        TypeDefinitionRegistry registry = new SchemaParser().parse(schemaText);
        return new SchemaGenerator().makeExecutableSchema(registry, Subgraph.federate(registry, wiring));
    }

    public GraphQLSchema schema() {
        return schema;
    }

    /** The schema subscriptions run on as queries (the Subscription type as the query root); null without one. */
    public GraphQLSchema liveSchema() {
        return live;
    }

    private static String shippedText() {
        try (InputStream in = GatewaySchema.class.getResourceAsStream("/schema.graphqls")) {
            if (in == null) {
                throw new IllegalStateException("schema.graphqls is missing from the classpath");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
