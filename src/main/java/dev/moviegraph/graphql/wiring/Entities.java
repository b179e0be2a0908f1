package dev.moviegraph.graphql.wiring;

import dev.moviegraph.catalog.InvalidInputException;
import dev.moviegraph.catalog.ItemRef.TotalRef;
import dev.moviegraph.catalog.MovieId;
import dev.moviegraph.catalog.PersonId;
import dev.moviegraph.catalog.WatchlistOwner;
import dev.moviegraph.graphql.caching.CacheControl;
import dev.moviegraph.graphql.caching.CacheHints;
import dev.moviegraph.graphql.caching.CachePolicy;

import java.time.Clock;
import java.time.YearMonth;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import graphql.execution.DataFetcherResult;
import graphql.schema.DataFetcher;
import graphql.schema.DataFetchingEnvironment;
import graphql.schema.GraphQLDirectiveContainer;

/**
 * {@code Query._entities}: a router's fetch of this subgraph's entities by key (Apollo Federation 2). Every
 * representation is read as its type's root read is ({@link NodeReads}), through the request's loaders:
 * all the movies, people and monthly totals of one fetch, whatever their order, are one BatchGetItem per
 * 100 keys, and the lists their selection asks for are read as {@code nodes(ids)} reads them. An unknown key
 * is null in its place; a malformed representation (no {@code __typename}, a type that is not an entity
 * here, a missing or malformed key) is an error on its own entry, and the others are answered.
 *
 * <p>A {@code Node} representation (the entity interface) is resolved by its id's kind, as {@code node(id)}
 * resolves it, so the Relay id and the entity key of a movie or a person are the same string.
 */
final class Entities {
    /** More representations than this in one fetch is a bad request: ten BatchGetItems' worth. */
    static final int MAX_REPRESENTATIONS = 1000;

    private final Clock clock;

    Entities(Clock clock) {
        this.clock = clock;
    }

    /** The fetcher of {@code _entities}. */
    DataFetcher<CompletableFuture<DataFetcherResult<List<Object>>>> fetcher() {
        return this::entities;
    }

    private CompletableFuture<DataFetcherResult<List<Object>>> entities(DataFetchingEnvironment env) {
        List<Map<String, Object>> representations = env.getArgument("representations");
        if (representations.size() > MAX_REPRESENTATIONS) {
            throw new InvalidInputException("At most " + MAX_REPRESENTATIONS + " representations per _entities fetch, got "
                    + representations.size());
        }
        List<CompletableFuture<Object>> found = new ArrayList<>(representations.size());
        CachePolicy policy = null;
        YearMonth now = YearMonth.now(clock);
        for (Map<String, Object> representation : representations) {
            CompletableFuture<Object> entity;
            try {
                Key key = key(representation);
                entity = read(env, key);
                CachePolicy own = policy(env, key, now);
                policy = policy == null ? own : policy.restrict(own);
            } catch (InvalidInputException e) {
                entity = CompletableFuture.failedFuture(e);
            }
            found.add(entity);
        }
        if (policy != null) {
            CacheControl.atMost(env, policy);
        }
        return NodeReads.eachOrError(env, found);
    }

    /** What one representation names, checked. */
    private sealed interface Key permits ById, Total {
    }

    /** A Movie, Person, Viewer or Node by id: the id's kind is the node's, as in node(id). */
    private record ById(String type, Record id) implements Key {
    }

    /** A MonthlyStreams by its movie and month. */
    private record Total(TotalRef ref) implements Key {
    }

    private static Key key(Map<String, Object> representation) {
        if (!(representation.get("__typename") instanceof String type)) {
            throw new InvalidInputException("A representation needs its __typename");
        }
        return switch (type) {
            case "Movie", "Person", "Viewer", "Node" -> byId(type, representation.get("id"));
            case "MonthlyStreams" -> total(representation);
            default -> throw new InvalidInputException(type + " is not an entity of this subgraph"
                    + " (Movie, Person, Viewer, Node and MonthlyStreams are)");
        };
    }

    private static Key byId(String type, Object value) {
        if (!(value instanceof String id)) {
            throw new InvalidInputException("A " + type + " representation needs its id, a string");
        }
        Record parsed = switch (type) {
            case "Movie" -> MovieId.of(id);
            case "Person" -> PersonId.of(id);
            default -> NodeReads.nodeId(id);
        };
        if (type.equals("Viewer") && !(parsed instanceof WatchlistOwner)) {
            throw new InvalidInputException("A Viewer's id is viewer:<subject>, got " + id);
        }
        return new ById(type, parsed);
    }

    private static Key total(Map<String, Object> representation) {
        Object movie = representation.get("movie");
        Object month = representation.get("month");
        if (!(movie instanceof Map<?, ?> owner) || !(owner.get("id") instanceof String movieId)
                || !(month instanceof String yearMonth)) {
            throw new InvalidInputException("A MonthlyStreams representation needs movie { id } and month (YYYY-MM)");
        }
        try {
            return new Total(new TotalRef(MovieId.of(movieId), YearMonth.parse(yearMonth)));
        } catch (DateTimeParseException e) {
            throw new InvalidInputException("A MonthlyStreams month is YYYY-MM, got " + yearMonth);
        }
    }

    private static CompletableFuture<Object> read(DataFetchingEnvironment env, Key key) {
        if (key instanceof Total total) {
            return NodeReads.item(env, total.ref(), Paths.of(env)).thenApply(found -> found);
        }
        Record id = ((ById) key).id();
        return id == null ? CompletableFuture.completedFuture(null) : NodeReads.node(env, id);
    }

    /** How long the entity's answer may be kept: its type's hint; a monthly total's by its month. */
    private static CachePolicy policy(DataFetchingEnvironment env, Key key, YearMonth now) {
        if (key instanceof Total total) {
            return new CachePolicy(CacheControl.monthAge(env, total.ref().month(), now), false);
        }
        Record id = ((ById) key).id();
        String type = id instanceof MovieId ? "Movie" : id instanceof PersonId ? "Person"
                : id instanceof WatchlistOwner ? "Viewer" : "Node";
        return CacheHints.ofType((GraphQLDirectiveContainer) env.getGraphQLSchema().getType(type));
    }
}
