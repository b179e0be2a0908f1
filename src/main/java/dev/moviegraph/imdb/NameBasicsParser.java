package dev.moviegraph.imdb;

import java.util.List;

/** name.basics.tsv.gz. knownForTitles is not kept, so it is not checked. */
public final class NameBasicsParser implements RowParser<NameRow> {
    public static final String FILE_NAME = "name.basics.tsv.gz";
    public static final List<String> COLUMNS = List.of("nconst", "primaryName", "birthYear", "deathYear",
            "primaryProfession", "knownForTitles");

    @Override
    public String fileName() {
        return FILE_NAME;
    }

    @Override
    public List<String> columns() {
        return COLUMNS;
    }

    @Override
    public Parsed<NameRow> parse(TsvRow line) {
        return Columns.parse(line, COLUMNS, v -> new NameRow(
                Columns.id("nconst", v.get(0), "nm"),
                Columns.required("primaryName", v.get(1)),
                Columns.year("birthYear", v.get(2)),
                Columns.year("deathYear", v.get(3)),
                Columns.list(v.get(4))));
    }
}
