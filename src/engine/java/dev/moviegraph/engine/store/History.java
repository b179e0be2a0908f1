package dev.moviegraph.engine.store;

import dev.moviegraph.engine.table.TableSpec;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

import static dev.moviegraph.engine.store.JournalRecords.ATOMIC;
import static dev.moviegraph.engine.store.JournalRecords.CHANGE;
import static dev.moviegraph.engine.store.JournalRecords.DECLARE;
import static dev.moviegraph.engine.store.JournalRecords.DROP;
import static dev.moviegraph.engine.store.JournalRecords.F_STREAMED;
import static dev.moviegraph.engine.store.JournalRecords.HISTORY;
import static dev.moviegraph.engine.store.JournalRecords.SECTION;

/**
 * Copies what the streams need of the old files into the snapshot's HISTORY section: stream records still
 * within the retention, the declarations that turned streams on or off, and deletions, minus everything of
 * tables deleted longer ago than the retention.
 */
final class History implements LogFile.Visitor {
    private final SnapshotWriter out;
    private final long horizon;
    private final TableNumbers numbers;
    private final Map<Integer, TableSpec> specs = new HashMap<>();
    private boolean fromSnapshot;

    History(SnapshotWriter out, long horizon, TableNumbers numbers) {
        this.out = out;
        this.horizon = horizon;
        this.numbers = numbers;
    }

    /** Reads the history of the previous snapshot (its HISTORY section). */
    void readSnapshot(Path file, long generation) throws IOException {
        fromSnapshot = true;
        LogFile.read(file, generation, this);
        fromSnapshot = false;
    }

    @Override
    public boolean record(byte[] bytes, int offset, int length) throws IOException {
        Codec.In in = new Codec.In(bytes, offset, offset + length);
        int kind = in.byte1();
        if (kind == SECTION) {
            return !fromSnapshot || in.byte1() == HISTORY; // a snapshot's history ends where its state begins
        }
        if (kind == ATOMIC) {
            while (in.more()) {
                int partLength = (in.byte1() << 24) | (in.byte1() << 16) | (in.byte1() << 8) | in.byte1();
                in.pos += 4;
                record(bytes, in.pos, partLength);
                in.pos += partLength;
            }
            return true;
        }
        int number = (int) in.varint();
        Long dropped = numbers.dropTime(number);
        boolean forgotten = dropped != null && dropped < horizon;
        switch (kind) {
            case DECLARE: {
                long millis = in.varint();
                TableSpec spec = Codec.spec(in);
                TableSpec previous = specs.put(number, spec);
                boolean wasOn = previous != null && previous.streamViewType() != null;
                boolean isOn = spec.streamViewType() != null;
                boolean turned = isOn != wasOn || isOn
                        && !Objects.equals(previous.streamLabel(), spec.streamLabel());
                if (turned && !forgotten) {
                    out.raw(bytes, offset, length);
                }
                break;
            }
            case DROP:
                if (!forgotten && specs.containsKey(number)) {
                    out.raw(bytes, offset, length);
                }
                specs.remove(number);
                break;
            case CHANGE: {
                int flags = in.byte1();
                if ((flags & F_STREAMED) != 0 && !forgotten) {
                    in.varint();
                    long millis = in.varint();
                    if (millis >= horizon) {
                        out.raw(bytes, offset, length);
                    }
                }
                break;
            }
            default:
                break; // SEQUENCE: the snapshot writes the current one
        }
        return true;
    }
}
