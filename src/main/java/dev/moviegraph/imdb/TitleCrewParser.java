package dev.moviegraph.imdb;

import java.util.List;

/** title.crew.tsv.gz. */
public final class TitleCrewParser implements RowParser<CrewRow> {
    public static final String FILE_NAME = "title.crew.tsv.gz";
    public static final List<String> COLUMNS = List.of("tconst", "directors", "writers");

    @Override
    public String fileName() {
        return FILE_NAME;
    }

    @Override
    public List<String> columns() {
        return COLUMNS;
    }

    @Override
    public Parsed<CrewRow> parse(TsvRow line) {
        return Columns.parse(line, COLUMNS, v -> new CrewRow(
                Columns.id("tconst", v.get(0), "tt"),
                Columns.ids("directors", v.get(1), "nm"),
                Columns.ids("writers", v.get(2), "nm")));
    }
}
