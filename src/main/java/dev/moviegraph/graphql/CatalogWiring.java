package dev.moviegraph.graphql;

import dev.moviegraph.catalog.Actor;
import dev.moviegraph.catalog.ActorId;
import dev.moviegraph.catalog.CastMember;
import dev.moviegraph.catalog.CastPage;
import dev.moviegraph.catalog.CatalogAccess;
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
import dev.moviegraph.catalog.StreamReceipt;
import dev.moviegraph.catalog.StreamRecord;
import dev.moviegraph.catalog.Writes;

import graphql.GraphQLError;
import graphql.execution.DataFetcherResult;
import graphql.scalars.ExtendedScalars;
import graphql.schema.DataFetcher;
import graphql.schema.DataFetchingEnvironment;
import graphql.schema.idl.RuntimeWiring;
import graphql.schema.idl.TypeRuntimeWiring;

import java.time.Clock;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.YearMonth;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

import org.dataloader.DataLoader;

/**
 * Binds every field of schema.graphqls to its data fetcher and to the kinds of read it may make
 * ({@link FieldBindings}, checked against the store at start). Fetchers stay thin: they validate
 * arguments, ask {@link ReadPlans} which request answers the selection, and go through the request's
 * DataLoaders so that one level of a query makes one batch. Each load names the GraphQL paths it serves.
 */
final class CatalogWiring {
    static final int MAX_IDS = 100;
    static final int MAX_TOP = 100;

    private static final Set<CatalogAccess> PARENT_ITEM = Set.of();
    private static final Set<CatalogAccess> BY_KEY = Set.of(CatalogAccess.ITEMS_BY_KEY);

    private final FieldBindings bindings = new FieldBindings();
    private final Map<String, TypeRuntimeWiring.Builder> types = new LinkedHashMap<>();

    private final Clock clock;

    /** Every field with its fetcher and the reads it may make; fields without a fetcher read their parent. */
    CatalogWiring(Clock clock) {
        this.clock = clock;
        Set<CatalogAccess> movieReads = Set.of(CatalogAccess.ITEMS_BY_KEY, CatalogAccess.MOVIE_COLLECTION);
        Set<CatalogAccess> actorReads = Set.of(CatalogAccess.ITEMS_BY_KEY, CatalogAccess.FILMOGRAPHY);
        field("Query", "movie", movieReads, env -> movie(env, MovieId.of(env.getArgument("id"))));
        field("Query", "movies", movieReads, this::movies);
        field("Query", "actor", actorReads, env -> actor(env, ActorId.of(env.getArgument("id"))));
        field("Query", "actors", actorReads, this::actors);
        field("Query", "topMovies", Set.of(CatalogAccess.TOP_MOVIES), this::topMovies);
        field("Query", "streamTotal", BY_KEY, this::streamTotal);

        field("Movie", "id", PARENT_ITEM, env -> movieNode(env).id().value());
        field("Movie", "title", BY_KEY, movieField("title", Movie::title));
        field("Movie", "year", BY_KEY, movieField("year", Movie::year));
        field("Movie", "releaseDate", BY_KEY, movieField("releaseDate", Movie::releaseDate));
        field("Movie", "genres", BY_KEY, movieField("genres", Movie::genres));
        field("Movie", "runtimeMinutes", BY_KEY, movieField("runtimeMinutes", Movie::runtimeMinutes));
        field("Movie", "cast", Set.of(CatalogAccess.MOVIE_COLLECTION), this::cast);
        field("Movie", "streamTotals", Set.of(CatalogAccess.MOVIE_COLLECTION), this::streamTotals);

        field("Actor", "id", PARENT_ITEM, env -> actorNode(env).id().value());
        field("Actor", "name", BY_KEY, actorField("name", Actor::name));
        field("Actor", "birthYear", BY_KEY, actorField("birthYear", Actor::birthYear));
        field("Actor", "movies", Set.of(CatalogAccess.FILMOGRAPHY), this::filmography);

        field("CastMember", "movie", PARENT_ITEM, env -> {
            CastMember member = env.getSource();
            return MovieNode.reference(member.movieId(), known("title", member.movieTitle(), "year", member.movieYear()));
        });
        field("CastMember", "actor", PARENT_ITEM, env -> {
            CastMember member = env.getSource();
            return ActorNode.reference(member.actorId(), known("name", member.actorName(), null, null));
        });
        field("CastMember", "characters", PARENT_ITEM, null);
        field("CastMember", "billing", PARENT_ITEM, null);

        field("CastConnection", "edges", PARENT_ITEM, env -> ((CastPage) env.getSource()).entries());
        field("CastConnection", "pageInfo", PARENT_ITEM, DataFetchingEnvironment::getSource);
        field("CastEdge", "cursor", PARENT_ITEM, env -> ((CastPage.Entry) env.getSource()).cursor());
        field("CastEdge", "node", PARENT_ITEM, env -> ((CastPage.Entry) env.getSource()).member());
        field("PageInfo", "hasNextPage", PARENT_ITEM, env -> ((CastPage) env.getSource()).hasNextPage());
        field("PageInfo", "endCursor", PARENT_ITEM, env -> ((CastPage) env.getSource()).endCursor());

        field("MonthlyStreams", "movie", PARENT_ITEM, env -> {
            MonthlyStreams total = env.getSource();
            return MovieNode.reference(total.movieId(), known("title", total.movieTitle(), null, null));
        });
        field("MonthlyStreams", "month", PARENT_ITEM, env -> ((MonthlyStreams) env.getSource()).month());
        field("MonthlyStreams", "streams", PARENT_ITEM, env -> ((MonthlyStreams) env.getSource()).streams());

        field("Mutation", "putMovie", Set.of(CatalogAccess.PUT_ENTITY, CatalogAccess.ITEMS_BY_KEY,
                CatalogAccess.MOVIE_COLLECTION), this::putMovie);
        field("Mutation", "putActor", Set.of(CatalogAccess.PUT_ENTITY, CatalogAccess.ITEMS_BY_KEY,
                CatalogAccess.FILMOGRAPHY), this::putActor);
        field("Mutation", "castActor", Set.of(CatalogAccess.CAST, CatalogAccess.ITEMS_BY_KEY), this::castActor);
        field("Mutation", "uncastActor", Set.of(CatalogAccess.CAST), this::uncastActor);
        field("Mutation", "deleteMovie", Set.of(CatalogAccess.DELETE_MOVIE, CatalogAccess.MOVIE_COLLECTION),
                this::deleteMovie);
        field("Mutation", "recordStream", Set.of(CatalogAccess.RECORD_STREAM, CatalogAccess.ITEMS_BY_KEY),
                this::recordStream);
        for (String name : List.of("streamId", "month", "counted", "total")) {
            field("StreamReceipt", name, PARENT_ITEM, null);
        }
    }

