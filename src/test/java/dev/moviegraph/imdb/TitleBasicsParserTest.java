package dev.moviegraph.imdb;

import static dev.moviegraph.imdb.ImdbFixture.N;
import static dev.moviegraph.imdb.ImdbFixture.TITLE_BASICS_HEADER;
import static dev.moviegraph.imdb.ImdbFixture.bytes;
import static dev.moviegraph.imdb.ImdbFixture.line;
import static dev.moviegraph.imdb.SkipAssertions.row;
import static dev.moviegraph.imdb.SkipAssertions.skipped;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class TitleBasicsParserTest {
    private static final TitleBasicsParser PARSER = new TitleBasicsParser();
    private static final String FILE = "title.basics.tsv.gz";

    @TempDir
    Path dir;

    private Parsed<TitleRow> parse(String line) {
        return ImdbFixture.parseOne(dir, PARSER, TITLE_BASICS_HEADER, line);
    }

    /** A valid line with one field replaced. */
    private static String with(int column, String value) {
        String[] fields = {"tt0111161", "movie", "The Shawshank Redemption", "The Shawshank Redemption", "0", "1994",
                N, "142", "Drama"};
        fields[column] = value;
        return line(fields);
    }

    @Test
    void parsesAMovie() {
        assertEquals(new TitleRow("tt0111161", "movie", "The Shawshank Redemption", false, 1994, 142, List.of("Drama")),
                row(parse(with(0, "tt0111161"))));
        assertEquals(FILE, PARSER.fileName());
    }

    @Test
    void readsSeveralLinesInOrder() {
        Path file = ImdbFixture.write(dir, FILE, TITLE_BASICS_HEADER,
                line("tt0000001", "short", "Carmencita", "Carmencita", "0", "1894", N, "1", "Documentary,Short"),
                line("tt6751668", "movie", "기생충", "Gisaengchung", "0", "2019", N, "132", "Drama,Thriller"),
                line("tt0903747", "tvSeries", "Breaking Bad", "Breaking Bad", "0", "2008", "2013", "45",
                        "Crime,Drama,Thriller"));
        List<Parsed<TitleRow>> all = ImdbFixture.readAll(file, PARSER);
        assertEquals(List.of(
                new TitleRow("tt0000001", "short", "Carmencita", false, 1894, 1, List.of("Documentary", "Short")),
                new TitleRow("tt6751668", "movie", "기생충", false, 2019, 132, List.of("Drama", "Thriller")),
                new TitleRow("tt0903747", "tvSeries", "Breaking Bad", false, 2008, 45,
                        List.of("Crime", "Drama", "Thriller"))),
                all.stream().map(SkipAssertions::row).toList());
    }

    @Test
    void keepsNonAsciiAndA400CharacterTitleWhole() {
        String title = ("Zoë & 봉준호: 🎬 «Ünïcødé» ").repeat(12);
        title = title + "x".repeat(400 - title.length());
        assertEquals(400, title.length());
        TitleRow row = row(parse(with(2, title)));
        assertEquals(title, row.primaryTitle());
        // Spaces at the ends are kept too: titles are stored exactly as IMDb has them.
        assertEquals("  Padded  ", row(parse(with(2, "  Padded  "))).primaryTitle());
    }

    @Test
    void readsNullsAsNullAndEmptyLists() {
        String line = line("tt0000009", "movie", "Miss Jerry", "Miss Jerry", "0", N, N, N, N);
        assertEquals(new TitleRow("tt0000009", "movie", "Miss Jerry", false, null, null, List.of()), row(parse(line)));
    }

    @Test
    void readsTheAdultFlag() {
        assertEquals(true, row(parse(with(4, "1"))).adult());
    }

    @Test
    void doesNotCheckColumnsItDoesNotKeep() {
        // originalTitle and endYear are dropped; a bad value there must not lose the title.
        TitleRow row = row(parse(line("tt0111161", "movie", "The Shawshank Redemption", "", "0", "1994", "19x4",
                "142", "Drama")));
        assertEquals("The Shawshank Redemption", row.primaryTitle());
    }

    static Stream<Arguments> badLines() {
        return Stream.of(
                Arguments.of(line("tt0111161", "movie", "x", "x", "0", "1994", N, "142"), SkipReason.WRONG_COLUMN_COUNT, "8 fields, expected 9"),
                Arguments.of(with(8, "Drama\textra"), SkipReason.WRONG_COLUMN_COUNT, "10 fields"),
                Arguments.of("", SkipReason.WRONG_COLUMN_COUNT, "1 fields"),
                Arguments.of(with(0, "tt123456"), SkipReason.BAD_ID, "tconst \"tt123456\""),
                Arguments.of(with(0, "nm0111161"), SkipReason.BAD_ID, "tconst"),
                Arguments.of(with(0, "TT0111161"), SkipReason.BAD_ID, "tconst"),
                Arguments.of(with(0, "tt01111x1"), SkipReason.BAD_ID, "tconst"),
                Arguments.of(with(0, N), SkipReason.BAD_ID, "tconst"),
                Arguments.of(with(1, N), SkipReason.MISSING_REQUIRED, "titleType"),
                Arguments.of(with(2, ""), SkipReason.MISSING_REQUIRED, "primaryTitle \"\""),
                Arguments.of(with(2, N), SkipReason.MISSING_REQUIRED, "primaryTitle"),
                Arguments.of(with(4, "2"), SkipReason.BAD_NUMBER, "isAdult \"2\""),
                Arguments.of(with(4, N), SkipReason.BAD_NUMBER, "isAdult"),
                Arguments.of(with(5, "19x4"), SkipReason.BAD_NUMBER, "startYear \"19x4\""),
                Arguments.of(with(5, "0000"), SkipReason.BAD_NUMBER, "startYear"),
                Arguments.of(with(5, "2101"), SkipReason.BAD_NUMBER, "startYear"),
                Arguments.of(with(5, "994"), SkipReason.BAD_NUMBER, "startYear"),
                Arguments.of(with(5, "01994"), SkipReason.BAD_NUMBER, "startYear"),
                Arguments.of(with(5, ""), SkipReason.BAD_NUMBER, "startYear"),
                Arguments.of(with(7, "0"), SkipReason.BAD_NUMBER, "runtimeMinutes \"0\""),
                Arguments.of(with(7, "-5"), SkipReason.BAD_NUMBER, "runtimeMinutes"),
                Arguments.of(with(7, "+142"), SkipReason.BAD_NUMBER, "runtimeMinutes"),
                Arguments.of(with(7, "١٤٢"), SkipReason.BAD_NUMBER, "runtimeMinutes"), // Arabic-Indic digits
                Arguments.of(with(7, "14.2"), SkipReason.BAD_NUMBER, "runtimeMinutes"));
    }

    @ParameterizedTest
    @MethodSource("badLines")
    void skipsABadLine(String line, SkipReason reason, String detail) {
        skipped(parse(line), FILE, reason, detail);
    }

    @Test
    void skipsInvalidUtf8() {
        byte[] latin1Title = bytes("tt0111161\tmovie\tAm", new byte[] {(byte) 0xE9}, "lie\tx\t0\t2001\t\\N\t122\tComedy");
        skipped(ImdbFixture.parseOneBytes(dir, PARSER, TITLE_BASICS_HEADER, latin1Title), FILE, SkipReason.INVALID_UTF8,
                "invalid UTF-8 at byte 18");
    }

    @Test
    void aLongBadValueIsCutShortInTheDetail() {
        Skip skip = skipped(parse(with(5, "9".repeat(300))), FILE, SkipReason.BAD_NUMBER, "startYear");
        assertEquals("startYear \"" + "9".repeat(40) + "...\"", skip.detail());
    }
}
