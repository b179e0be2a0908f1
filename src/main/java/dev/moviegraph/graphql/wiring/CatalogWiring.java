package dev.moviegraph.graphql.wiring;

import static dev.moviegraph.graphql.wiring.NodeReads.MOVIE_LISTS;
import static dev.moviegraph.graphql.wiring.NodeReads.NODE_VIEWER;
import static dev.moviegraph.graphql.wiring.NodeReads.PERSON_LISTS;
import static dev.moviegraph.graphql.wiring.NodeReads.counted;
import static dev.moviegraph.graphql.wiring.NodeReads.each;
import static dev.moviegraph.graphql.wiring.NodeReads.item;
import static dev.moviegraph.graphql.wiring.NodeReads.prefetched;
import static dev.moviegraph.graphql.wiring.NodeReads.searchHit;
import static dev.moviegraph.graphql.wiring.NodeReads.searchNode;
import static dev.moviegraph.graphql.wiring.NodeReads.viewer;
import static dev.moviegraph.graphql.wiring.NodeReads.watchEntry;

import dev.moviegraph.auth.Viewer;
import dev.moviegraph.catalog.Award;
import dev.moviegraph.catalog.AwardWinnersRead;
import dev.moviegraph.catalog.CatalogAccess;
import dev.moviegraph.catalog.CollectionPage;
import dev.moviegraph.catalog.CollectionRead;
import dev.moviegraph.catalog.Credit;
import dev.moviegraph.catalog.Inputs;
import dev.moviegraph.catalog.ItemRef.MovieRef;
import dev.moviegraph.catalog.ItemRef.PersonRef;
import dev.moviegraph.catalog.ItemRef.TopListRef;
import dev.moviegraph.catalog.ItemRef.TotalRef;
import dev.moviegraph.catalog.KnownFor;
import dev.moviegraph.catalog.ListRead;
import dev.moviegraph.catalog.MonthlyStreams;
import dev.moviegraph.catalog.Movie;
import dev.moviegraph.catalog.MovieId;
import dev.moviegraph.catalog.MovieList;
import dev.moviegraph.catalog.MovieTitle;
import dev.moviegraph.catalog.Page;
import dev.moviegraph.catalog.PageRequest;
import dev.moviegraph.catalog.Paged;
import dev.moviegraph.catalog.Part;
import dev.moviegraph.catalog.Person;
import dev.moviegraph.catalog.PersonId;
import dev.moviegraph.catalog.SearchHit;
import dev.moviegraph.catalog.SearchKind;
import dev.moviegraph.catalog.SearchQuery;
import dev.moviegraph.catalog.SearchRead;
import dev.moviegraph.catalog.Slice;
import dev.moviegraph.catalog.StoreUnavailableException;
import dev.moviegraph.catalog.StreamReceipt;
import dev.moviegraph.catalog.TopList;
import dev.moviegraph.catalog.WatchlistOwner;
import dev.moviegraph.graphql.caching.CacheControl;

import java.time.Clock;
import java.time.YearMonth;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.Supplier;

import graphql.scalars.ExtendedScalars;
import graphql.TypeResolutionEnvironment;
import graphql.schema.DataFetcher;
import graphql.schema.DataFetchingEnvironment;
import graphql.schema.GraphQLObjectType;
import graphql.schema.idl.RuntimeWiring;
import graphql.schema.idl.TypeRuntimeWiring;

/**
 * Binds every field of schema.graphqls to its data fetcher and to the kinds of read it may make
 * ({@link FieldBindings}, checked against the store at start). Fetchers stay thin: they validate
 * arguments, ask {@link ReadPlans} which parts of a collection to read with an item, and go through the
 * request's DataLoaders so that one level of a query makes one batch. Each load names the GraphQL paths
 * it serves. List fields that are parts of a collection are declared once as {@link ListField}s.
 */
public final class CatalogWiring {
    static final int MAX_IDS = 100;
    static final int MAX_TOP = 100;

