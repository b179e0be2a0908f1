package dev.moviegraph.imdb;

import static dev.moviegraph.imdb.ImdbFixture.TITLE_RATINGS_HEADER;
import static dev.moviegraph.imdb.ImdbFixture.bytes;
import static dev.moviegraph.imdb.ImdbFixture.line;
import static dev.moviegraph.imdb.SkipAssertions.row;
import static dev.moviegraph.imdb.SkipAssertions.skipped;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TitleRatingsParserTest {
    private static final TitleRatingsParser PARSER = new TitleRatingsParser();
    private static final String FILE = "title.ratings.tsv.gz";

    @TempDir
    Path dir;

    private Parsed<RatingRow> parse(String line) {
        return ImdbFixture.parseOne(dir, PARSER, TITLE_RATINGS_HEADER, line);
    }

    @Test
    void parsesRatings() {
        Path file = ImdbFixture.write(dir, FILE, TITLE_RATINGS_HEADER, line("tt0111161", "9.3", "3012345"),
                line("tt0000001", "10", "5"), line("tt0000002", "0.0", "0"), line("tt0000003", "7.25", "12"));
        assertEquals(List.of(new RatingRow("tt0111161", 9.3, 3_012_345), new RatingRow("tt0000001", 10.0, 5),
                new RatingRow("tt0000002", 0.0, 0), new RatingRow("tt0000003", 7.25, 12)),
                ImdbFixture.readAll(file, PARSER).stream().map(SkipAssertions::row).toList());
        assertEquals(FILE, PARSER.fileName());
    }

    @ParameterizedTest
    @ValueSource(strings = {"10.1", "11", "-1", "NaN", "Infinity", "1e1", "5d", ".5", "5.", "", "\\N", "9,3", " 9.3"})
    void skipsARatingThatIsNotANumberFrom0To10(String rating) {
        skipped(parse(line("tt0111161", rating, "10")), FILE, SkipReason.BAD_NUMBER, "averageRating");
    }

    @ParameterizedTest
    @ValueSource(strings = {"-1", "1.5", "9999999999", "1,000", "", "\\N", "1e3"})
    void skipsVotesThatAreNotANonNegativeWholeNumber(String votes) {
        skipped(parse(line("tt0111161", "9.3", votes)), FILE, SkipReason.BAD_NUMBER, "numVotes");
    }

    @Test
    void skipsBadIdsWrongColumnCountsAndInvalidUtf8() {
        skipped(parse(line("tt011116", "9.3", "10")), FILE, SkipReason.BAD_ID, "tconst \"tt011116\"");
        skipped(parse(line("tt0111161", "9.3")), FILE, SkipReason.WRONG_COLUMN_COUNT, "2 fields, expected 3");
        skipped(ImdbFixture.parseOneBytes(dir, PARSER, TITLE_RATINGS_HEADER,
                bytes("tt0111161\t9.", new byte[] {(byte) 0x80}, "\t10")), FILE, SkipReason.INVALID_UTF8, "byte 12");
    }
}
