package dev.moviegraph.imdb;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongFunction;
import java.util.zip.GZIPOutputStream;

/**
 * Writes gzipped TSV files in IMDb's exact format: UTF-8, tab-separated, {@code \N} for null, each line
 * ended by {@code '\n'}. The headers are spelled out here, not taken from the parsers, so a parser whose
 * columns drift from IMDb's fails its tests.
 */
final class ImdbFixture {
    static final String N = "\\N";
    static final String TITLE_BASICS_HEADER =
            "tconst\ttitleType\tprimaryTitle\toriginalTitle\tisAdult\tstartYear\tendYear\truntimeMinutes\tgenres";
    static final String TITLE_PRINCIPALS_HEADER = "tconst\tordering\tnconst\tcategory\tjob\tcharacters";
    static final String NAME_BASICS_HEADER =
            "nconst\tprimaryName\tbirthYear\tdeathYear\tprimaryProfession\tknownForTitles";
    static final String TITLE_RATINGS_HEADER = "tconst\taverageRating\tnumVotes";
    static final String TITLE_CREW_HEADER = "tconst\tdirectors\twriters";

    private ImdbFixture() {
    }

    /** One line: the fields joined by tabs. */
    static String line(String... fields) {
        return String.join("\t", fields);
    }

    /** The UTF-8 bytes of a line, to mix with raw ones in {@link #writeBytes}. */
    static byte[] utf8(String line) {
        return line.getBytes(StandardCharsets.UTF_8);
    }

    /** Bytes of {@code before}, then {@code raw} as they are, then bytes of {@code after}. */
    static byte[] bytes(String before, byte[] raw, String after) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(utf8(before));
        out.writeBytes(raw);
        out.writeBytes(utf8(after));
        return out.toByteArray();
    }

    /** Writes {@code dir/name} with the lines (header first), each followed by '\n'. */
    static Path write(Path dir, String name, List<String> lines) {
        List<byte[]> raw = new ArrayList<>(lines.size());
        for (String line : lines) {
            raw.add(utf8(line));
        }
        return writeBytes(dir, name, raw);
    }

    static Path write(Path dir, String name, String... lines) {
        return write(dir, name, List.of(lines));
    }

    /** Writes lines given as raw bytes, so a test can put invalid UTF-8 in a file. */
    static Path writeBytes(Path dir, String name, List<byte[]> lines) {
        Path file = dir.resolve(name);
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(file))) {
            for (byte[] line : lines) {
                out.write(line);
                out.write('\n');
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return file;
    }

    /** Writes the whole content as given (no '\n' added): for files without a final newline. */
    static Path writeRaw(Path dir, String name, byte[] content) {
        Path file = dir.resolve(name);
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(file))) {
            out.write(content);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return file;
    }

    /** Writes a header and {@code rows} generated lines, streamed, never holding them all. */
    /**
     * A generated set of {@code movies} dramas, {@code people} actors and four principals a movie (three
     * actors and a director), without ratings or crew file: the set the kill and resume tests import.
     */
    static void writeGeneratedSet(Path dir, int movies, int people) {
        writeGenerated(dir, "title.basics.tsv.gz", TITLE_BASICS_HEADER, movies,
                i -> line("tt" + (2_000_000 + i), "movie", "Film " + i, "Film", "0", Long.toString(1950 + i % 70), N,
                        "95", "Drama"));
        writeGenerated(dir, "name.basics.tsv.gz", NAME_BASICS_HEADER, people,
                i -> line("nm" + (2_000_000 + i), "Player " + i, "1960", N, "actor", N));
        writeGenerated(dir, "title.principals.tsv.gz", TITLE_PRINCIPALS_HEADER, movies * 4L,
                i -> line("tt" + (2_000_000 + i / 4), Long.toString(i % 4 + 1), "nm" + (2_000_000 + (i * 7) % people),
                        i % 4 == 3 ? "director" : "actor", N, i % 4 == 3 ? N : "[\"Part " + i + "\"]"));
    }

    static Path writeGenerated(Path dir, String name, String header, long rows, LongFunction<String> row) {
        Path file = dir.resolve(name);
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(file), 1 << 16)) {
            out.write(utf8(header));
            out.write('\n');
            for (long i = 0; i < rows; i++) {
                out.write(utf8(row.apply(i)));
                out.write('\n');
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return file;
    }

    /** Every line of the file parsed, in order. */
    static <T> List<Parsed<T>> readAll(Path file, RowParser<T> parser) {
        List<Parsed<T>> all = new ArrayList<>();
        try (ImdbReader<T> reader = ImdbReader.open(file, parser)) {
            for (Parsed<T> parsed = reader.next(); parsed != null; parsed = reader.next()) {
                all.add(parsed);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return all;
    }

    /** Parses a file of one header and one data line. */
    static <T> Parsed<T> parseOne(Path dir, RowParser<T> parser, String header, String line) {
        List<Parsed<T>> all = readAll(write(dir, parser.fileName(), header, line), parser);
        if (all.size() != 1) {
            throw new AssertionError("expected one line, got " + all);
        }
        return all.get(0);
    }

    /** Parses a file of one header and one data line given as bytes. */
    static <T> Parsed<T> parseOneBytes(Path dir, RowParser<T> parser, String header, byte[] line) {
        List<Parsed<T>> all = readAll(writeBytes(dir, parser.fileName(), List.of(utf8(header), line)), parser);
        if (all.size() != 1) {
            throw new AssertionError("expected one line, got " + all);
        }
        return all.get(0);
    }
}
