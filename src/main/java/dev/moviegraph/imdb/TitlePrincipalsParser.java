package dev.moviegraph.imdb;

import java.util.List;

/** title.principals.tsv.gz. The job column is not kept (the category says the role). */
public final class TitlePrincipalsParser implements RowParser<PrincipalRow> {
    public static final String FILE_NAME = "title.principals.tsv.gz";
    public static final List<String> COLUMNS = List.of("tconst", "ordering", "nconst", "category", "job",
            "characters");

    @Override
    public String fileName() {
        return FILE_NAME;
    }

    @Override
    public List<String> columns() {
        return COLUMNS;
    }

    @Override
    public Parsed<PrincipalRow> parse(TsvRow line) {
        return Columns.parse(line, COLUMNS, v -> new PrincipalRow(
                Columns.id("tconst", v.get(0), "tt"),
                Columns.positive("ordering", v.get(1)),
                Columns.id("nconst", v.get(2), "nm"),
                Columns.required("category", v.get(3)),
                Columns.characters("characters", v.get(5))));
    }
}
