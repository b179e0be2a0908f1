package dev.moviegraph.graphql;

import dev.moviegraph.catalog.Actor;
import dev.moviegraph.catalog.ActorId;
import dev.moviegraph.catalog.CastPage;
import dev.moviegraph.catalog.Filmography;
import dev.moviegraph.catalog.PageRequest;

import java.util.Map;
import java.util.concurrent.CompletableFuture;

/** What the GraphQL layer knows about an actor: see {@link MovieNode}. */
record ActorNode(ActorId id, Actor actor, Map<String, Object> known, PageRequest moviesRequest,
                 CompletableFuture<CastPage> movies) {

    static ActorNode reference(ActorId id, Map<String, Object> known) {
        return new ActorNode(id, null, known, null, null);
    }

    static ActorNode of(Actor actor) {
        return new ActorNode(actor.id(), actor, Map.of(), null, null);
    }

    static ActorNode of(Filmography filmography, PageRequest moviesRequest) {
        if (filmography.actor() == null) {
            return null;
        }
        return new ActorNode(filmography.actor().id(), filmography.actor(), Map.of(), moviesRequest,
                CompletableFuture.completedFuture(filmography.movies()));
    }

    /** The same node with a filmography page that is being read beside it. */
    ActorNode withMovies(PageRequest request, CompletableFuture<CastPage> page) {
        return new ActorNode(id, actor, known, request, page);
    }
}
