package dev.moviegraph.graphql;

import dev.moviegraph.catalog.Actor;
import dev.moviegraph.catalog.ActorId;
import dev.moviegraph.catalog.CastMember;
import dev.moviegraph.catalog.CastPage;
import dev.moviegraph.catalog.CatalogReader;
import dev.moviegraph.catalog.EntityRef;
import dev.moviegraph.catalog.EntityRef.ActorRef;
import dev.moviegraph.catalog.EntityRef.MovieRef;
import dev.moviegraph.catalog.EntityRef.TotalRef;
import dev.moviegraph.catalog.Filmography;
import dev.moviegraph.catalog.FilmographyRead;
import dev.moviegraph.catalog.Inputs;
import dev.moviegraph.catalog.InvalidInputException;
import dev.moviegraph.catalog.MonthRange;
import dev.moviegraph.catalog.MonthlyStreams;
import dev.moviegraph.catalog.Movie;
import dev.moviegraph.catalog.MovieCollection;
import dev.moviegraph.catalog.MovieId;
import dev.moviegraph.catalog.MovieRead;
import dev.moviegraph.catalog.PageRequest;

import graphql.scalars.ExtendedScalars;
import graphql.schema.DataFetcher;
import graphql.schema.DataFetchingEnvironment;
import graphql.schema.idl.RuntimeWiring;

import java.time.YearMonth;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

import org.dataloader.DataLoader;

/**
 * Binds every field of schema.graphqls to its data fetcher. Fetchers stay thin: they validate
 * arguments, ask {@link ReadPlans} which request answers the selection, and go through the request's
 * DataLoaders so that one level of a query makes one batch.
 */
final class CatalogWiring {
    static final int MAX_IDS = 100;
    static final int MAX_TOP = 100;

    private final CatalogReader catalog;

    CatalogWiring(CatalogReader catalog) {
        this.catalog = catalog;
    }

    RuntimeWiring build() {
        return RuntimeWiring.newRuntimeWiring()
                .scalar(ExtendedScalars.Date)
                .scalar(ExtendedScalars.GraphQLLong)
                .scalar(YearMonthScalar.INSTANCE)
                .type("Query", type -> type
                        .dataFetcher("movie", env -> movie(env, MovieId.of(env.getArgument("id"))))
                        .dataFetcher("movies", this::movies)
                        .dataFetcher("actor", env -> actor(env, ActorId.of(env.getArgument("id"))))
                        .dataFetcher("actors", this::actors)
                        .dataFetcher("topMovies", this::topMovies)
                        .dataFetcher("streamTotal", this::streamTotal))
                .type("Movie", type -> type
                        .dataFetcher("id", env -> movieNode(env).id().value())
                        .dataFetcher("title", movieField("title", Movie::title))
                        .dataFetcher("year", movieField("year", Movie::year))
                        .dataFetcher("releaseDate", movieField("releaseDate", Movie::releaseDate))
                        .dataFetcher("genres", movieField("genres", Movie::genres))
                        .dataFetcher("runtimeMinutes", movieField("runtimeMinutes", Movie::runtimeMinutes))
                        .dataFetcher("cast", this::cast)
                        .dataFetcher("streamTotals", this::streamTotals))
                .type("Actor", type -> type
                        .dataFetcher("id", env -> actorNode(env).id().value())
                        .dataFetcher("name", actorField("name", Actor::name))
                        .dataFetcher("birthYear", actorField("birthYear", Actor::birthYear))
                        .dataFetcher("movies", this::filmography))
                .type("CastMember", type -> type
                        .dataFetcher("movie", env -> {
                            CastMember member = env.getSource();
                            return MovieNode.reference(member.movieId(), known("title", member.movieTitle(),
                                    "year", member.movieYear()));
                        })
                        .dataFetcher("actor", env -> {
                            CastMember member = env.getSource();
                            return ActorNode.reference(member.actorId(), known("name", member.actorName(), null, null));
                        }))
                .type("CastConnection", type -> type
                        .dataFetcher("edges", env -> ((CastPage) env.getSource()).entries())
                        .dataFetcher("pageInfo", DataFetchingEnvironment::getSource))
                .type("CastEdge", type -> type
                        .dataFetcher("cursor", env -> ((CastPage.Entry) env.getSource()).cursor())
                        .dataFetcher("node", env -> ((CastPage.Entry) env.getSource()).member()))
                .type("PageInfo", type -> type
                        .dataFetcher("hasNextPage", env -> ((CastPage) env.getSource()).hasNextPage())
                        .dataFetcher("endCursor", env -> ((CastPage) env.getSource()).endCursor()))
                .type("MonthlyStreams", type -> type
                        .dataFetcher("movie", env -> {
                            MonthlyStreams total = env.getSource();
                            return MovieNode.reference(total.movieId(), known("title", total.movieTitle(), null, null));
                        })
                        .dataFetcher("month", env -> ((MonthlyStreams) env.getSource()).month())
                        .dataFetcher("streams", env -> ((MonthlyStreams) env.getSource()).streams()))
                .build();
    }

