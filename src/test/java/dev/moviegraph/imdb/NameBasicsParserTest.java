package dev.moviegraph.imdb;

import static dev.moviegraph.imdb.ImdbFixture.N;
import static dev.moviegraph.imdb.ImdbFixture.NAME_BASICS_HEADER;
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

class NameBasicsParserTest {
    private static final NameBasicsParser PARSER = new NameBasicsParser();
    private static final String FILE = "name.basics.tsv.gz";

    @TempDir
    Path dir;

    private Parsed<NameRow> parse(String line) {
        return ImdbFixture.parseOne(dir, PARSER, NAME_BASICS_HEADER, line);
    }

    private static String with(int column, String value) {
        String[] fields = {"nm0000151", "Morgan Freeman", "1937", N, "actor,producer,director",
                "tt0111161,tt0114369"};
        fields[column] = value;
        return line(fields);
    }

    @Test
    void parsesNonAsciiNames() {
        Path file = ImdbFixture.write(dir, FILE, NAME_BASICS_HEADER,
                line("nm2368789", "Zoë Kravitz", "1988", N, "actress,producer,soundtrack", "tt1877830,tt2798920"),
                line("nm0094435", "봉준호", "1969", N, "director,writer,producer", "tt6751668,tt1706620"),
                line("nm0000122", "Charles Chaplin", "1889", "1977", "actor,director,writer", "tt0027977"));
        assertEquals(List.of(
                new NameRow("nm2368789", "Zoë Kravitz", 1988, null, List.of("actress", "producer", "soundtrack")),
                new NameRow("nm0094435", "봉준호", 1969, null, List.of("director", "writer", "producer")),
                new NameRow("nm0000122", "Charles Chaplin", 1889, 1977, List.of("actor", "director", "writer"))),
                ImdbFixture.readAll(file, PARSER).stream().map(SkipAssertions::row).toList());
    }

    @Test
    void keepsALongNameWhole() {
        String name = "Ñ".repeat(150) + " " + "é".repeat(249);
        assertEquals(400, name.length());
        assertEquals(name, row(parse(with(1, name))).name());
    }

    @Test
    void readsNullsAsNullAndEmptyLists() {
        assertEquals(new NameRow("nm0000001", "Fred Astaire", null, null, List.of()),
                row(parse(line("nm0000001", "Fred Astaire", N, N, N, N))));
        // IMDb writes some empty professions as an empty field rather than \N.
        assertEquals(List.of(), row(parse(with(4, ""))).professions());
    }

    @Test
    void doesNotCheckKnownForTitles() {
        assertEquals("Morgan Freeman", row(parse(with(5, "not,ids"))).name());
    }

    static Stream<Arguments> badLines() {
        return Stream.of(
                Arguments.of(line("nm0000151", "Morgan Freeman", "1937", N, "actor"), SkipReason.WRONG_COLUMN_COUNT, "5 fields, expected 6"),
                Arguments.of(with(0, "tt0000151"), SkipReason.BAD_ID, "nconst \"tt0000151\""),
                Arguments.of(with(0, "nm015"), SkipReason.BAD_ID, "nconst"),
                Arguments.of(with(1, ""), SkipReason.MISSING_REQUIRED, "primaryName"),
                Arguments.of(with(1, N), SkipReason.MISSING_REQUIRED, "primaryName"),
                Arguments.of(with(2, "0000"), SkipReason.BAD_NUMBER, "birthYear \"0000\""),
                Arguments.of(with(2, "937"), SkipReason.BAD_NUMBER, "birthYear"),
                Arguments.of(with(3, "20x0"), SkipReason.BAD_NUMBER, "deathYear \"20x0\""),
                Arguments.of(with(3, "2101"), SkipReason.BAD_NUMBER, "deathYear"));
    }

    @ParameterizedTest
    @MethodSource("badLines")
    void skipsABadLine(String line, SkipReason reason, String detail) {
        skipped(parse(line), FILE, reason, detail);
    }

    @Test
    void skipsANameInLatin1() {
        byte[] line = bytes("nm2368789\tZo", new byte[] {(byte) 0xEB}, " Kravitz\t1988\t\\N\tactress\t\\N");
        skipped(ImdbFixture.parseOneBytes(dir, PARSER, NAME_BASICS_HEADER, line), FILE, SkipReason.INVALID_UTF8,
                "invalid UTF-8 at byte 12");
    }
}
