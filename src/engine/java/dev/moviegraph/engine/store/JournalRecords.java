package dev.moviegraph.engine.store;

import dev.moviegraph.engine.table.StoredItem;
import dev.moviegraph.engine.table.TableSpec;

import java.util.Map;

/**
 * The journal's records (see {@link Journal} for what each says): their kinds, a change's flags, a snapshot's
 * sections, and how the records both segments and snapshots hold are written into a buffer, each in the frame
 * {@link LogFile} reads.
 */
final class JournalRecords {
    static final int DECLARE = 1;
    static final int DROP = 2;
    static final int CHANGE = 3;
    static final int ATOMIC = 4;
    static final int SECTION = 5;
    static final int SEQUENCE = 6;

    static final int F_DELETE = 1;
    static final int F_BY_SERVICE = 2;
    static final int F_HAD_BEFORE = 4;
    static final int F_OLD_IMAGE = 8;
    static final int F_STREAMED = 16;

    /** Snapshot sections: stream history (streams only), table state (tables only), and the end mark. */
    static final int HISTORY = 1;
    static final int STATE = 2;
    static final int END = 3;
    /** Segments replay in this mode: tables and streams both. */
    static final int LIVE = 0;

    private JournalRecords() {
    }

    /** Reserves a frame's length and CRC (filled by {@link LogFile#frame}); returns where the frame starts. */
    static int beginFrame(Codec.Out out) {
        int start = out.size;
        out.int4(0);
        out.int4(0);
        return start;
    }

    /** Appends a CHANGE record (framed by the caller) to {@code out}; returns where its flags byte is. */
    static int encodeChange(Codec.Out out, int number, TableSpec spec, StoredItem before, StoredItem after,
                            boolean byService, boolean streams) {
        beginFrame(out);
        out.byte1(CHANGE);
        out.varint(number);
        int flagsAt = out.size;
        int flags = (after == null ? F_DELETE : 0) | (byService ? F_BY_SERVICE : 0) | (before != null ? F_HAD_BEFORE : 0);
        String view = spec.streamViewType();
        boolean oldImage = streams && before != null && view != null
                && (view.equals("OLD_IMAGE") || view.equals("NEW_AND_OLD_IMAGES"));
        if (oldImage) {
            flags |= F_OLD_IMAGE;
        }
        out.byte1(flags);
        if (after != null) {
            Codec.item(out, after.attributes());
        } else if (before != null) {
            Codec.item(out, spec.key().keyAttributes(before.attributes()));
        } else {
            Codec.item(out, Map.of());
        }
        if (oldImage) {
            Codec.item(out, before.attributes());
        }
        return flagsAt;
    }

    /** Marks the change streamed and puts the record's number and time right after the flags. */
    static void insertStreamPart(Codec.Out out, int flagsAt, long sequence, long millis) {
        out.bytes[flagsAt] |= F_STREAMED;
        int tailStart = flagsAt + 1;
        int tailLength = out.size - tailStart;
        int mark = out.size;
        out.varint(sequence);
        out.varint(millis);
        int partLength = out.size - mark;
        byte[] part = new byte[partLength];
        System.arraycopy(out.bytes, mark, part, 0, partLength);
        System.arraycopy(out.bytes, tailStart, out.bytes, tailStart + partLength, tailLength);
        System.arraycopy(part, 0, out.bytes, tailStart, partLength);
    }

    /** Appends a framed DECLARE record: the table's number, the time, its spec. */
    static void declare(Codec.Out out, int number, long millis, TableSpec spec) {
        int start = beginFrame(out);
        out.byte1(DECLARE);
        out.varint(number);
        out.varint(millis);
        Codec.spec(out, spec);
        LogFile.frame(out, start);
    }

    /** Appends a framed DROP record: the table's number and the time. */
    static void drop(Codec.Out out, int number, long millis) {
        int start = beginFrame(out);
        out.byte1(DROP);
        out.varint(number);
        out.varint(millis);
        LogFile.frame(out, start);
    }
}