    private void field(String type, String name, Set<CatalogAccess> reads, DataFetcher<?> fetcher) {
        bindings.bind(type, name, reads);
        if (fetcher != null) {
            types.computeIfAbsent(type, TypeRuntimeWiring::newTypeWiring).dataFetcher(name, fetcher);
        }
    }

    FieldBindings bindings() {
        return bindings;
    }

    RuntimeWiring runtimeWiring() {
        RuntimeWiring.Builder wiring = RuntimeWiring.newRuntimeWiring()
                .scalar(ExtendedScalars.Date)
                .scalar(ExtendedScalars.GraphQLLong)
                .scalar(ExtendedScalars.DateTime)
                .scalar(YearMonthScalar.INSTANCE);
        types.values().forEach(wiring::type);
        return wiring.build();
    }

    // ---- Query

    private CompletableFuture<MovieNode> movie(DataFetchingEnvironment env, MovieId id) {
        ReadPlans.MoviePlan plan = ReadPlans.movie(id, env.getSelectionSet());
        String path = Paths.of(env);
        CompletableFuture<MovieNode> node = plan.read() == null
                ? entity(env, new MovieRef(id), path).thenApply(movie -> movie == null ? null : MovieNode.of(movie))
                : collections(env).load(plan.read(), served(path, plan.read().cast() != null ? "cast" : null,
                        plan.read().totals() != null ? "streamTotals" : null))
                        .thenApply(found -> MovieNode.of(found, plan.read()));
        if (plan.laterCast() == null) {
            return node;
        }
        CompletableFuture<CastPage> page = collections(env).load(new MovieRead(id, false, plan.laterCast(), null),
                        List.of(path + ".cast"))
                .thenApply(MovieCollection::cast);
        return node.thenApply(found -> found == null ? null : found.withCast(plan.laterCast(), page));
    }

