package dev.moviegraph.catalog;

import java.time.YearMonth;

/** The number of streams of one movie in one month; carries the movie's title for top-N lists. */
public record MonthlyStreams(MovieId movieId, String movieTitle, YearMonth month, long streams) {
}
