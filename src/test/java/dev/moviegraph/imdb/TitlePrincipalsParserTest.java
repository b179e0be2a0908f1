package dev.moviegraph.imdb;

import static dev.moviegraph.imdb.ImdbFixture.N;
import static dev.moviegraph.imdb.ImdbFixture.TITLE_PRINCIPALS_HEADER;
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
import org.junit.jupiter.params.provider.ValueSource;

class TitlePrincipalsParserTest {
    private static final TitlePrincipalsParser PARSER = new TitlePrincipalsParser();
    private static final String FILE = "title.principals.tsv.gz";

    @TempDir
    Path dir;

    private Parsed<PrincipalRow> parse(String line) {
        return ImdbFixture.parseOne(dir, PARSER, TITLE_PRINCIPALS_HEADER, line);
    }

    private static String with(int column, String value) {
        String[] fields = {"tt0111161", "1", "nm0000209", "actor", N, "[\"Andy Dufresne\"]"};
        fields[column] = value;
        return line(fields);
    }

    @Test
    void parsesAnActorAndTheirCharacter() {
        assertEquals(new PrincipalRow("tt0111161", 1, "nm0000209", "actor", List.of("Andy Dufresne")),
                row(parse(with(0, "tt0111161"))));
        assertEquals(FILE, PARSER.fileName());
    }

    @Test
    void readsCharactersWithQuotesEscapesAndNonAscii() {
        // The column is JSON: \" is a quote, \\ a backslash, \u00e9 an é; non-ASCII may also be written as is.
        String json = "[\"\\\"Red\\\" Redding\",\"Back\\\\slash\",\"Am\\u00e9lie\",\"봉준호\",\"Zoë 🎬\",\"\"]";
        PrincipalRow row = row(parse(with(5, json)));
        assertEquals(List.of("\"Red\" Redding", "Back\\slash", "Amélie", "봉준호", "Zoë 🎬", ""), row.characters());
    }

    @Test
    void readsNullCharactersAsEmptyAndIgnoresTheJob() {
        PrincipalRow row = row(parse(line("tt0111161", "10", "nm0001104", "director", "director of", N)));
        assertEquals(new PrincipalRow("tt0111161", 10, "nm0001104", "director", List.of()), row);
        assertEquals(List.of(), row(parse(with(5, "[]"))).characters());
    }

    @ParameterizedTest
    @ValueSource(strings = {"[Andy]", "\"Andy Dufresne\"", "{\"name\":\"Andy\"}", "[1]", "[null]", "[[\"Andy\"]]",
            "[\"Andy\"] x", "[\"Andy\"", "null", "", "['Andy']"})
    void skipsCharactersThatAreNotAJsonArrayOfStrings(String json) {
        skipped(parse(with(5, json)), FILE, SkipReason.BAD_CHARACTERS_JSON, "characters");
    }

    static Stream<Arguments> badLines() {
        return Stream.of(
                Arguments.of(line("tt0111161", "1", "nm0000209", "actor", N), SkipReason.WRONG_COLUMN_COUNT, "5 fields, expected 6"),
                Arguments.of(with(0, "tt11"), SkipReason.BAD_ID, "tconst \"tt11\""),
                Arguments.of(with(2, "nm12"), SkipReason.BAD_ID, "nconst \"nm12\""),
                Arguments.of(with(2, "tt0000209"), SkipReason.BAD_ID, "nconst"),
                Arguments.of(with(1, "0"), SkipReason.BAD_NUMBER, "ordering \"0\""),
                Arguments.of(with(1, "-1"), SkipReason.BAD_NUMBER, "ordering"),
                Arguments.of(with(1, N), SkipReason.BAD_NUMBER, "ordering"),
                Arguments.of(with(1, "9999999999"), SkipReason.BAD_NUMBER, "ordering"),
                Arguments.of(with(3, N), SkipReason.MISSING_REQUIRED, "category"),
                Arguments.of(with(3, ""), SkipReason.MISSING_REQUIRED, "category"));
    }

    @ParameterizedTest
    @MethodSource("badLines")
    void skipsABadLine(String line, SkipReason reason, String detail) {
        skipped(parse(line), FILE, reason, detail);
    }

    @Test
    void skipsInvalidUtf8() {
        byte[] line = bytes("tt0111161\t1\tnm0000209\tactor\t\\N\t[\"Andy ", new byte[] {(byte) 0xF0, (byte) 0x9F}, "\"]");
        skipped(ImdbFixture.parseOneBytes(dir, PARSER, TITLE_PRINCIPALS_HEADER, line), FILE, SkipReason.INVALID_UTF8,
                "invalid UTF-8");
    }
}
