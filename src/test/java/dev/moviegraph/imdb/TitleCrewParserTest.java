package dev.moviegraph.imdb;

import static dev.moviegraph.imdb.ImdbFixture.N;
import static dev.moviegraph.imdb.ImdbFixture.TITLE_CREW_HEADER;
import static dev.moviegraph.imdb.ImdbFixture.bytes;
import static dev.moviegraph.imdb.ImdbFixture.line;
import static dev.moviegraph.imdb.SkipAssertions.row;
import static dev.moviegraph.imdb.SkipAssertions.skipped;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TitleCrewParserTest {
    private static final TitleCrewParser PARSER = new TitleCrewParser();
    private static final String FILE = "title.crew.tsv.gz";

    @TempDir
    Path dir;

    private Parsed<CrewRow> parse(String line) {
        return ImdbFixture.parseOne(dir, PARSER, TITLE_CREW_HEADER, line);
    }

    @Test
    void parsesDirectorsAndWriters() {
        Path file = ImdbFixture.write(dir, FILE, TITLE_CREW_HEADER,
                line("tt0111161", "nm0001104", "nm0000175,nm0001104"),
                line("tt0000001", N, N),
                line("tt0000002", "nm0721526,nm12345678", N));
        assertEquals(List.of(
                new CrewRow("tt0111161", List.of("nm0001104"), List.of("nm0000175", "nm0001104")),
                new CrewRow("tt0000001", List.of(), List.of()),
                new CrewRow("tt0000002", List.of("nm0721526", "nm12345678"), List.of())),
                ImdbFixture.readAll(file, PARSER).stream().map(SkipAssertions::row).toList());
        assertEquals(FILE, PARSER.fileName());
    }

    @Test
    void skipsALineWithOneBadPersonId() {
        skipped(parse(line("tt0111161", "nm0001104", "nm0000175,nm12")), FILE, SkipReason.BAD_ID, "writers \"nm12\"");
        skipped(parse(line("tt0111161", "tt0001104", N)), FILE, SkipReason.BAD_ID, "directors \"tt0001104\"");
        skipped(parse(line("t0111161", N, N)), FILE, SkipReason.BAD_ID, "tconst");
    }

    @Test
    void skipsWrongColumnCountsAndInvalidUtf8() {
        skipped(parse(line("tt0111161", "nm0001104")), FILE, SkipReason.WRONG_COLUMN_COUNT, "2 fields, expected 3");
        skipped(parse(line("tt0111161", N, N, N)), FILE, SkipReason.WRONG_COLUMN_COUNT, "4 fields, expected 3");
        skipped(ImdbFixture.parseOneBytes(dir, PARSER, TITLE_CREW_HEADER,
                bytes("tt0111161\tnm", new byte[] {(byte) 0xC3}, "\t\\N")), FILE, SkipReason.INVALID_UTF8, "byte 12");
    }
}
