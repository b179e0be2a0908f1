package dev.moviegraph.engine.store;

import org.h2.mvstore.Cursor;
import org.h2.mvstore.MVMap;

import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.function.BiFunction;

/**
 * A range of one store read through its layers: the newest layer's row for a key wins, an empty value (a
 * removal not yet written to the file) hides the key, and the file is read a page at a time. Bounds are
 * half open, {@code low <= key < high}, the caller having turned inclusive and exclusive bounds into that.
 */
final class MergedRange<T> implements Iterator<T> {
    /** Rows asked of the file at first; later pages double up to {@link #MAX_PAGE}. */
    private static final int FIRST_PAGE = 24;
    private static final int MAX_PAGE = 512;

    private final Source[] sources;
    private final boolean descending;
    private final BiFunction<byte[], byte[], T> read;
    private byte[] nextKey;
    private byte[] nextValue;

    MergedRange(List<MVMap<byte[], byte[]>> layers, SqliteRows file, int store, byte[] low, byte[] high,
                boolean descending, BiFunction<byte[], byte[], T> read) {
        this.descending = descending;
        this.read = read;
        this.sources = new Source[layers.size() + 1];
        for (int i = 0; i < layers.size(); i++) {
            sources[i] = new LayerSource(layers.get(i), low, high, descending);
        }
        sources[layers.size()] = new FileSource(file, store, low, high, descending);
        for (Source source : sources) {
            source.advance();
        }
    }

    private boolean fetch() {
        while (nextKey == null) {
            int best = -1;
            for (int i = 0; i < sources.length; i++) {
                byte[] key = sources[i].key;
                if (key == null) {
                    continue;
                }
                if (best < 0) {
                    best = i;
                    continue;
                }
                int c = Arrays.compareUnsigned(key, sources[best].key);
                if (descending ? c > 0 : c < 0) {
                    best = i; // an equal key keeps the earlier, newer layer
                }
            }
            if (best < 0) {
                return false;
            }
            byte[] key = sources[best].key;
            byte[] value = sources[best].value;
            for (Source source : sources) {
                if (source.key != null && Arrays.equals(source.key, key)) {
                    source.advance();
                }
            }
            if (value.length > 0) {
                nextKey = key;
                nextValue = value;
            }
        }
        return true;
    }

    @Override
    public boolean hasNext() {
        return fetch();
    }

    @Override
    public T next() {
        if (!fetch()) {
            throw new NoSuchElementException();
        }
        T value = read.apply(nextKey, nextValue);
        nextKey = null;
        nextValue = null;
        return value;
    }

    /** One layer's or the file's rows in the range, in the walk's order; key null once done. */
    private abstract static class Source {
        byte[] key;
        byte[] value;

        abstract void advance();
    }

    private static final class LayerSource extends Source {
        private final Cursor<byte[], byte[]> cursor;
        private final byte[] low;
        private final byte[] high;
        private final boolean descending;

        LayerSource(MVMap<byte[], byte[]> map, byte[] low, byte[] high, boolean descending) {
            this.cursor = descending ? map.cursor(high, low, true) : map.cursor(low, high, false);
            this.low = low;
            this.high = high;
            this.descending = descending;
        }

        @Override
        void advance() {
            while (cursor.hasNext()) {
                byte[] k = cursor.next();
                if (high != null && Arrays.compareUnsigned(k, high) >= 0) {
                    if (descending) {
                        continue; // the cursor starts at high itself, which the range leaves out
                    }
                    break;
                }
                if (Arrays.compareUnsigned(k, low) < 0) {
                    break;
                }
                key = k;
                value = cursor.getValue();
                return;
            }
            key = null;
            value = null;
        }
    }

    private static final class FileSource extends Source {
        private final SqliteRows file;
        private final int store;
        private final boolean descending;
        private byte[] low;
        private byte[] high;
        private int pageSize = FIRST_PAGE;
        private List<byte[][]> page = List.of();
        private int at;
        private boolean exhausted;

        FileSource(SqliteRows file, int store, byte[] low, byte[] high, boolean descending) {
            this.file = file;
            this.store = store;
            this.low = low;
            this.high = high;
            this.descending = descending;
        }

        @Override
        void advance() {
            if (at == page.size() && !exhausted) {
                page = file.range(store, low, high, descending, pageSize);
                at = 0;
                exhausted = page.size() < pageSize;
                pageSize = Math.min(MAX_PAGE, pageSize * 2);
                if (!page.isEmpty()) {
                    byte[] last = page.get(page.size() - 1)[0];
                    if (descending) {
                        high = last;
                    } else {
                        low = Arrays.copyOf(last, last.length + 1); // the key right after the last one
                    }
                }
            }
            if (at < page.size()) {
                byte[][] row = page.get(at++);
                key = row[0];
                value = row[1];
            } else {
                key = null;
                value = null;
            }
        }
    }
}