    private static final Set<CatalogAccess> PARENT_ITEM = Set.of();
    private static final Set<CatalogAccess> BY_KEY = Set.of(CatalogAccess.ITEMS_BY_KEY);
    private static final Set<CatalogAccess> MOVIE_READS = Set.of(CatalogAccess.ITEMS_BY_KEY, CatalogAccess.MOVIE_COLLECTION);
    private static final Set<CatalogAccess> PERSON_READS = Set.of(CatalogAccess.ITEMS_BY_KEY, CatalogAccess.PERSON_CREDITS);
    private static final Set<CatalogAccess> OWNED_READS = Set.of(CatalogAccess.OWNED_COLLECTION);
    private static final Set<CatalogAccess> NODE_READS = Set.of(CatalogAccess.ITEMS_BY_KEY,
            CatalogAccess.MOVIE_COLLECTION, CatalogAccess.PERSON_CREDITS);
    private static final Set<CatalogAccess> ENTITY_READS = NODE_READS;
    /** What Query._service answers: its one field, the SDL, is made from the schema. */
    private static final Object SERVICE = new Object();


    private static final ListField WATCHLIST = ListField.page("watchlist", Part.WATCHLIST);

    private final FieldBindings bindings = new FieldBindings();
    private final Map<String, TypeRuntimeWiring.Builder> types = new LinkedHashMap<>();

    private final Clock clock;
    private final MutationFetchers mutations;

