package dev.moviegraph.imdb;

import java.util.ArrayList;
import java.util.List;

/**
 * title.akas.tsv.gz: the titles a title is known by in regions and languages. {@code types} and
 * {@code attributes} are arrays, their items separated by IMDb's {@code \u0002} (a comma is taken too);
 * {@code isOriginalTitle} may be {@code \N}, read as not original.
 */
public final class TitleAkasParser implements RowParser<AkaRow> {
    public static final String FILE_NAME = "title.akas.tsv.gz";
    public static final List<String> COLUMNS = List.of("titleId", "ordering", "title", "region", "language", "types",
            "attributes", "isOriginalTitle");

    @Override
    public String fileName() {
        return FILE_NAME;
    }

    @Override
    public List<String> columns() {
        return COLUMNS;
    }

    @Override
    public Parsed<AkaRow> parse(TsvRow line) {
        return Columns.parse(line, COLUMNS, v -> new AkaRow(
                Columns.id("titleId", v.get(0), "tt"),
                Columns.positive("ordering", v.get(1)),
                Columns.required("title", v.get(2)),
                orNull(v.get(3)),
                orNull(v.get(4)),
                array(v.get(5)),
                array(v.get(6)),
                !Columns.NULL.equals(v.get(7)) && Columns.flag("isOriginalTitle", v.get(7))));
    }

    private static String orNull(String value) {
        return value.isEmpty() || Columns.NULL.equals(value) ? null : value;
    }

    private static List<String> array(String value) {
        List<String> items = new ArrayList<>();
        for (String item : Columns.list(value.replace('\u0002', ','))) {
            items.add(item.strip());
        }
        return items;
    }
}