    // ---- Query

    private CompletableFuture<MovieNode> movie(DataFetchingEnvironment env, MovieId id) {
        ReadPlans.MoviePlan plan = ReadPlans.movie(id, env.getSelectionSet());
        CompletableFuture<MovieNode> node = plan.read() == null
                ? entity(env, new MovieRef(id)).thenApply(movie -> movie == null ? null : MovieNode.of(movie))
                : collections(env).load(plan.read()).thenApply(found -> MovieNode.of(found, plan.read()));
        if (plan.laterCast() == null) {
            return node;
        }
        CompletableFuture<CastPage> page = collections(env).load(new MovieRead(id, false, plan.laterCast(), null))
                .thenApply(MovieCollection::cast);
        return node.thenApply(found -> found == null ? null : found.withCast(plan.laterCast(), page));
    }

    private CompletableFuture<List<MovieNode>> movies(DataFetchingEnvironment env) {
        List<MovieId> ids = ids(env.getArgument("ids"), MovieId::of);
        return allOf(ids.stream().map(id -> movie(env, id)).toList());
    }

    private CompletableFuture<ActorNode> actor(DataFetchingEnvironment env, ActorId id) {
        ReadPlans.ActorPlan plan = ReadPlans.actor(id, env.getSelectionSet());
        CompletableFuture<ActorNode> node = plan.read() == null
                ? entity(env, new ActorRef(id)).thenApply(actor -> actor == null ? null : ActorNode.of(actor))
                : filmographies(env).load(plan.read()).thenApply(found -> ActorNode.of(found, plan.read().page()));
        if (plan.laterMovies() == null) {
            return node;
        }
        CompletableFuture<CastPage> page = filmographies(env)
                .load(new FilmographyRead(id, false, plan.laterMovies())).thenApply(Filmography::movies);
        return node.thenApply(found -> found == null ? null : found.withMovies(plan.laterMovies(), page));
    }

    private CompletableFuture<List<ActorNode>> actors(DataFetchingEnvironment env) {
        List<ActorId> ids = ids(env.getArgument("ids"), ActorId::of);
        return allOf(ids.stream().map(id -> actor(env, id)).toList());
    }

    private CompletableFuture<List<MonthlyStreams>> topMovies(DataFetchingEnvironment env) {
        YearMonth month = env.getArgument("month");
        int limit = Inputs.inRange("limit", env.getArgument("limit"), 1, MAX_TOP);
        return catalog.topMovies(month, limit);
    }

    private CompletableFuture<MonthlyStreams> streamTotal(DataFetchingEnvironment env) {
        MovieId movieId = MovieId.of(env.getArgument("movieId"));
        YearMonth month = env.getArgument("month");
        return entity(env, new TotalRef(movieId, month));
    }

    // ---- Movie

