package dev.moviegraph.graphql.wiring;

import static dev.moviegraph.graphql.wiring.NodeReads.signedIn;

import dev.moviegraph.catalog.Award;
import dev.moviegraph.catalog.Credit;
import dev.moviegraph.catalog.ItemRef.MovieRef;
import dev.moviegraph.catalog.Movie;
import dev.moviegraph.catalog.MovieId;
import dev.moviegraph.catalog.Page;
import dev.moviegraph.catalog.Part;
import dev.moviegraph.catalog.Person;
import dev.moviegraph.catalog.PersonId;
import dev.moviegraph.catalog.Role;
import dev.moviegraph.catalog.StreamReceipt;
import dev.moviegraph.catalog.StreamRecord;
import dev.moviegraph.catalog.WatchlistEntry;
import dev.moviegraph.catalog.Writes;

import java.time.Clock;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import graphql.schema.DataFetchingEnvironment;

/**
 * The fetchers of the mutations: each validates its input, then makes its write in one transaction
 * through the request's writer ({@link RequestScope}), naming the field it serves.
 */
final class MutationFetchers {
    private final Clock clock;

    MutationFetchers(Clock clock) {
        this.clock = clock;
    }

    Award award(DataFetchingEnvironment env) {
        return Writes.award(Arguments.argument(env, "input", Arguments.AwardInput.class).toAward(), clock);
    }

    CompletableFuture<MovieNode> putMovie(DataFetchingEnvironment env) {
        Movie movie = Writes.movie(Arguments.argument(env, "input", Arguments.MovieInput.class).movie(), clock);
        RequestScope scope = RequestScope.of(env);
        return scope.writer().putMovie(movie, scope.context(List.of(Paths.of(env)))).thenApply(MovieNode::of);
    }

    CompletableFuture<PersonNode> putPerson(DataFetchingEnvironment env) {
        Person person = Writes.person(Arguments.argument(env, "input", Arguments.PersonInput.class).person(), clock);
        RequestScope scope = RequestScope.of(env);
        return scope.writer().putPerson(person, scope.context(List.of(Paths.of(env)))).thenApply(PersonNode::of);
    }

    CompletableFuture<Credit> castActor(DataFetchingEnvironment env) {
        Arguments.Casting casting = Arguments.arguments(env, Arguments.Casting.class);
        RequestScope scope = RequestScope.of(env);
        return scope.writer().credit(MovieId.of(casting.movieId()), PersonId.of(casting.actorId()), Role.CAST,
                Writes.characters(casting.characters()), Writes.billing(casting.billing()),
                scope.context(List.of(Paths.of(env))));
    }

    CompletableFuture<Credit> creditCrew(DataFetchingEnvironment env) {
        Arguments.Crediting crediting = Arguments.arguments(env, Arguments.Crediting.class);
        RequestScope scope = RequestScope.of(env);
        return scope.writer().credit(MovieId.of(crediting.movieId()), PersonId.of(crediting.personId()),
                Role.valueOf(crediting.role()), List.of(), null, scope.context(List.of(Paths.of(env))));
    }

    /** uncastActor (the person is actorId, the role CAST) or uncreditCrew (personId, a crew role). */
    CompletableFuture<Boolean> uncredit(DataFetchingEnvironment env) {
        Arguments.Crediting crediting = Arguments.arguments(env, Arguments.Crediting.class);
        boolean cast = crediting.actorId() != null;
        RequestScope scope = RequestScope.of(env);
        return scope.writer().uncredit(MovieId.of(crediting.movieId()),
                PersonId.of(cast ? crediting.actorId() : crediting.personId()),
                cast ? Role.CAST : Role.valueOf(crediting.role()), scope.context(List.of(Paths.of(env))));
    }

    CompletableFuture<Boolean> deleteMovie(DataFetchingEnvironment env) {
        MovieId movieId = MovieId.of(env.getArgument("id"));
        RequestScope scope = RequestScope.of(env);
        return scope.writer().deleteMovie(movieId, scope.context(List.of(Paths.of(env))));
    }

    CompletableFuture<StreamReceipt> recordStream(DataFetchingEnvironment env) {
        StreamRecord stream = Writes.stream(Arguments.argument(env, "input", Arguments.StreamInput.class).stream(), clock);
        RequestScope scope = RequestScope.of(env);
        return scope.writer().recordStream(stream, scope.context(List.of(Paths.of(env))));
    }

    /** One transaction: the movie checked, the entry put if new, the count up; an entry already there is answered as it is. */
    CompletableFuture<Page.Entry<WatchlistEntry>> addToWatchlist(DataFetchingEnvironment env) {
        String viewerId = signedIn(env);
        MovieId movieId = MovieId.of(env.getArgument("movieId"));
        // Milliseconds: what the newest-first key keeps, so the entry and its key say the same instant.
        WatchlistEntry entry = new WatchlistEntry(viewerId, movieId,
                clock.instant().truncatedTo(java.time.temporal.ChronoUnit.MILLIS));
        RequestScope scope = RequestScope.of(env);
        return scope.writer().addEntry(Part.WATCHLIST, viewerId, entry, new MovieRef(movieId),
                        scope.context(List.of(Paths.of(env))))
                .thenApply(stored -> new Page.Entry<>(() -> scope.catalog().cursor(Part.WATCHLIST, stored),
                        (WatchlistEntry) stored));
    }

    /** One transaction, no read: the entry deleted if there, the count down with it. */
    static CompletableFuture<Boolean> removeFromWatchlist(DataFetchingEnvironment env) {
        String viewerId = signedIn(env);
        MovieId movieId = MovieId.of(env.getArgument("movieId"));
        RequestScope scope = RequestScope.of(env);
        return scope.writer().removeEntry(Part.WATCHLIST, viewerId, new WatchlistEntry(viewerId, movieId, null),
                scope.context(List.of(Paths.of(env))));
    }
}
