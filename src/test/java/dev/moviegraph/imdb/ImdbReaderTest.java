package dev.moviegraph.imdb;

import static dev.moviegraph.imdb.ImdbFixture.N;
import static dev.moviegraph.imdb.ImdbFixture.TITLE_BASICS_HEADER;
import static dev.moviegraph.imdb.ImdbFixture.TITLE_RATINGS_HEADER;
import static dev.moviegraph.imdb.ImdbFixture.line;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ImdbReaderTest {
    @TempDir
    Path dir;

    @Test
    void streamsA200000RowFile() throws IOException {
        int rows = 200_000;
        Path file = ImdbFixture.writeGenerated(dir, TitleBasicsParser.FILE_NAME, TITLE_BASICS_HEADER, rows,
                i -> line(String.format("tt%07d", i + 1), "movie", "Title " + i + " – Zoë", N, "0",
                        Long.toString(1900 + i % 120), N, Long.toString(1 + i % 240), "Drama,Comedy"));
        long read = 0;
        TitleRow last = null;
        SkipCounts skips = new SkipCounts();
        try (ImdbReader<TitleRow> reader = ImdbReader.open(file, new TitleBasicsParser())) {
            for (Parsed<TitleRow> parsed = reader.next(); parsed != null; parsed = reader.next()) {
                if (parsed.isRow()) {
                    read++;
                    last = parsed.row();
                } else {
                    skips.add(parsed.skip());
                }
            }
            assertEquals(rows + 1, reader.lineNumber(), "header plus every row");
            assertEquals(Files.size(file), reader.bytesRead());
            assertEquals(Files.size(file), reader.size());
        }
        assertEquals(rows, read, skips.summary());
        assertEquals(0, skips.total());
        assertEquals(new TitleRow("tt0200000", "movie", "Title 199999 – Zoë", false, 1900 + 199_999 % 120,
                1 + 199_999 % 240, List.of("Drama", "Comedy")), last);
    }

    @Test
    void goodLinesAroundBadOnesAreKeptAndSkipsCounted() throws IOException {
        Path file = ImdbFixture.write(dir, TitleRatingsParser.FILE_NAME, TITLE_RATINGS_HEADER,
                line("tt0000001", "5.7", "2100"),
                line("tt0000002", "11", "5"),
                line("nm0000003", "6.5", "5"),
                line("tt0000004"),
                line("tt0000005", "7.0", "30"));
        List<RatingRow> rows = new ArrayList<>();
        SkipCounts skips = new SkipCounts();
        try (ImdbReader<RatingRow> reader = ImdbReader.open(file, new TitleRatingsParser())) {
            assertEquals(TitleRatingsParser.FILE_NAME, reader.name());
            for (Parsed<RatingRow> parsed = reader.next(); parsed != null; parsed = reader.next()) {
                if (parsed.isRow()) {
                    rows.add(parsed.row());
                } else {
                    skips.add(parsed.skip());
                }
            }
            assertNull(reader.next());
        }
        assertEquals(List.of(new RatingRow("tt0000001", 5.7, 2100), new RatingRow("tt0000005", 7.0, 30)), rows);
        assertEquals(3, skips.total());
        assertEquals(List.of(new Skip(TitleRatingsParser.FILE_NAME, 3, SkipReason.BAD_NUMBER, "averageRating \"11\"")),
                skips.examples(SkipReason.BAD_NUMBER));
        assertEquals(4, skips.examples(SkipReason.BAD_ID).get(0).line());
        assertEquals(5, skips.examples(SkipReason.WRONG_COLUMN_COUNT).get(0).line());
    }

    @Test
    void anotherFilesHeaderIsFatalAndNamesTheFile() {
        // title.ratings renamed as title.basics: caught at open, before any row is misread.
        Path file = ImdbFixture.write(dir, TitleBasicsParser.FILE_NAME, TITLE_RATINGS_HEADER, line("tt0000001", "5.7", "1"));
        TsvHeaderException e = assertThrows(TsvHeaderException.class,
                () -> ImdbReader.open(file, new TitleBasicsParser()));
        assertTrue(e.getMessage().contains(TitleBasicsParser.FILE_NAME), e.getMessage());
        assertTrue(e.getMessage().contains("found [tconst, averageRating, numVotes]"), e.getMessage());
    }
}
