package dev.moviegraph.engine.store;

import dev.moviegraph.engine.stream.ChangeRecord;
import dev.moviegraph.engine.stream.RecordLog;
import dev.moviegraph.engine.table.KeyBytes;
import dev.moviegraph.engine.table.RowKey;
import dev.moviegraph.engine.table.RowStore;
import dev.moviegraph.engine.table.Storage;
import dev.moviegraph.engine.table.StoredItem;
import org.h2.mvstore.Cursor;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;
import org.h2.mvstore.type.LongDataType;

import java.util.Arrays;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * The engine's {@link Storage} of rows and its streams' {@link RecordLog.Logs}: H2's MVStore, a B-tree of pages with copy-on-write versions, so readers never
 * wait for writers and a range read walks the version it started on. Keys are {@link KeyBytes}, items
 * {@link ItemBytes}: byte arrays, so a row costs its bytes and a few dozen more, not the objects of an item.
 * Stream records are {@link RecordBytes} by sequence number, one map per shard, dropped when the shard expires.
 *
 * <p>The pages stay on the heap (MVStore without a file): an item costs its encoded bytes and a few dozen more,
 * about a sixth of the objects it was. MVStore on a file was measured and set aside: under random-key writes
 * at the import's rate its copy-on-write chunks rewrote most of the tree at each commit (a 771 MB file for
 * 150 MB of rows) and a 1 GB heap ran out (docs/design/engine.md, "Where rows live").
 */
public final class RowFiles implements Storage, AutoCloseable {
    private final MVStore store;
    private final Names names = new Names();
    private final ItemBytes items = new ItemBytes(names);
    private final RecordBytes recordBytes = new RecordBytes(names);
    private final RecordLog.Logs records = new RecordLog.Logs() {
        @Override
        public RecordLog open(String name) {
            return new Records(recordBytes, store.openMap("records:" + name, new MVMap.Builder<Long, byte[]>()
                    .keyType(LongDataType.INSTANCE).valueType(ByteArrays.TYPE)));
        }

        @Override
        public void drop(String name) {
            RowFiles.this.drop("records:" + name);
        }
    };

    private RowFiles(MVStore store) {
        this.store = store;
    }

    /** Where the streams keep their records, in the same store. */
    public RecordLog.Logs records() {
        return records;
    }

    /** Rows on the heap, compact. */
    public static RowFiles inMemory() {
        return new RowFiles(new MVStore.Builder().open());
    }

    @Override
    public RowStore open(String name) {
        return new Rows(items, store.openMap(name, new MVMap.Builder<byte[], byte[]>()
                .keyType(ByteArrays.TYPE).valueType(ByteArrays.TYPE)));
    }

    @Override
    public void drop(String name) {
        if (store.hasMap(name)) {
            store.removeMap(name);
        }
    }

    @Override
    public void close() {
        store.close();
    }

    /** One shard's records. */
    private static final class Records implements RecordLog {
        private final RecordBytes bytes;
        private final MVMap<Long, byte[]> map;

        Records(RecordBytes bytes, MVMap<Long, byte[]> map) {
            this.bytes = bytes;
            this.map = map;
        }

        @Override
        public void add(ChangeRecord record) {
            if (!map.isClosed()) {
                map.put(record.sequence(), bytes.of(record));
            }
        }

        @Override
        public ChangeRecord first() {
            Long first = map.firstKey();
            return first == null ? null : bytes.record(map.get(first));
        }

        @Override
        public void remove(long sequence) {
            if (!map.isClosed()) {
                map.remove(sequence);
            }
        }

        @Override
        public Iterator<ChangeRecord> from(long sequence) {
            Cursor<Long, byte[]> cursor = map.cursor(sequence);
            return new Iterator<>() {
                @Override
                public boolean hasNext() {
                    return cursor.hasNext();
                }

                @Override
                public ChangeRecord next() {
                    cursor.next();
                    return bytes.record(cursor.getValue());
                }
            };
        }
    }

    /** One table's or index's rows. */
    private static final class Rows implements RowStore {
        private final ItemBytes items;
        private final MVMap<byte[], byte[]> map;

        Rows(ItemBytes items, MVMap<byte[], byte[]> map) {
            this.items = items;
            this.map = map;
        }

        @Override
        public StoredItem get(RowKey key) {
            return items.item(map.get(KeyBytes.of(key)));
        }

        @Override
        public StoredItem put(RowKey key, StoredItem item) {
            if (map.isClosed()) {
                return null; // a write racing its table's deletion lands nowhere, as DynamoDB's would
            }
            return items.item(map.put(KeyBytes.of(key), items.of(item)));
        }

        @Override
        public StoredItem remove(RowKey key) {
            if (map.isClosed()) {
                return null;
            }
            return items.item(map.remove(KeyBytes.of(key)));
        }

        @Override
        public void write(RowKey key, StoredItem item) {
            if (map.isClosed()) {
                return;
            }
            if (item == null) {
                map.remove(KeyBytes.of(key));
            } else {
                map.put(KeyBytes.of(key), items.of(item));
            }
        }

        @Override
        public Iterator<StoredItem> items(RowKey low, boolean lowInclusive, RowKey high, boolean highInclusive,
                                          boolean descending) {
            return walk(low, lowInclusive, high, highInclusive, descending, (key, value) -> items.item(value));
        }

        @Override
        public Iterator<Row> rows(RowKey low, boolean lowInclusive, RowKey high, boolean highInclusive,
                                  boolean descending) {
            return walk(low, lowInclusive, high, highInclusive, descending,
                    (key, value) -> new Row(KeyBytes.decode(key), items.item(value)));
        }

        private <T> Iterator<T> walk(RowKey low, boolean lowInclusive, RowKey high, boolean highInclusive,
                                     boolean descending, java.util.function.BiFunction<byte[], byte[], T> read) {
            byte[] lowBytes = low == null ? null : KeyBytes.of(low);
            byte[] highBytes = high == null ? null : KeyBytes.of(high);
            if (lowBytes != null && highBytes != null) {
                int c = Arrays.compareUnsigned(lowBytes, highBytes);
                if (c > 0 || c == 0 && !(lowInclusive && highInclusive)) {
                    return java.util.Collections.emptyIterator();
                }
            }
            Cursor<byte[], byte[]> cursor = descending ? map.cursor(highBytes, lowBytes, true)
                    : map.cursor(lowBytes, highBytes, false);
            byte[] skipFirst = descending ? (highInclusive ? null : highBytes) : (lowInclusive ? null : lowBytes);
            byte[] skipLast = descending ? (lowInclusive ? null : lowBytes) : (highInclusive ? null : highBytes);
            return new Iterator<>() {
                private boolean first = true;
                private byte[] nextKey;
                private byte[] nextValue;

                private boolean advance() {
                    if (nextKey != null) {
                        return true;
                    }
                    while (cursor.hasNext()) {
                        byte[] key = cursor.next();
                        boolean wasFirst = first;
                        first = false;
                        if (wasFirst && skipFirst != null && Arrays.equals(key, skipFirst)) {
                            continue;
                        }
                        if (skipLast != null && Arrays.equals(key, skipLast)) {
                            return false;
                        }
                        nextKey = key;
                        nextValue = cursor.getValue();
                        return true;
                    }
                    return false;
                }

                @Override
                public boolean hasNext() {
                    return advance();
                }

                @Override
                public T next() {
                    if (!advance()) {
                        throw new NoSuchElementException();
                    }
                    T value = read.apply(nextKey, nextValue);
                    nextKey = null;
                    nextValue = null;
                    return value;
                }
            };
        }
    }
}
