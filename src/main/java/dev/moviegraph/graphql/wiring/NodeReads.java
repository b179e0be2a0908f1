package dev.moviegraph.graphql.wiring;

import dev.moviegraph.auth.Viewer;
import dev.moviegraph.catalog.CollectionPage;
import dev.moviegraph.catalog.CollectionRead;
import dev.moviegraph.catalog.InvalidInputException;
import dev.moviegraph.catalog.ItemRef.MovieRef;
import dev.moviegraph.catalog.ItemRef.PersonRef;
import dev.moviegraph.catalog.ItemRef;
import dev.moviegraph.catalog.Movie;
import dev.moviegraph.catalog.MovieId;
import dev.moviegraph.catalog.MovieTitle;
import dev.moviegraph.catalog.Page;
import dev.moviegraph.catalog.Part;
import dev.moviegraph.catalog.Person;
import dev.moviegraph.catalog.PersonId;
import dev.moviegraph.catalog.SearchHit;
import dev.moviegraph.catalog.SearchKind;
import dev.moviegraph.catalog.Slice;
import dev.moviegraph.catalog.WatchlistEntry;
import dev.moviegraph.catalog.WatchlistOwner;
import dev.moviegraph.graphql.caching.CacheControl;
import dev.moviegraph.graphql.errors.ErrorHandler;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

import graphql.GraphQLError;
import graphql.execution.DataFetcherResult;
import graphql.schema.DataFetchingEnvironment;

/**
 * How a movie, a person or a viewer becomes a node: read by id at the root ({@code movie}, {@code nodes},
 * a router's {@code _entities}), or made from a search or list entry with what it carries. A node read at
 * the root brings the parts of its collection its selection asks for in the same read; every read goes
 * through the request's DataLoaders, so one level of a query makes one batch.
 */
final class NodeReads {
    /** The types a movie, or a person, is returned as: the selection of its lists is read on these. */
    static final Set<String> MOVIE_TYPES = Set.of("Movie");
    static final Set<String> PERSON_TYPES = Set.of("Person");

    static final List<ListField> MOVIE_LISTS = List.of(
            ListField.page("cast", Part.CAST),
            ListField.all("directors", Part.DIRECTORS),
            ListField.all("writers", Part.WRITERS),
            ListField.months("streamTotals", Part.TOTALS),
            ListField.all("awards", Part.MOVIE_AWARDS),
            ListField.all("titles", Part.TITLES).where("region", MovieTitle.class, MovieTitle::region));
    static final List<ListField> PERSON_LISTS = List.of(
            ListField.page("movies", Part.ACTED),
            ListField.page("directed", Part.DIRECTED),
            ListField.page("wrote", Part.WROTE),
            ListField.all("awards", Part.PERSON_AWARDS));

    /**
     * The parts of its collection a movie's selection asks to read with it; none when it asks only a first
     * cast page that the movie item's copy holds: then the movie is read by key, batched with its level
     * ({@link FirstCastPages}), where a collection read would be a Query of its own.
     */
    static Map<Part, Slice> movieParts(DataFetchingEnvironment env) {
        Map<Part, Slice> parts = ReadPlans.prefetch(env.getSelectionSet(), MOVIE_TYPES, MOVIE_LISTS);
        return parts.size() == 1 && parts.containsKey(Part.CAST) && FirstCastPages.answers(parts.get(Part.CAST))
                ? Map.of() : parts;
    }

    /** A root movie, read together with the parts of its collection the selection asks for. */
    static CompletableFuture<MovieNode> movie(DataFetchingEnvironment env, MovieId id) {
        Map<Part, Slice> parts = movieParts(env);
        return owner(env, CollectionRead.movie(id, true, parts), new MovieRef(id))
                .thenApply(found -> found.item() == null ? null
                        : new MovieNode(id, (Movie) found.item(), null, found.prefetched()));
    }

    /** A root person, read together with the credit lists the selection asks for. */
    static CompletableFuture<PersonNode> person(DataFetchingEnvironment env, PersonId id) {
        Map<Part, Slice> parts = ReadPlans.prefetch(env.getSelectionSet(), PERSON_TYPES, PERSON_LISTS);
        return owner(env, CollectionRead.person(id, true, parts), new PersonRef(id))
                .thenApply(found -> found.item() == null ? null
                        : new PersonNode(id, (Person) found.item(), null, found.prefetched()));
    }

    /**
     * The id of a Relay node: IMDb's prefix says its kind, tt a movie and nm a person, each checked as
     * movie and person check it (a malformed one is BAD_USER_INPUT); null for an id of no known kind,
     * for which Relay expects node to answer null.
     */
    static Record nodeId(String id) {
        if (id.startsWith("tt")) {
            return MovieId.of(id);
        }
        if (id.startsWith(NODE_VIEWER)) {
            return id.length() > NODE_VIEWER.length() ? WatchlistOwner.of(id.substring(NODE_VIEWER.length())) : null;
        }
        return id.startsWith("nm") ? PersonId.of(id) : null;
    }

    /** A root node: read as the movie or the person it names is read (null without a kind). */
    static CompletableFuture<Object> node(DataFetchingEnvironment env, Record id) {
        if (id instanceof MovieId movie) {
            return movie(env, movie).thenApply(node -> node);
        }
        if (id instanceof PersonId person) {
            return person(env, person).thenApply(node -> node);
        }
        // Whoever's it is, made without a read: the owner rule answers its fields, or refuses them. Node's
        // static hint (public, 300 s) is the movie's and the person's: a viewer's answer is never kept.
        if (id instanceof WatchlistOwner viewer) {
            CacheControl.noStore(env);
            return CompletableFuture.completedFuture(viewer);
        }
        return CompletableFuture.completedFuture(null);
    }

