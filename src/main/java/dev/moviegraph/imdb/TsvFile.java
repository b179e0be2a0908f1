package dev.moviegraph.imdb;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.zip.GZIPInputStream;

/**
 * One gzipped IMDb TSV file, read a line at a time: the header is checked against the expected columns
 * when the file is opened, then {@link #next()} gives each following line as a {@link TsvRow}.
 *
 * <p>Memory stays bounded whatever the file's size: lines are split on {@code '\n'} at the byte level
 * (UTF-8 never uses that byte inside a character) into one reused buffer, and a line longer than the
 * limit is dropped unread as {@link SkipReason#LINE_TOO_LONG}. Each line is decoded with a decoder that
 * reports malformed input, so a line that is not UTF-8 becomes {@link SkipReason#INVALID_UTF8} instead of
 * text with replacement characters stored in the catalog. IMDb's files have no quoting: a tab always
 * separates fields, so splitting on tabs is the whole of the format.
 *
 * <p>Not thread-safe, except {@link #bytesRead()} and {@link #size()}, which a progress reporter may
 * call from another thread.
 */
public final class TsvFile implements Closeable {
    /** Far above any real IMDb line (a few hundred bytes), far below what would strain the heap. */
    static final int DEFAULT_MAX_LINE_BYTES = 1 << 20;
    private static final int CHUNK_BYTES = 1 << 16;