    private <T> DataFetcher<Object> movieField(String name, Function<Movie, T> getter) {
        return env -> {
            MovieNode node = movieNode(env);
            if (node.movie() != null) {
                return getter.apply(node.movie());
            }
            if (node.known().containsKey(name)) {
                return node.known().get(name);
            }
            return entity(env, new MovieRef(node.id())).thenApply(movie -> movie == null ? null : getter.apply(movie));
        };
    }

    private Object cast(DataFetchingEnvironment env) {
        MovieNode node = movieNode(env);
        PageRequest page = PageRequest.of(env.getArgument("first"), env.getArgument("after"));
        if (node.cast() != null && page.equals(node.castRequest())) {
            return node.cast();
        }
        return collections(env).load(new MovieRead(node.id(), false, page, null)).thenApply(MovieCollection::cast);
    }

    private Object streamTotals(DataFetchingEnvironment env) {
        MovieNode node = movieNode(env);
        MonthRange range = ReadPlans.monthRange(env.getArguments());
        if (node.totals() != null && range.equals(node.totalsRange())) {
            return node.totals();
        }
        return collections(env).load(new MovieRead(node.id(), false, null, range)).thenApply(MovieCollection::totals);
    }

    // ---- Actor

    private <T> DataFetcher<Object> actorField(String name, Function<Actor, T> getter) {
        return env -> {
            ActorNode node = actorNode(env);
            if (node.actor() != null) {
                return getter.apply(node.actor());
            }
            if (node.known().containsKey(name)) {
                return node.known().get(name);
            }
            return entity(env, new ActorRef(node.id())).thenApply(actor -> actor == null ? null : getter.apply(actor));
        };
    }

    private Object filmography(DataFetchingEnvironment env) {
        ActorNode node = actorNode(env);
        PageRequest page = PageRequest.of(env.getArgument("first"), env.getArgument("after"));
        if (node.movies() != null && page.equals(node.moviesRequest())) {
            return node.movies();
        }
        return filmographies(env).load(new FilmographyRead(node.id(), false, page)).thenApply(Filmography::movies);
    }

    // ---- helpers

    private static MovieNode movieNode(DataFetchingEnvironment env) {
        return env.getSource();
    }

    private static ActorNode actorNode(DataFetchingEnvironment env) {
        return env.getSource();
    }

    @SuppressWarnings("unchecked")
    private static <T> CompletableFuture<T> entity(DataFetchingEnvironment env, EntityRef<T> ref) {
        DataLoader<EntityRef<?>, Object> loader = env.getDataLoader(Loaders.ENTITIES);
        return loader.load(ref).thenApply(found -> (T) found);
    }

    private static DataLoader<MovieRead, MovieCollection> collections(DataFetchingEnvironment env) {
        return env.getDataLoader(Loaders.MOVIE_COLLECTIONS);
    }

    private static DataLoader<FilmographyRead, Filmography> filmographies(DataFetchingEnvironment env) {
        return env.getDataLoader(Loaders.FILMOGRAPHIES);
    }

    /** The copies of a movie's or actor's fields that another item carries; null values are real (unknown year). */
    private static Map<String, Object> known(String name, Object value, String otherName, Object otherValue) {
        Map<String, Object> known = new java.util.HashMap<>();
        known.put(name, value);
        if (otherName != null) {
            known.put(otherName, otherValue);
        }
        return known;
    }

    private static <T> List<T> ids(List<String> raw, Function<String, T> parse) {
        if (raw.size() > MAX_IDS) {
            throw new InvalidInputException("At most " + MAX_IDS + " ids per request, got " + raw.size());
        }
        List<T> ids = new ArrayList<>(raw.size());
        raw.forEach(id -> ids.add(parse.apply(id)));
        return ids;
    }

    private static <T> CompletableFuture<List<T>> allOf(List<CompletableFuture<T>> futures) {
        return CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new))
                .thenApply(ignored -> futures.stream().map(CompletableFuture::join).toList());
    }
}
