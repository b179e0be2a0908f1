package dev.moviegraph.engine.store;

import dev.moviegraph.engine.stream.ChangeRecord;

import java.util.Map;

/** A stream record as bytes: numbers as varints, images as items ({@link Names}), absent ones marked. */
final class RecordBytes {
    private static final int NEW_IMAGE = 1;
    private static final int OLD_IMAGE = 2;
    private static final int BY_SERVICE = 4;

    private final Names names;

    RecordBytes(Names names) {
        this.names = names;
    }

    byte[] of(ChangeRecord record) {
        Codec.Out out = Codec.scratch();
        out.varint(record.sequence());
        out.varint(record.createdMillis());
        out.string(record.eventName());
        out.byte1((record.newImage() != null ? NEW_IMAGE : 0) | (record.oldImage() != null ? OLD_IMAGE : 0)
                | (record.byService() ? BY_SERVICE : 0));
        out.varint(record.sizeBytes());
        names.item(out, record.keys());
        if (record.newImage() != null) {
            names.item(out, record.newImage());
        }
        if (record.oldImage() != null) {
            names.item(out, record.oldImage());
        }
        return Codec.bytesOf(out);
    }

    ChangeRecord record(byte[] bytes) {
        if (bytes == null) {
            return null;
        }
        Codec.In in = new Codec.In(bytes, 0, bytes.length);
        long sequence = in.varint();
        long created = in.varint();
        String eventName = in.string();
        int flags = in.byte1();
        long size = in.varint();
        Map<String, dev.moviegraph.engine.value.Value> keys = names.item(in);
        var newImage = (flags & NEW_IMAGE) != 0 ? names.item(in) : null;
        var oldImage = (flags & OLD_IMAGE) != 0 ? names.item(in) : null;
        return new ChangeRecord(sequence, created, eventName, keys, newImage, oldImage, (flags & BY_SERVICE) != 0, size);
    }
}
