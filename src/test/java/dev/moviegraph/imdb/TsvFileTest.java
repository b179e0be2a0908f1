package dev.moviegraph.imdb;

import static dev.moviegraph.imdb.ImdbFixture.N;
import static dev.moviegraph.imdb.ImdbFixture.bytes;
import static dev.moviegraph.imdb.ImdbFixture.line;
import static dev.moviegraph.imdb.ImdbFixture.utf8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TsvFileTest {
    private static final List<String> COLUMNS = List.of("tconst", "averageRating", "numVotes");
    private static final String HEADER = "tconst\taverageRating\tnumVotes";

    @TempDir
    Path dir;

    @Test
    void givesEachRowWithItsLineNumberAfterTheHeader() throws IOException {
        Path file = ImdbFixture.write(dir, "title.ratings.tsv.gz", HEADER,
                line("tt0000001", "5.7", "2100"), line("tt0000002", N, ""), line("tt0000003", "6.5", "2000"));
        try (TsvFile tsv = TsvFile.open(file, COLUMNS)) {
            assertEquals(1, tsv.lineNumber(), "the header is line 1");
            assertEquals(new TsvRow.Fields("title.ratings.tsv.gz", 2, List.of("tt0000001", "5.7", "2100")), tsv.next());
            // \N and empty fields are raw text here; the parsers give them meaning.
            assertEquals(new TsvRow.Fields("title.ratings.tsv.gz", 3, List.of("tt0000002", "\\N", "")), tsv.next());
            assertEquals(4, tsv.next().line());
            assertNull(tsv.next());
            assertNull(tsv.next(), "stays at the end");
            assertEquals(4, tsv.lineNumber());
        }
    }

    @Test
    void keepsALastLineWithoutANewline() throws IOException {
        Path file = ImdbFixture.writeRaw(dir, "t.tsv.gz", utf8(HEADER + "\ntt0000001\t5.7\t2100"));
        try (TsvFile tsv = TsvFile.open(file, COLUMNS)) {
            assertEquals(List.of("tt0000001", "5.7", "2100"), ((TsvRow.Fields) tsv.next()).values());
            assertNull(tsv.next());
        }
    }

    @Test
    void anEmptyLineIsOneEmptyField() throws IOException {
        Path file = ImdbFixture.write(dir, "t.tsv.gz", HEADER, "", line("tt0000001", "5.7", "2100"));
        try (TsvFile tsv = TsvFile.open(file, COLUMNS)) {
            assertEquals(new TsvRow.Fields("t.tsv.gz", 2, List.of("")), tsv.next());
            assertEquals(3, tsv.next().line());
        }
    }

    @Test
    void aWrongHeaderIsFatalAndNamesTheFile() {
        Path file = ImdbFixture.write(dir, "title.ratings.tsv.gz", "tconst\tnumVotes\taverageRating",
                line("tt0000001", "2100", "5.7"));
        TsvHeaderException e = assertThrows(TsvHeaderException.class, () -> TsvFile.open(file, COLUMNS));
        assertEquals(file, e.file());
        assertTrue(e.getMessage().contains("title.ratings.tsv.gz"), e.getMessage());
        assertTrue(e.getMessage().contains("expected [tconst, averageRating, numVotes]"), e.getMessage());
        assertTrue(e.getMessage().contains("found [tconst, numVotes, averageRating]"), e.getMessage());
    }

    @Test
    void aHeaderWithAnExtraColumnIsFatal() {
        Path file = ImdbFixture.write(dir, "title.ratings.tsv.gz", HEADER + "\textra");
        assertThrows(TsvHeaderException.class, () -> TsvFile.open(file, COLUMNS));
    }

    @Test
    void anEmptyFileIsFatalAndNamesTheFile() {
        Path file = ImdbFixture.writeRaw(dir, "title.ratings.tsv.gz", new byte[0]);
        TsvHeaderException e = assertThrows(TsvHeaderException.class, () -> TsvFile.open(file, COLUMNS));
        assertTrue(e.getMessage().contains("title.ratings.tsv.gz") && e.getMessage().contains("empty"),
                e.getMessage());
    }

    @Test
    void anUndecodableHeaderIsFatal() {
        Path file = ImdbFixture.writeBytes(dir, "t.tsv.gz", List.of(bytes("tconst\taverage", new byte[] {(byte) 0xFF},
                "Rating\tnumVotes")));
        TsvHeaderException e = assertThrows(TsvHeaderException.class, () -> TsvFile.open(file, COLUMNS));
        assertTrue(e.getMessage().contains("invalid UTF-8"), e.getMessage());
    }

    @Test
    void aFileThatIsNotGzipIsAnErrorNamingIt() throws IOException {
        Path file = dir.resolve("title.ratings.tsv.gz");
        Files.writeString(file, HEADER + "\n");
        IOException e = assertThrows(IOException.class, () -> TsvFile.open(file, COLUMNS));
        assertTrue(e.getMessage().contains("title.ratings.tsv.gz"), e.getMessage());
    }

    @Test
    void aTruncatedGzipIsAnErrorNamingTheFileAndLine() throws IOException {
        Path whole = ImdbFixture.writeGenerated(dir, "whole.tsv.gz", HEADER, 50_000,
                i -> line(String.format("tt%07d", i), Long.toString(i % 97), Long.toHexString(i * 2654435761L)));
        byte[] bytes = Files.readAllBytes(whole);
        Path cut = dir.resolve("title.ratings.tsv.gz");
        Files.write(cut, Arrays.copyOf(bytes, bytes.length / 2));
        try (TsvFile tsv = TsvFile.open(cut, COLUMNS)) {
            IOException e = assertThrows(IOException.class, () -> {
                while (tsv.next() != null) {
                    // read until the cut
                }
            });
            assertTrue(e.getMessage().contains("title.ratings.tsv.gz: unreadable after line "), e.getMessage());
            assertTrue(tsv.lineNumber() > 1, "lines before the cut were read");
        }
    }

    @Test
    void invalidUtf8IsReportedPerLineNotReplaced() throws IOException {
        List<byte[]> lines = List.of(
                utf8(HEADER),
                bytes("tt0000001\t", new byte[] {(byte) 0xC3, 0x28}, "\t1"),                // bad continuation
                bytes("tt0000002\t", new byte[] {(byte) 0xFF}, "\t1"),                      // never valid
                bytes("tt0000003\t", new byte[] {(byte) 0xC0, (byte) 0xAF}, "\t1"),         // overlong '/'
                bytes("tt0000004\t", new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, "\t1"), // surrogate
                bytes("tt0000005\t1\tZo", new byte[] {(byte) 0xC3}, ""),                    // cut at line end
                utf8(line("tt0000006", "Zoë", "봉준호")));
        Path file = ImdbFixture.writeBytes(dir, "t.tsv.gz", lines);
        try (TsvFile tsv = TsvFile.open(file, COLUMNS)) {
            List<String> details = new ArrayList<>();
            for (int line = 2; line <= 6; line++) {
                TsvRow row = tsv.next();
                TsvRow.Unreadable bad = assertInstanceOf(TsvRow.Unreadable.class, row, "line " + line);
                assertEquals(line, bad.line());
                assertEquals(SkipReason.INVALID_UTF8, bad.reason());
                details.add(bad.detail());
            }
            // The offset points at the bad byte, after "tt000000N<tab>" (10 bytes) or "tt0000005<tab>1<tab>Zo".
            assertEquals(List.of("invalid UTF-8 at byte 10 of the line", "invalid UTF-8 at byte 10 of the line",
                    "invalid UTF-8 at byte 10 of the line", "invalid UTF-8 at byte 10 of the line",
                    "invalid UTF-8 at byte 14 of the line"), details);
            // A bad line does not disturb the next one.
            assertEquals(new TsvRow.Fields("t.tsv.gz", 7, List.of("tt0000006", "Zoë", "봉준호")), tsv.next());
        }
    }

    @Test
    void aLineOverTheLimitIsSkippedUnreadAndTheNextIsRead() throws IOException {
        int max = 1000;
        String atLimit = "tt0000001\t" + "x".repeat(max - 12) + "\t1"; // exactly max bytes
        String overLimit = "tt0000002\t" + "y".repeat(200_000) + "\t1"; // spans several read chunks
        Path file = ImdbFixture.write(dir, "t.tsv.gz", HEADER, atLimit, overLimit, line("tt0000003", "7", "1"));
        assertEquals(max, utf8(atLimit).length);
        try (TsvFile tsv = TsvFile.open(file, COLUMNS, max)) {
            assertEquals(atLimit.split("\t")[1], ((TsvRow.Fields) tsv.next()).values().get(1));
            TsvRow.Unreadable tooLong = assertInstanceOf(TsvRow.Unreadable.class, tsv.next());
            assertEquals(SkipReason.LINE_TOO_LONG, tooLong.reason());
            assertEquals(3, tooLong.line());
            assertEquals(new TsvRow.Fields("t.tsv.gz", 4, List.of("tt0000003", "7", "1")), tsv.next());
        }
    }

    @Test
    void countsCompressedBytesReadAgainstTheFileSize() throws IOException {
        Random random = new Random(42);
        // Random text barely compresses, so the file spans many of the reader's 64 KiB chunks.
        Path file = ImdbFixture.writeGenerated(dir, "t.tsv.gz", HEADER, 40_000,
                i -> line(String.format("tt%07d", i), randomWord(random, 20), Integer.toString(random.nextInt())));
        long size = Files.size(file);
        assertTrue(size > 4 * 65536, "fixture too small: " + size);
        try (TsvFile tsv = TsvFile.open(file, COLUMNS)) {
            assertEquals(size, tsv.size());
            long first = tsv.bytesRead();
            assertTrue(first > 0 && first < size / 2, "after the header: " + first + " of " + size);
            List<Long> seen = new ArrayList<>();
            while (tsv.next() != null) {
                if (tsv.lineNumber() % 10_000 == 0) {
                    seen.add(tsv.bytesRead());
                }
            }
            assertEquals(size, tsv.bytesRead(), "the whole file was read");
            for (int i = 1; i < seen.size(); i++) {
                assertTrue(seen.get(i) > seen.get(i - 1), "grows as rows are read: " + seen);
            }
        }
    }

    @Test
    void nextAfterCloseFails() throws IOException {
        Path file = ImdbFixture.write(dir, "t.tsv.gz", HEADER, line("tt0000001", "1", "1"));
        TsvFile tsv = TsvFile.open(file, COLUMNS);
        tsv.close();
        tsv.close(); // twice is harmless
        assertThrows(IOException.class, tsv::next);
    }

    static String randomWord(Random random, int length) {
        StringBuilder out = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            out.append((char) ('a' + random.nextInt(26)));
        }
        return out.toString();
    }
}
