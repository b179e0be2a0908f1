package dev.moviegraph.engine.store;

import org.h2.mvstore.DataUtils;
import org.h2.mvstore.WriteBuffer;
import org.h2.mvstore.type.BasicDataType;

import java.nio.ByteBuffer;
import java.util.Arrays;

/** MVStore's view of our keys and values: byte arrays, compared unsigned (the order of {@code KeyBytes}). */
final class ByteArrays extends BasicDataType<byte[]> {
    static final ByteArrays TYPE = new ByteArrays();

    private ByteArrays() {
    }

    @Override
    public int compare(byte[] a, byte[] b) {
        return Arrays.compareUnsigned(a, b);
    }

    @Override
    public int getMemory(byte[] value) {
        return 24 + value.length;
    }

    @Override
    public void write(WriteBuffer buffer, byte[] value) {
        buffer.putVarInt(value.length).put(value);
    }

    @Override
    public byte[] read(ByteBuffer buffer) {
        byte[] value = new byte[DataUtils.readVarInt(buffer)];
        buffer.get(value);
        return value;
    }

    @Override
    public byte[][] createStorage(int size) {
        return new byte[size][];
    }

    @Override
    public boolean equals(Object other) {
        return other == this;
    }

    @Override
    public int hashCode() {
        return 17;
    }
}
