package dev.moviegraph.catalog;

import java.util.List;

/** The answer to a {@link MovieRead}: each part is null when it was not asked for; movie is null when unknown. */
public record MovieCollection(Movie movie, CastPage cast, List<MonthlyStreams> totals) {
}
