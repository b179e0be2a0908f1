package dev.moviegraph.engine.store;

import dev.moviegraph.engine.table.StoredItem;


/**
 * A stored item as bytes: its size as DynamoDB counts it (a varint), then its attributes: names as
 * {@link Names} numbers, values in the journal's {@link Codec}.
 */
final class ItemBytes {
    private static final ThreadLocal<Codec.Out> OUTS = ThreadLocal.withInitial(() -> new Codec.Out(1024));

    private final Names names;

    ItemBytes(Names names) {
        this.names = names;
    }

    byte[] of(StoredItem item) {
        Codec.Out out = OUTS.get();
        out.reset();
        out.varint(item.size());
        names.item(out, item.attributes());
        byte[] bytes = java.util.Arrays.copyOf(out.bytes, out.size);
        if (out.bytes.length > 64 << 10) {
            OUTS.remove(); // a thread that wrote one big item does not keep its buffer
        }
        return bytes;
    }

    StoredItem item(byte[] bytes) {
        if (bytes == null) {
            return null;
        }
        Codec.In in = new Codec.In(bytes, 0, bytes.length);
        long size = in.varint();
        return new StoredItem(names.item(in), size);
    }
}
