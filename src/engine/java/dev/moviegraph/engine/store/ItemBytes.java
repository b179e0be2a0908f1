package dev.moviegraph.engine.store;

import dev.moviegraph.engine.table.StoredItem;

/**
 * A stored item as bytes: its size as DynamoDB counts it (a varint), then its attributes: names as
 * {@link Names} numbers, values in the journal's {@link Codec}.
 */
final class ItemBytes {

    private final Names names;

    ItemBytes(Names names) {
        this.names = names;
    }

    byte[] of(StoredItem item) {
        Codec.Out out = Codec.scratch();
        out.varint(item.size());
        names.item(out, item.attributes());
        return Codec.bytesOf(out);
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
