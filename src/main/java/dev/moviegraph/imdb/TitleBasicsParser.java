package dev.moviegraph.imdb;

import java.util.List;

/**
 * title.basics.tsv.gz. originalTitle and endYear are not kept, so they are not checked either: a row is
 * never lost over a column the catalog does not store.
 */
public final class TitleBasicsParser implements RowParser<TitleRow> {
    public static final String FILE_NAME = "title.basics.tsv.gz";
    public static final List<String> COLUMNS = List.of("tconst", "titleType", "primaryTitle", "originalTitle",
            "isAdult", "startYear", "endYear", "runtimeMinutes", "genres");

    @Override
    public String fileName() {
        return FILE_NAME;
    }

    @Override
    public List<String> columns() {
        return COLUMNS;
    }

    @Override
    public Parsed<TitleRow> parse(TsvRow line) {
        return Columns.parse(line, COLUMNS, v -> new TitleRow(
                Columns.id("tconst", v.get(0), "tt"),
                Columns.required("titleType", v.get(1)),
                Columns.required("primaryTitle", v.get(2)),
                Columns.flag("isAdult", v.get(4)),
                Columns.year("startYear", v.get(5)),
                Columns.positiveOrNull("runtimeMinutes", v.get(7)),
                Columns.list(v.get(8))));
    }
}