    private CompletableFuture<DataFetcherResult<List<MovieNode>>> movies(DataFetchingEnvironment env) {
        List<MovieId> ids = ids(env.getArgument("ids"), MovieId::of);
        return eachOrError(env, ids.stream().map(id -> movie(env, id)).toList());
    }

    private CompletableFuture<ActorNode> actor(DataFetchingEnvironment env, ActorId id) {
        ReadPlans.ActorPlan plan = ReadPlans.actor(id, env.getSelectionSet());
        String path = Paths.of(env);
        CompletableFuture<ActorNode> node = plan.read() == null
                ? entity(env, new ActorRef(id), path).thenApply(actor -> actor == null ? null : ActorNode.of(actor))
                : filmographies(env).load(plan.read(), served(path, "movies", null))
                        .thenApply(found -> ActorNode.of(found, plan.read().page()));
        if (plan.laterMovies() == null) {
            return node;
        }
        CompletableFuture<CastPage> page = filmographies(env)
                .load(new FilmographyRead(id, false, plan.laterMovies()), List.of(path + ".movies"))
                .thenApply(Filmography::movies);
        return node.thenApply(found -> found == null ? null : found.withMovies(plan.laterMovies(), page));
    }

    private CompletableFuture<DataFetcherResult<List<ActorNode>>> actors(DataFetchingEnvironment env) {
        List<ActorId> ids = ids(env.getArgument("ids"), ActorId::of);
        return eachOrError(env, ids.stream().map(id -> actor(env, id)).toList());
    }

    private CompletableFuture<List<MonthlyStreams>> topMovies(DataFetchingEnvironment env) {
        YearMonth month = env.getArgument("month");
        int limit = Inputs.inRange("limit", env.getArgument("limit"), 1, MAX_TOP);
        RequestScope scope = RequestScope.of(env);
        return scope.catalog().topMovies(month, limit, scope.context(List.of(Paths.of(env))));
    }

    private CompletableFuture<MonthlyStreams> streamTotal(DataFetchingEnvironment env) {
        MovieId movieId = MovieId.of(env.getArgument("movieId"));
        YearMonth month = env.getArgument("month");
        return entity(env, new TotalRef(movieId, month), Paths.of(env));
    }

    // ---- Mutation

    private CompletableFuture<MovieNode> putMovie(DataFetchingEnvironment env) {
        Map<String, Object> input = env.getArgument("input");
        @SuppressWarnings("unchecked")
        Movie movie = Writes.movie(new Movie(MovieId.of((String) input.get("id")), (String) input.get("title"),
                (Integer) input.get("year"), (LocalDate) input.get("releaseDate"), (List<String>) input.get("genres"),
                (Integer) input.get("runtimeMinutes")), clock);
        RequestScope scope = RequestScope.of(env);
        return scope.writer().putMovie(movie, scope.context(List.of(Paths.of(env)))).thenApply(MovieNode::of);
    }

    private CompletableFuture<ActorNode> putActor(DataFetchingEnvironment env) {
        Map<String, Object> input = env.getArgument("input");
        Actor actor = Writes.actor(new Actor(ActorId.of((String) input.get("id")), (String) input.get("name"),
                (Integer) input.get("birthYear")), clock);
        RequestScope scope = RequestScope.of(env);
        return scope.writer().putActor(actor, scope.context(List.of(Paths.of(env)))).thenApply(ActorNode::of);
    }

    private CompletableFuture<CastMember> castActor(DataFetchingEnvironment env) {
        MovieId movieId = MovieId.of(env.getArgument("movieId"));
        ActorId actorId = ActorId.of(env.getArgument("actorId"));
        List<String> characters = Writes.characters(env.getArgument("characters"));
        Integer billing = Writes.billing(env.getArgument("billing"));
        RequestScope scope = RequestScope.of(env);
        return scope.writer().castActor(movieId, actorId, characters, billing, scope.context(List.of(Paths.of(env))));
    }

    private CompletableFuture<Boolean> uncastActor(DataFetchingEnvironment env) {
        MovieId movieId = MovieId.of(env.getArgument("movieId"));
        ActorId actorId = ActorId.of(env.getArgument("actorId"));
        RequestScope scope = RequestScope.of(env);
        return scope.writer().uncastActor(movieId, actorId, scope.context(List.of(Paths.of(env))));
    }

    private CompletableFuture<Boolean> deleteMovie(DataFetchingEnvironment env) {
        MovieId movieId = MovieId.of(env.getArgument("id"));
        RequestScope scope = RequestScope.of(env);
        return scope.writer().deleteMovie(movieId, scope.context(List.of(Paths.of(env))));
    }

