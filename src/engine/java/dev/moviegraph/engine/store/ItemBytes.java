package dev.moviegraph.engine.store;

import dev.moviegraph.engine.table.StoredItem;

import java.util.Collections;

/** A stored item as bytes: its size as DynamoDB counts it (a varint), then its attributes in the journal's {@link Codec}. */
final class ItemBytes {
    private static final ThreadLocal<Codec.Out> OUTS = ThreadLocal.withInitial(() -> new Codec.Out(1024));

    private ItemBytes() {
    }

    static byte[] of(StoredItem item) {
        Codec.Out out = OUTS.get();
        out.reset();
        out.varint(item.size());
        Codec.item(out, item.attributes());
        byte[] bytes = java.util.Arrays.copyOf(out.bytes, out.size);
        if (out.bytes.length > 64 << 10) {
            OUTS.remove(); // a thread that wrote one big item does not keep its buffer
        }
        return bytes;
    }

    static StoredItem item(byte[] bytes) {
        if (bytes == null) {
            return null;
        }
        Codec.In in = new Codec.In(bytes, 0, bytes.length);
        long size = in.varint();
        return new StoredItem(Collections.unmodifiableMap(Codec.item(in)), size);
    }
}