    /** Every field with its fetcher and the reads it may make; fields without a fetcher read their parent. */
    public CatalogWiring(Clock clock) {
        this.clock = clock;
        this.mutations = new MutationFetchers(clock);
        Entities entities = new Entities(clock);
        field("Query", "movie", MOVIE_READS, env -> NodeReads.movie(env, MovieId.of(env.getArgument("id"))));
        field("Query", "movies", MOVIE_READS, env -> each(env, MovieId::of, NodeReads::movie));
        field("Query", "person", PERSON_READS, env -> NodeReads.person(env, PersonId.of(env.getArgument("id"))));
        field("Query", "people", PERSON_READS, env -> each(env, PersonId::of, NodeReads::person));
        field("Query", "node", NODE_READS, env -> NodeReads.node(env, NodeReads.nodeId(env.getArgument("id"))));
        field("Query", "nodes", NODE_READS, env -> each(env, NodeReads::nodeId, NodeReads::node));
        field("Query", "topMovies", BY_KEY, this::topMovies);
        field("Query", "search", Set.of(CatalogAccess.SEARCH), CatalogWiring::search);
        field("Query", "browseMovies", Set.of(CatalogAccess.MOVIE_LISTS),
                env -> list(env, MovieList.browse(env.getArgument("genre"), env.getArgument("year"))));
        field("Query", "topRated", Set.of(CatalogAccess.MOVIE_LISTS),
                env -> list(env, MovieList.topRated(env.getArgument("genre"))));
        connection("MovieConnection", "MovieEdge", false, Set.of(CatalogAccess.MOVIE_COLLECTION),
                env -> searchNode(env, searchHit(env)));
        connection("SearchConnection", "SearchEdge", false,
                Set.of(CatalogAccess.MOVIE_COLLECTION, CatalogAccess.PERSON_CREDITS), env -> searchNode(env, searchHit(env)));
        field("SearchEdge", "knownFor", PARENT_ITEM, env -> {
            KnownFor known = searchHit(env).knownFor();
            return known == null ? null
                    : MovieNode.reference(known.movieId(), new MovieNode.Copy(known.title(), true, known.year()));
        });
        field("Query", "streamTotal", BY_KEY, this::streamTotal);
        field("Query", "viewer", PARENT_ITEM, NodeReads::viewer);
        // Apollo Federation's root fields (GatewaySchema adds them): a router's entity fetches read as nodes do
        // (Entities), plus the monthly totals by key; _service is the SDL, made once.
        field("Query", "_entities", ENTITY_READS, entities.fetcher());
        field("Query", "_service", PARENT_ITEM, env -> SERVICE);
        field("_Service", "sdl", PARENT_ITEM, Subgraph.sdl());
        // Subscriptions are read as queries on every change (see LiveQueries): the same reads, and what each
        // read depends on is noted for the change feed to match.
        field("Subscription", "topMoviesChanged", BY_KEY, env -> {
            LiveInterest.of(env).month(env.getArgument("month"));
            return topMovies(env).thenApply(totals -> {
                totals.forEach(total -> LiveInterest.of(env).movie(total.movieId()));
                return totals;
            });
        });
        field("Subscription", "streamTotalChanged", BY_KEY, env -> {
            LiveInterest.of(env).movie(MovieId.of(env.getArgument("movieId")));
            return streamTotal(env);
        });
        field("Subscription", "watchlistChanged", PARENT_ITEM, env -> {
            WatchlistOwner viewer = viewer(env);
            if (viewer != null) {
                LiveInterest.of(env).owner(Part.Collection.VIEWER, viewer.viewerId());
            }
            return viewer;
        });

        // A viewer is made from the token (or a node id) alone; the owner rule on Viewer refuses another
        // viewer's fields before anything is read, and the watchlist is one Query of LSI1 with its count.
        field("Viewer", "id", PARENT_ITEM, env -> NODE_VIEWER + ((WatchlistOwner) env.getSource()).viewerId());
        field("Viewer", "watchlist", OWNED_READS, env -> {
            String viewerId = ((WatchlistOwner) env.getSource()).viewerId();
            LiveInterest.of(env).owner(Part.Collection.VIEWER, viewerId);
            return part(env, WATCHLIST, Map.of(), (slice, counted) -> new CollectionRead(Part.Collection.VIEWER,
                    viewerId, counted, Map.of(Part.WATCHLIST, slice)));
        });
        connection("WatchlistConnection", "WatchlistEdge", true, PARENT_ITEM, null);
        field("WatchlistEdge", "addedAt", PARENT_ITEM, env -> watchEntry(env).addedAt().atOffset(java.time.ZoneOffset.UTC));
        field("WatchlistEdge", "movieId", PARENT_ITEM, env -> watchEntry(env).movieId().value());
        // By key, every edge's movie in one BatchGetItem: null for a movie deleted since it was listed.
        field("WatchlistEdge", "movie", BY_KEY, env -> item(env, new MovieRef(watchEntry(env).movieId()), Paths.of(env))
                .thenApply(movie -> movie == null ? null : MovieNode.of(movie)));
        field("Mutation", "addToWatchlist", Set.of(CatalogAccess.LIST_ENTRY), mutations::addToWatchlist);
        field("Mutation", "removeFromWatchlist", Set.of(CatalogAccess.LIST_ENTRY), MutationFetchers::removeFromWatchlist);

        field("Movie", "id", PARENT_ITEM, env -> movieNode(env).id().value());
        field("Movie", "title", BY_KEY, movieField(Movie::title, MovieNode.Copy::title, copy -> true));
        field("Movie", "year", BY_KEY, movieField(Movie::year, MovieNode.Copy::year, MovieNode.Copy::hasYear));
        field("Movie", "releaseDate", BY_KEY, movieField(Movie::releaseDate, null, null));
        field("Movie", "genres", BY_KEY, movieField(Movie::genres, null, null));
        field("Movie", "runtimeMinutes", BY_KEY, movieField(Movie::runtimeMinutes, null, null));
        // List entries copy the rating (search entries do not): a list page that shows it is one Query.
        field("Movie", "averageRating", BY_KEY,
                movieField(Movie::averageRating, MovieNode.Copy::averageRating, MovieNode.Copy::hasRating));
        field("Movie", "numVotes", BY_KEY, movieField(Movie::numVotes, MovieNode.Copy::numVotes, MovieNode.Copy::hasRating));
        for (ListField list : MOVIE_LISTS) {
            // A first cast page comes from the movie item's copy, read by key (FirstCastPages).
            field("Movie", list.field(), list.part() == Part.CAST ? MOVIE_READS : Set.of(CatalogAccess.MOVIE_COLLECTION), env -> {
                if (list.part() == Part.TOTALS) {
                    CacheControl.forMonth(env, env.getArgument("to"), YearMonth.now(clock));
                }
                return movieList(env, list);
            });
        }

        field("Person", "id", PARENT_ITEM, env -> personNode(env).id().value());
        field("Person", "name", BY_KEY, personField(Person::name, true));
        field("Person", "birthYear", BY_KEY, personField(Person::birthYear, false));
        field("Person", "deathYear", BY_KEY, personField(Person::deathYear, false));
        field("Person", "professions", BY_KEY, personField(Person::professions, false));
        for (ListField list : PERSON_LISTS) {
            field("Person", list.field(), Set.of(CatalogAccess.PERSON_CREDITS), env -> personList(env, list));
        }

        for (String type : List.of("CastMember", "Credit")) {
            field(type, "movie", PARENT_ITEM, env -> {
                Credit credit = env.getSource();
                return MovieNode.reference(credit.movieId(),
                        new MovieNode.Copy(credit.movieTitle(), true, credit.movieYear()));
            });
            field(type, "person", PARENT_ITEM, CatalogWiring::creditPerson);
        }
        field("CastMember", "characters", PARENT_ITEM, null);
        field("CastMember", "billing", PARENT_ITEM, env -> ((Credit) env.getSource()).position());
        field("Credit", "role", PARENT_ITEM, env -> ((Credit) env.getSource()).role().name());
        field("Credit", "position", PARENT_ITEM, null);

        connection("CastConnection", "CastEdge", true, PARENT_ITEM, CatalogWiring::edgeNode);
        connection("CreditConnection", "CreditEdge", true, PARENT_ITEM, CatalogWiring::edgeNode);
        field("PageInfo", "hasNextPage", PARENT_ITEM, env -> ((Paged) env.getSource()).hasNextPage());
        // Every list pages forward only (first/after): Relay's spec lets such a server answer false.
        field("PageInfo", "hasPreviousPage", PARENT_ITEM, env -> false);
        field("PageInfo", "startCursor", PARENT_ITEM, env -> ((Paged) env.getSource()).startCursor());
        field("PageInfo", "endCursor", PARENT_ITEM, env -> ((Paged) env.getSource()).endCursor());

        field("Query", "awardWinners", Set.of(CatalogAccess.AWARD_WINNERS), CatalogWiring::awardWinners);
        connection("AwardConnection", "AwardEdge", false, PARENT_ITEM, CatalogWiring::edgeNode);
        for (String name : List.of("award", "category", "year", "won")) {
            field("Award", name, PARENT_ITEM, null);
        }
        for (String name : List.of("title", "region", "language", "types", "attributes", "original")) {
            field("MovieTitle", name, PARENT_ITEM, null);
        }
        field("Award", "person", PARENT_ITEM, env -> {
            Award award = env.getSource();
            return award.personId() == null ? null : PersonNode.reference(award.personId(), null);
        });
        field("Award", "movie", PARENT_ITEM, env -> {
            Award award = env.getSource();
            return award.movieId() == null ? null : MovieNode.reference(award.movieId(), null);
        });
        field("Mutation", "recordAward", Set.of(CatalogAccess.AWARD, CatalogAccess.ITEMS_BY_KEY), env -> {
            RequestScope scope = RequestScope.of(env);
            return scope.writer().recordAward(mutations.award(env), scope.context(List.of(Paths.of(env))));
        });
        field("Mutation", "removeAward", Set.of(CatalogAccess.AWARD), env -> {
            RequestScope scope = RequestScope.of(env);
            return scope.writer().removeAward(mutations.award(env), scope.context(List.of(Paths.of(env))));
        });

        field("MonthlyStreams", "movie", PARENT_ITEM, env -> {
            MonthlyStreams total = env.getSource();
            return MovieNode.reference(total.movieId(), new MovieNode.Copy(total.movieTitle(), false, null));
        });
        field("MonthlyStreams", "month", PARENT_ITEM, env -> ((MonthlyStreams) env.getSource()).month());
        field("MonthlyStreams", "streams", PARENT_ITEM, env -> ((MonthlyStreams) env.getSource()).streams());

        field("Mutation", "putMovie", Set.of(CatalogAccess.PUT_ENTITY, CatalogAccess.ITEMS_BY_KEY,
                CatalogAccess.MOVIE_COLLECTION), mutations::putMovie);
        field("Mutation", "putPerson", Set.of(CatalogAccess.PUT_ENTITY, CatalogAccess.ITEMS_BY_KEY,
                CatalogAccess.PERSON_CREDITS), mutations::putPerson);
        field("Mutation", "castActor", Set.of(CatalogAccess.CREDIT, CatalogAccess.ITEMS_BY_KEY), mutations::castActor);
        field("Mutation", "uncastActor", Set.of(CatalogAccess.CREDIT), mutations::uncredit);
        field("Mutation", "creditCrew", Set.of(CatalogAccess.CREDIT, CatalogAccess.ITEMS_BY_KEY,
                CatalogAccess.MOVIE_COLLECTION), mutations::creditCrew);
        field("Mutation", "uncreditCrew", Set.of(CatalogAccess.CREDIT), mutations::uncredit);
        field("Mutation", "deleteMovie", Set.of(CatalogAccess.DELETE_MOVIE, CatalogAccess.MOVIE_COLLECTION),
                mutations::deleteMovie);
        field("Mutation", "recordStream", Set.of(CatalogAccess.RECORD_STREAM, CatalogAccess.ITEMS_BY_KEY),
                mutations::recordStream);
        for (String name : List.of("streamId", "month", "counted", "total")) {
            field("StreamReceipt", name, PARENT_ITEM, null);
        }
    }

