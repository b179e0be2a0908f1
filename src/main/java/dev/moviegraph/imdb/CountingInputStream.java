package dev.moviegraph.imdb;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * Counts the bytes taken from the compressed file, so progress and ETA can be told against the file's
 * size (the decompressed size of a .gz is not known up front). One thread reads; the count is volatile
 * so a progress reporter on another thread sees it.
 */
final class CountingInputStream extends FilterInputStream {
    private volatile long count;

    CountingInputStream(InputStream in) {
        super(in);
    }

    long count() {
        return count;
    }

    @Override
    public int read() throws IOException {
        int b = super.read();
        if (b >= 0) {
            count++;
        }
        return b;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        int n = super.read(buffer, offset, length);
        if (n > 0) {
            count += n;
        }
        return n;
    }

    @Override
    public long skip(long n) throws IOException {
        long skipped = super.skip(n);
        count += skipped;
        return skipped;
    }

    // Marking would let reset() re-read counted bytes; GZIPInputStream does not need it.
    @Override
    public boolean markSupported() {
        return false;
    }
}
