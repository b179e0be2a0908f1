package dev.moviegraph.engine.store;

import dev.moviegraph.engine.table.StoredItem;
import dev.moviegraph.engine.table.TableSpec;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import static dev.moviegraph.engine.store.JournalRecords.CHANGE;
import static dev.moviegraph.engine.store.JournalRecords.SECTION;
import static dev.moviegraph.engine.store.JournalRecords.SEQUENCE;
import static dev.moviegraph.engine.store.JournalRecords.beginFrame;

/** Writes a snapshot file through a buffer. */
final class SnapshotWriter implements AutoCloseable {
    private final FileChannel channel;
    private final Codec.Out out = new Codec.Out(1 << 20);

    SnapshotWriter(Path file, long generation) throws IOException {
        channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.WRITE);
        byte[] header = LogFile.header(generation);
        out.raw(header, 0, header.length);
    }

    void section(int section) throws IOException {
        int start = beginFrame(out);
        out.byte1(SECTION);
        out.byte1(section);
        LogFile.frame(out, start);
        spill();
    }

    void sequence(long next, long millis) throws IOException {
        int start = beginFrame(out);
        out.byte1(SEQUENCE);
        out.varint(next);
        out.varint(millis);
        LogFile.frame(out, start);
        spill();
    }

    void declare(int number, TableSpec spec) throws IOException {
        JournalRecords.declare(out, number, System.currentTimeMillis(), spec);
        spill();
    }

    void put(int number, StoredItem item) throws IOException {
        int start = beginFrame(out);
        out.byte1(CHANGE);
        out.varint(number);
        out.byte1(0);
        Codec.item(out, item.attributes());
        LogFile.frame(out, start);
        spill();
    }

    /** A payload read from another journal file, framed again. */
    void raw(byte[] bytes, int offset, int length) throws IOException {
        int start = beginFrame(out);
        out.raw(bytes, offset, length);
        LogFile.frame(out, start);
        spill();
    }

    private void spill() throws IOException {
        if (out.size >= (1 << 20) - (64 << 10)) {
            drain();
        }
    }

    private void drain() throws IOException {
        writeFully(channel, ByteBuffer.wrap(out.bytes, 0, out.size));
        out.reset();
    }

    private static void writeFully(FileChannel channel, ByteBuffer buffer) throws IOException {
        while (buffer.hasRemaining()) {
            channel.write(buffer);
        }
    }

    void finish() throws IOException {
        drain();
        channel.force(true);
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
