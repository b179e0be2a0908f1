package dev.moviegraph.imdb;

import java.util.List;

/** title.ratings.tsv.gz. */
public final class TitleRatingsParser implements RowParser<RatingRow> {
    public static final String FILE_NAME = "title.ratings.tsv.gz";
    public static final List<String> COLUMNS = List.of("tconst", "averageRating", "numVotes");

    @Override
    public String fileName() {
        return FILE_NAME;
    }

    @Override
    public List<String> columns() {
        return COLUMNS;
    }

    @Override
    public Parsed<RatingRow> parse(TsvRow line) {
        return Columns.parse(line, COLUMNS, v -> new RatingRow(
                Columns.id("tconst", v.get(0), "tt"),
                Columns.rating("averageRating", v.get(1)),
                Columns.nonNegative("numVotes", v.get(2))));
    }
}