    /**
     * A Relay connection over a {@link Page} and its edge type: edges, pageInfo (the page itself), totalCount
     * when the list's length is recorded ({@code counted}), and each edge's cursor and node.
     */
    private void connection(String connection, String edge, boolean counted, Set<CatalogAccess> nodeReads,
                            DataFetcher<?> node) {
        field(connection, "edges", PARENT_ITEM, env -> ((Page<?>) env.getSource()).entries());
        field(connection, "pageInfo", PARENT_ITEM, DataFetchingEnvironment::getSource);
        if (counted) {
            field(connection, "totalCount", PARENT_ITEM, env -> {
                Integer count = ((Page<?>) env.getSource()).totalCount();
                if (count == null) {
                    throw new StoreUnavailableException("This list's count is not recorded in the table yet: "
                            + "run `moviegraph.jar migrate`");
                }
                return count;
            });
        }
        field(edge, "cursor", PARENT_ITEM, env -> ((Page.Entry<?>) env.getSource()).cursor());
        if (node != null) { // an edge without a node shows its entry's own fields
            field(edge, "node", nodeReads, node);
        }
    }

    private static Object edgeNode(DataFetchingEnvironment env) {
        return ((Page.Entry<?>) env.getSource()).node();
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

    /** The object type of a node or an entity this wiring made. */
    private static GraphQLObjectType objectType(TypeResolutionEnvironment env) {
        Object node = env.getObject();
        String type = node instanceof MovieNode ? "Movie" : node instanceof PersonNode ? "Person"
                : node instanceof WatchlistOwner ? "Viewer" : node instanceof MonthlyStreams ? "MonthlyStreams" : null;
        if (type == null) {
            throw new IllegalStateException("Not a Movie, Person, Viewer or MonthlyStreams: " + node);
        }
        return env.getSchema().getObjectType(type);
    }

    public RuntimeWiring runtimeWiring() {
        RuntimeWiring.Builder wiring = RuntimeWiring.newRuntimeWiring()
                .scalar(ExtendedScalars.Date)
                .scalar(ExtendedScalars.GraphQLLong)
                .scalar(ExtendedScalars.DateTime)
                .scalar(YearMonthScalar.INSTANCE);
        types.values().forEach(wiring::type);
        // A movie, a person or a viewer, for the abstract types that name them (and _Entity's totals too).
        for (String abstractType : List.of("SearchResult", "Node", "_Entity")) {
            wiring.type(TypeRuntimeWiring.newTypeWiring(abstractType).typeResolver(CatalogWiring::objectType));
        }
        return wiring.build();
    }

    private CompletableFuture<List<MonthlyStreams>> topMovies(DataFetchingEnvironment env) {
        YearMonth month = env.getArgument("month");
        int limit = Inputs.inRange("limit", env.getArgument("limit"), 1, MAX_TOP);
        CacheControl.forMonth(env, month, YearMonth.now(clock));
        // One item whatever the limit: the month's top list (a month nobody streamed has none).
        return Loaders.items(env).load(new TopListRef(month), List.of(Paths.of(env)))
                .thenApply(found -> found == null ? List.of() : ((TopList) found).top(limit));
    }

    /** One page of search results: one index Query; each result's other fields are read at the next level. */
    private static CompletableFuture<Page<SearchHit>> search(DataFetchingEnvironment env) {
        SearchQuery query = SearchQuery.parse(env.getArgument("query"));
        List<String> types = env.getArgument("types");
        Set<SearchKind> kinds = EnumSet.noneOf(SearchKind.class);
        types.forEach(type -> kinds.add(SearchKind.valueOf(type)));
        SearchRead read = new SearchRead(query, kinds, PageRequest.of(env.getArgument("first"), env.getArgument("after")));
        RequestScope scope = RequestScope.of(env);
        return scope.catalog().search(read, scope.context(List.of(Paths.of(env))));
    }

    /** An award's winners, newest first: one index Query a page. */
    private static CompletableFuture<Page<Award>> awardWinners(DataFetchingEnvironment env) {
        String award = env.getArgument("award");
        String category = env.getArgument("category");
        AwardWinnersRead read = new AwardWinnersRead(award, category,
                PageRequest.of(env.getArgument("first"), env.getArgument("after")));
        RequestScope scope = RequestScope.of(env);
        return scope.catalog().awardWinners(read, scope.context(List.of(Paths.of(env))));
    }


    /** One page of a movie list: one index Query. */
    private static CompletableFuture<Page<SearchHit>> list(DataFetchingEnvironment env, MovieList list) {
        ListRead read = new ListRead(list, PageRequest.of(env.getArgument("first"), env.getArgument("after")));
        RequestScope scope = RequestScope.of(env);
        return scope.catalog().list(read, scope.context(List.of(Paths.of(env))));
    }

    private CompletableFuture<MonthlyStreams> streamTotal(DataFetchingEnvironment env) {
        MovieId movieId = MovieId.of(env.getArgument("movieId"));
        YearMonth month = env.getArgument("month");
        CacheControl.forMonth(env, month, YearMonth.now(clock));
        return item(env, new TotalRef(movieId, month), Paths.of(env));
    }

    // ---- Movie and Person

    /**
     * A field of the movie item: from the item when the node has it, from the copy a credit, total or
     * list entry carries when that holds the field ({@code holds}), else read by key (batched with the rest
     * of its level).
     */
    private static <T> DataFetcher<Object> movieField(Function<Movie, T> getter, Function<MovieNode.Copy, T> copied,
                                                      java.util.function.Predicate<MovieNode.Copy> holds) {
        return env -> {
            MovieNode node = movieNode(env);
            if (node.movie() != null) {
                return getter.apply(node.movie());
            }
            if (copied != null && node.copy() != null && holds.test(node.copy())) {
                return copied.apply(node.copy());
            }
            return item(env, new MovieRef(node.id()), Paths.parent(env))
                    .thenApply(movie -> movie == null ? null : getter.apply(movie));
        };
    }

    private static <T> DataFetcher<Object> personField(Function<Person, T> getter, boolean copied) {
        return env -> {
            PersonNode node = personNode(env);
            if (node.person() != null) {
                return getter.apply(node.person());
            }
            if (copied && node.copiedName() != null) {
                return node.copiedName();
            }
            return item(env, new PersonRef(node.id()), Paths.parent(env))
                    .thenApply(person -> person == null ? null : getter.apply(person));
        };
    }

    private static Object movieList(DataFetchingEnvironment env, ListField list) {
        MovieNode node = movieNode(env);
        Supplier<CompletableFuture<Object>> read = () -> part(env, list, node.parts(),
                (slice, owner) -> CollectionRead.movie(node.id(), owner, Map.of(list.part(), slice)));
        if (list.part() == Part.CAST && !node.parts().containsKey(Part.CAST)) {
            Slice slice = list.slice().apply(env.getArguments());
            if (FirstCastPages.answers(slice)) {
                return FirstCastPages.page(env, node, slice, read);
            }
        }
        return read.get();
    }

    private static Object personList(DataFetchingEnvironment env, ListField list) {
        PersonNode node = personNode(env);
        return part(env, list, node.parts(), (slice, owner) -> CollectionRead.person(node.id(), owner, Map.of(list.part(), slice)));
    }

    /** A list field: the prefetched page when the owner's read asked for this very slice, else its own read. */
    private static CompletableFuture<Object> part(DataFetchingEnvironment env, ListField list,
                                                  Map<Part, Prefetched> prefetched,
                                                  java.util.function.BiFunction<Slice, Boolean, CollectionRead> read) {
        Slice slice = list.slice().apply(env.getArguments());
        Prefetched known = prefetched.get(list.part());
        // totalCount is kept on the owner item: a list asked for it is read with its owner.
        CollectionRead own = read.apply(slice, env.getSelectionSet().contains("totalCount"));
        CompletableFuture<CollectionPage> page = known != null && known.slice().equals(slice) ? known.page()
                : Loaders.collections(env, own).load(own, List.of(Paths.of(env)));
        // A connection field shows the page; a list field (the crew, awards, months) its items.
        return page.thenApply(found -> slice.page() != null ? found.list(list.part())
                : found.items(list.part()).stream().filter(list.shown().apply(env.getArguments())).toList());
    }

    private static PersonNode creditPerson(DataFetchingEnvironment env) {
        Credit credit = env.getSource();
        return PersonNode.reference(credit.personId(), credit.personName());
    }

    // ---- helpers

    private static MovieNode movieNode(DataFetchingEnvironment env) {
        return env.getSource();
    }

    private static PersonNode personNode(DataFetchingEnvironment env) {
        return env.getSource();
    }

}