    /** An owner item and the parts prefetched with it. */
    record Owner(Record item, Map<Part, Prefetched> prefetched) {
    }

    /** The item alone by key (batched with its level), or its collection read when parts are wanted. */
    static CompletableFuture<Owner> owner(DataFetchingEnvironment env, CollectionRead read, ItemRef<?> ref) {
        if (read.parts().isEmpty()) {
            return item(env, ref, Paths.of(env)).thenApply(item -> new Owner(item, Map.of()));
        }
        CompletableFuture<CollectionPage> page = collection(env, read);
        return page.thenApply(found -> new Owner(found.owner(), prefetched(read, page)));
    }

    /** The collection read of a node at this field's path, naming the list fields it answers too. */
    static CompletableFuture<CollectionPage> collection(DataFetchingEnvironment env, CollectionRead read) {
        String path = Paths.of(env);
        List<String> paths = new ArrayList<>();
        paths.add(path);
        for (ListField list : read.collection() == Part.Collection.MOVIE ? MOVIE_LISTS : PERSON_LISTS) {
            if (read.parts().containsKey(list.part())) {
                paths.add(path + "." + list.field());
            }
        }
        return Loaders.collections(env, read).load(read, paths);
    }

    static Map<Part, Prefetched> prefetched(CollectionRead read, CompletableFuture<CollectionPage> page) {
        Map<Part, Prefetched> prefetched = new LinkedHashMap<>();
        read.parts().forEach((part, slice) -> prefetched.put(part, new Prefetched(slice, page)));
        return prefetched;
    }

    static SearchHit searchHit(DataFetchingEnvironment env) {
        return ((Page.Entry<?>) env.getSource()).node() instanceof SearchHit hit ? hit : null;
    }

    /**
     * A result as the node of its type, with the fields its search entry carries; the lists its selection
     * asks for are read together, one collection read per result (all results' at one level together).
     */
    static Object searchNode(DataFetchingEnvironment env, SearchHit hit) {
        if (hit.kind() == SearchKind.MOVIE) {
            MovieId id = MovieId.of(hit.id());
            MovieNode.Copy copy = hit.rating() == null ? new MovieNode.Copy(hit.name(), true, hit.year())
                    : new MovieNode.Copy(hit.name(), true, hit.year(), true, hit.rating().averageRating(),
                    hit.rating().numVotes());
            Map<Part, Slice> parts = movieParts(env);
            if (parts.isEmpty()) {
                return MovieNode.reference(id, copy);
            }
            CollectionRead read = CollectionRead.movie(id, counted(env), parts);
            return new MovieNode(id, null, copy, prefetched(read, collection(env, read)));
        }
        PersonId id = PersonId.of(hit.id());
        Map<Part, Slice> parts = ReadPlans.prefetch(env.getSelectionSet(), PERSON_TYPES, PERSON_LISTS);
        if (parts.isEmpty()) {
            return PersonNode.reference(id, hit.name());
        }
        CollectionRead read = CollectionRead.person(id, counted(env), parts);
        return new PersonNode(id, null, hit.name(), prefetched(read, collection(env, read)));
    }

    /** Whether a list of this node asks for its totalCount, which its owner item keeps. */
    static boolean counted(DataFetchingEnvironment env) {
        return env.getSelectionSet().contains("*/totalCount");
    }

    /** A Viewer's Relay id: this prefix, then the token's subject. */
    static final String NODE_VIEWER = "viewer:";

    /** The request's signed-in viewer as the owner of their collection; null when nobody is signed in. */
    static WatchlistOwner viewer(DataFetchingEnvironment env) {
        Viewer viewer = env.getGraphQlContext().get(Viewer.class);
        return viewer == null || !viewer.signedIn() ? null : WatchlistOwner.of(viewer.subject());
    }

    /** The signed-in viewer's subject; the @auth rule of every field that calls it has made sure there is one. */
    static String signedIn(DataFetchingEnvironment env) {
        WatchlistOwner viewer = viewer(env);
        if (viewer == null) {
            throw new IllegalStateException("A viewer's field ran without a signed-in viewer: its @auth rule is missing");
        }
        return viewer.viewerId();
    }

    static WatchlistEntry watchEntry(DataFetchingEnvironment env) {
        return (WatchlistEntry) ((Page.Entry<?>) env.getSource()).node();
    }

    static <T extends Record> CompletableFuture<T> item(DataFetchingEnvironment env, ItemRef<T> ref, String path) {
        return Loaders.items(env).load(ref, List.of(path)).thenApply(found -> ref.type().cast(found));
    }

    @FunctionalInterface
    interface Root<I, N> {
        CompletableFuture<N> read(DataFetchingEnvironment env, I id);
    }

    /** A list of roots by id ({@code movies}, {@code people}, {@code nodes}), each read as its root alone is. */
    static <I, N> CompletableFuture<DataFetcherResult<List<N>>> each(DataFetchingEnvironment env,
                                                                            Function<String, I> parse, Root<I, N> root) {
        List<String> raw = env.getArgument("ids");
        if (raw.size() > CatalogWiring.MAX_IDS) {
            throw new InvalidInputException("At most " + CatalogWiring.MAX_IDS + " ids per request, got " + raw.size());
        }
        List<I> ids = new ArrayList<>(raw.size());
        raw.forEach(id -> ids.add(parse.apply(id)));
        return eachOrError(env, ids.stream().map(id -> root.read(env, id)).toList());
    }

    /**
     * The list of every element's outcome: an element that failed (its key never processed, say) is null
     * with its own error at its own index, and the others keep their data.
     */
    static <T> CompletableFuture<DataFetcherResult<List<T>>> eachOrError(DataFetchingEnvironment env,
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

    private NodeReads() {
    }
}
