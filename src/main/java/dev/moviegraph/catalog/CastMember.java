package dev.moviegraph.catalog;

import java.util.List;

/**
 * One actor in one movie. The cast item carries copies of the actor's name and the movie's title
 * and year so that the usual list shapes (a movie's cast, an actor's filmography) need no second read.
 */
public record CastMember(MovieId movieId, ActorId actorId, String movieTitle, Integer movieYear, String actorName,
                         List<String> characters, Integer billing) {
    public CastMember {
        characters = characters == null ? List.of() : List.copyOf(characters);
    }
}