    private CompletableFuture<StreamReceipt> recordStream(DataFetchingEnvironment env) {
        Map<String, Object> input = env.getArgument("input");
        StreamRecord stream = Writes.stream(new StreamRecord(MovieId.of((String) input.get("movieId")),
                (String) input.get("streamId"), ((OffsetDateTime) input.get("at")).toInstant()), clock);
        RequestScope scope = RequestScope.of(env);
        return scope.writer().recordStream(stream, scope.context(List.of(Paths.of(env))));
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
            return entity(env, new MovieRef(node.id()), Paths.parent(env)).thenApply(movie -> movie == null ? null : getter.apply(movie));
        };
    }

    private Object cast(DataFetchingEnvironment env) {
        MovieNode node = movieNode(env);
        PageRequest page = PageRequest.of(env.getArgument("first"), env.getArgument("after"));
        if (node.cast() != null && page.equals(node.castRequest())) {
            return node.cast();
        }
        return collections(env).load(new MovieRead(node.id(), false, page, null), List.of(Paths.of(env)))
                .thenApply(MovieCollection::cast);
    }

    private Object streamTotals(DataFetchingEnvironment env) {
        MovieNode node = movieNode(env);
        MonthRange range = ReadPlans.monthRange(env.getArguments());
        if (node.totals() != null && range.equals(node.totalsRange())) {
            return node.totals();
        }
        return collections(env).load(new MovieRead(node.id(), false, null, range), List.of(Paths.of(env)))
                .thenApply(MovieCollection::totals);
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
            return entity(env, new ActorRef(node.id()), Paths.parent(env)).thenApply(actor -> actor == null ? null : getter.apply(actor));
        };
    }

    private Object filmography(DataFetchingEnvironment env) {
        ActorNode node = actorNode(env);
        PageRequest page = PageRequest.of(env.getArgument("first"), env.getArgument("after"));
        if (node.movies() != null && page.equals(node.moviesRequest())) {
            return node.movies();
        }
        return filmographies(env).load(new FilmographyRead(node.id(), false, page), List.of(Paths.of(env)))
                .thenApply(Filmography::movies);
    }

    // ---- helpers

    private static MovieNode movieNode(DataFetchingEnvironment env) {
        return env.getSource();
    }

    private static ActorNode actorNode(DataFetchingEnvironment env) {
        return env.getSource();
    }

    @SuppressWarnings("unchecked")
    private static <T> CompletableFuture<T> entity(DataFetchingEnvironment env, EntityRef<T> ref, String path) {
        DataLoader<EntityRef<?>, Object> loader = env.getDataLoader(Loaders.ENTITIES);
        return loader.load(ref, List.of(path)).thenApply(found -> (T) found);
    }

    /** The root field's path and those of the child lists its one read prefetches. */
    private static List<String> served(String path, String child, String otherChild) {
        List<String> paths = new ArrayList<>();
        paths.add(path);
        if (child != null) {
            paths.add(path + "." + child);
        }
        if (otherChild != null) {
            paths.add(path + "." + otherChild);
        }
        return paths;
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

    /**
     * The list of every element's outcome: an element that failed (its key never processed, say) is null
     * with its own error at its own index, and the others keep their data.
     */
    private static <T> CompletableFuture<DataFetcherResult<List<T>>> eachOrError(DataFetchingEnvironment env,
                                                                                 List<CompletableFuture<T>> futures) {
        CompletableFuture<?>[] settled = futures.stream().map(f -> f.handle((value, failure) -> null))
                .toArray(CompletableFuture[]::new);
        return CompletableFuture.allOf(settled).thenApply(ignored -> {
            List<T> data = new ArrayList<>(futures.size());
            List<GraphQLError> errors = new ArrayList<>();
            for (int i = 0; i < futures.size(); i++) {
                CompletableFuture<T> future = futures.get(i);
                if (future.isCompletedExceptionally()) {
                    data.add(null);
                    Throwable failure = future.handle((value, e) -> e).join();
                    errors.add(ErrorHandler.errorFor(failure, env.getExecutionStepInfo().getPath().segment(i),
                            env.getField().getSourceLocation()));
                } else {
                    data.add(future.join());
                }
            }
            return DataFetcherResult.<List<T>>newResult().data(data).errors(errors).build();
        });
    }
}