    private final Path path;
    private final String name;
    private final List<String> columns;
    private final long size;
    private final CountingInputStream counted;
    private final InputStream in;
    private final int maxLineBytes;
    private final CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);

    private final byte[] chunk = new byte[CHUNK_BYTES];
    private int chunkPos;
    private int chunkLimit;
    private byte[] lineBytes = new byte[8192];
    private int lineLength;
    private boolean lineTooLong;
    private CharBuffer chars = CharBuffer.allocate(8192);
    private long lineNumber;
    private boolean closed;

    private TsvFile(Path path, List<String> columns, int maxLineBytes) throws IOException {
        this.path = path;
        Path fileName = path.getFileName();
        this.name = fileName == null ? path.toString() : fileName.toString();
        this.columns = List.copyOf(columns);
        this.maxLineBytes = maxLineBytes;
        this.size = Files.size(path);
        this.counted = new CountingInputStream(Files.newInputStream(path));
        try {
            this.in = new GZIPInputStream(counted, CHUNK_BYTES);
        } catch (IOException e) {
            counted.close();
            throw new IOException(path + ": not a readable gzip file: " + e.getMessage(), e);
        }
    }

    /**
     * Opens {@code file} and reads its header, which must be exactly {@code expectedColumns} in order.
     *
     * @throws TsvHeaderException if the file is empty or its first line is not that header
     * @throws IOException if the file cannot be read or is not gzip
     */
    public static TsvFile open(Path file, List<String> expectedColumns) throws IOException {
        return open(file, expectedColumns, DEFAULT_MAX_LINE_BYTES);
    }

    static TsvFile open(Path file, List<String> expectedColumns, int maxLineBytes) throws IOException {
        Objects.requireNonNull(file, "file");
        if (expectedColumns.isEmpty()) {
            throw new IllegalArgumentException("no expected columns");
        }
        TsvFile tsv = new TsvFile(file, expectedColumns, maxLineBytes);
        try {
            tsv.readHeader();
            return tsv;
        } catch (IOException | RuntimeException e) {
            tsv.close();
            throw e;
        }
    }

    private void readHeader() throws IOException {
        TsvRow header = next();
        if (header == null) {
            throw new TsvHeaderException(path, "empty file; expected the header " + String.join("\t", columns));
        }
        if (header instanceof TsvRow.Unreadable bad) {
            throw new TsvHeaderException(path, "unreadable header (" + bad.detail() + ")");
        }
        List<String> found = ((TsvRow.Fields) header).values();
        if (!found.equals(columns)) {
            throw new TsvHeaderException(path, "header does not match: expected " + columns + ", found " + found
                    + " (is this the right file?)");
        }
    }

    /** The next line after the header, or null at the end of the file. */
    public TsvRow next() throws IOException {
        if (closed) {
            throw new IOException(path + ": closed");
        }
        boolean any;
        try {
            any = readLine();
        } catch (IOException e) {
            // A truncated or corrupt .gz: fatal, but say where, so a re-download can be judged.
            throw new IOException(path + ": unreadable after line " + lineNumber + ": " + e.getMessage(), e);
        }
        if (!any) {
            return null;
        }
        lineNumber++;
        if (lineTooLong) {
            return new TsvRow.Unreadable(name, lineNumber, SkipReason.LINE_TOO_LONG,
                    "longer than " + maxLineBytes + " bytes");
        }
        return decode();
    }

    /** Number of the last line {@link #next()} gave (the header is line 1); 0 before the header. */
    public long lineNumber() {
        return lineNumber;
    }

    /** Compressed bytes taken from the file so far (read ahead in chunks, so a little ahead of the rows). */
    public long bytesRead() {
        return counted.count();
    }

    /** The compressed file's size in bytes when it was opened. */
    public long size() {
        return size;
    }

    /** The file's name, as skips name it. */
    public String name() {
        return name;
    }

    public Path path() {
        return path;
    }

    public List<String> columns() {
        return columns;
    }

    @Override
    public void close() throws IOException {
        if (!closed) {
            closed = true;
            in.close();
        }
    }

    /** Reads up to the next '\n' (dropped) into lineBytes; false if the file had no bytes left. */
    private boolean readLine() throws IOException {
        lineLength = 0;
        lineTooLong = false;
        boolean any = false;
        while (true) {
            if (chunkPos == chunkLimit) {
                int n = in.read(chunk, 0, chunk.length);
                if (n <= 0) {
                    chunkPos = 0;
                    chunkLimit = 0;
                    return any; // a last line without '\n' still counts
                }
                chunkPos = 0;
                chunkLimit = n;
            }
            any = true;
            int start = chunkPos;
            while (chunkPos < chunkLimit && chunk[chunkPos] != '\n') {
                chunkPos++;
            }
            append(start, chunkPos - start);
            if (chunkPos < chunkLimit) {
                chunkPos++; // past the '\n'
                return true;
            }
        }
    }

    private void append(int start, int length) {
        if (lineTooLong || length == 0) {
            return;
        }
        if ((long) lineLength + length > maxLineBytes) {
            lineTooLong = true; // keep reading to the line's end, but keep none of it
            return;
        }
        if (lineLength + length > lineBytes.length) {
            int grown = Math.max(lineLength + length, Math.min(maxLineBytes, lineBytes.length * 2));
            lineBytes = Arrays.copyOf(lineBytes, grown);
        }
        System.arraycopy(chunk, start, lineBytes, lineLength, length);
        lineLength += length;
    }

    private TsvRow decode() {
        // UTF-8 never gives more chars than bytes, so this buffer cannot overflow.
        if (chars.capacity() < lineLength) {
            chars = CharBuffer.allocate(Math.max(lineLength, chars.capacity() * 2));
        }
        chars.clear();
        ByteBuffer bytes = ByteBuffer.wrap(lineBytes, 0, lineLength);
        decoder.reset();
        CoderResult result = decoder.decode(bytes, chars, true);
        if (!result.isError()) {
            result = decoder.flush(chars);
        }
        if (result.isError()) {
            return new TsvRow.Unreadable(name, lineNumber, SkipReason.INVALID_UTF8,
                    "invalid UTF-8 at byte " + bytes.position() + " of the line");
        }
        if (result.isOverflow()) {
            throw new IllegalStateException("decode buffer overflow");
        }
        return new TsvRow.Fields(name, lineNumber, split(chars.array(), chars.position()));
    }

    private static List<String> split(char[] text, int length) {
        List<String> values = new ArrayList<>(16);
        int start = 0;
        for (int i = 0; i < length; i++) {
            if (text[i] == '\t') {
                values.add(new String(text, start, i - start));
                start = i + 1;
            }
        }
        values.add(new String(text, start, length - start));
        return values;
    }
}
