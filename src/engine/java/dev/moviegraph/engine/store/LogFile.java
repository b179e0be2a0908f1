package dev.moviegraph.engine.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;

/**
 * One file of the journal (a segment or a snapshot): a 16-byte header (magic, format, generation) and then records,
 * each {@code [payload length: int][CRC32C of the payload: int][payload]}, big-endian. The payload's first
 * byte is the record's kind. A record cut short by a kill, or one whose CRC does not match, ends the file:
 * {@link #read} reports where the last whole record ended, and the writer truncates there before it appends.
 */
final class LogFile {
    static final byte[] MAGIC = {'M', 'G', 'J', 'R', 'N', 'L', 0, 1};
    static final int HEADER = 16;
    static final int FRAME = 8;
    /** No record is near this (items are at most 400 KB, a transaction 100 of them); anything larger is garbage. */
    static final int MAX_PAYLOAD = 256 << 20;

    private LogFile() {
    }

    static final String SEGMENT = "journal-";
    static final String SNAPSHOT = "snapshot-";

    /** A segment's file name: the changes of one stretch of time. */
    static String segmentName(long generation) {
        return String.format(SEGMENT + "%012d.log", generation);
    }

    /** A snapshot's file name: everything of the segments up to and including its generation. */
    static String snapshotName(long generation) {
        return String.format(SNAPSHOT + "%012d.log", generation);
    }

    /** The generation in a file name of that kind ({@link #SEGMENT} or {@link #SNAPSHOT}), or -1 when it is not one. */
    static long generationOf(String fileName, String kind) {
        if (!fileName.startsWith(kind) || !fileName.endsWith(".log")) {
            return -1;
        }
        String digits = fileName.substring(kind.length(), fileName.length() - ".log".length());
        if (digits.isEmpty() || digits.length() > 18 || !digits.chars().allMatch(Character::isDigit)) {
            return -1;
        }
        return Long.parseLong(digits);
    }

    static byte[] header(long generation) {
        ByteBuffer header = ByteBuffer.allocate(HEADER);
        header.put(MAGIC);
        header.putLong(generation);
        return header.array();
    }

    /** Fills in the frame (length and CRC) of a payload written after {@link #FRAME} reserved bytes at {@code start}. */
    static void frame(Codec.Out out, int start) {
        int length = out.size - start - FRAME;
        CRC32C crc = new CRC32C();
        crc.update(out.bytes, start + FRAME, length);
        out.int4At(start, length);
        out.int4At(start + 4, (int) crc.getValue());
    }

    /**
     * Receives each whole record's payload: {@code bytes[offset, offset + length)}, valid only during the call;
     * returns false to stop reading.
     */
    interface Visitor {
        boolean record(byte[] bytes, int offset, int length) throws IOException;
    }

    /** What a read found: where the last whole record ends, and whether anything (a torn or bad tail) follows it. */
    record Extent(long validEnd, long fileSize, long records, String problem) {
        boolean torn() {
            return validEnd < fileSize;
        }
    }

    /** Reads every whole record of the file, in order; stops at the first torn or corrupt one. */
    static Extent read(Path file, long expectedGeneration, Visitor visitor) throws IOException {
        return read(file, expectedGeneration, visitor, HEADER);
    }

    /**
     * The same from {@code from} on, the end of a whole record (a checkpoint's place): the records before it are
     * not read. A file shorter than that is reported as torn there, with nothing read.
     */
    static Extent read(Path file, long expectedGeneration, Visitor visitor, long from) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = channel.size();
            ByteBuffer header = ByteBuffer.allocate(HEADER);
            while (header.hasRemaining() && channel.read(header) >= 0) {
                // fill
            }
            if (header.hasRemaining()) {
                return new Extent(0, size, 0, "no whole header");
            }
            header.flip();
            for (byte b : MAGIC) {
                if (header.get() != b) {
                    return new Extent(0, size, 0, "not a journal file (bad magic)");
                }
            }
            long generation = header.getLong();
            if (generation != expectedGeneration) {
                return new Extent(0, size, 0, "header names generation " + generation);
            }
            if (from > size) {
                return new Extent(from, size, 0, "shorter than the checkpoint's place " + from);
            }
            channel.position(Math.max(HEADER, from));
            byte[] window = new byte[1 << 20];
            int start = 0;
            int end = 0;
            long consumed = Math.max(HEADER, from); // file offset of window[start]
            long records = 0;
            CRC32C crc = new CRC32C();
            boolean eof = false;
            while (true) {
                if (end - start < FRAME || end - start < FRAME + payloadLength(window, start, end)) {
                    if (eof) {
                        String problem = end == start ? null : "torn record at offset " + consumed;
                        return new Extent(consumed, size, records, problem);
                    }
                    // move what is left to the front, grow when one record needs more room, read more
                    int left = end - start;
                    int need = left >= FRAME ? FRAME + payloadLength(window, start, end) : FRAME;
                    if (need > window.length) {
                        byte[] grown = new byte[Math.max(need, window.length * 2)];
                        System.arraycopy(window, start, grown, 0, left);
                        window = grown;
                    } else {
                        System.arraycopy(window, start, window, 0, left);
                    }
                    start = 0;
                    end = left;
                    ByteBuffer into = ByteBuffer.wrap(window, end, window.length - end);
                    int n = channel.read(into);
                    if (n < 0) {
                        eof = true;
                    } else {
                        end += n;
                    }
                    continue;
                }
                int length = payloadLength(window, start, end);
                if (length <= 0 || length > MAX_PAYLOAD) {
                    return new Extent(consumed, size, records, "bad record length " + length + " at offset " + consumed);
                }
                int expected = readInt(window, start + 4);
                crc.reset();
                crc.update(window, start + FRAME, length);
                if ((int) crc.getValue() != expected) {
                    return new Extent(consumed, size, records, "CRC mismatch at offset " + consumed);
                }
                boolean more = visitor.record(window, start + FRAME, length);
                records++;
                start += FRAME + length;
                consumed += FRAME + length;
                if (!more) {
                    return new Extent(consumed, size, records, null);
                }
            }
        }
    }

    /** The frame's length field, or 0 when it is not there yet; absurd values are clamped so a read can stop on them. */
    private static int payloadLength(byte[] window, int start, int end) {
        if (end - start < 4) {
            return 0;
        }
        int length = readInt(window, start);
        return length <= 0 || length > MAX_PAYLOAD ? 0 : length;
    }

    private static int readInt(byte[] bytes, int at) {
        return (bytes[at] & 0xFF) << 24 | (bytes[at + 1] & 0xFF) << 16 | (bytes[at + 2] & 0xFF) << 8 | bytes[at + 3] & 0xFF;
    }
}
