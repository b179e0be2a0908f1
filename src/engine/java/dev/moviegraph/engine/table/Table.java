package dev.moviegraph.engine.table;

import dev.moviegraph.engine.value.Value;

import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;

/**
 * A table's rows and its indexes' rows, each in a sorted {@link RowStore} that readers walk without locks. Items
 * are immutable, so a reader sees an item whole, before or after a write. Writers lock the item (by stripe,
 * {@link ItemLocks}) and keep the indexes in step before they let go, so two writers of one item never
 * lose an update and writers of other items never wait on each other.
 */
public final class Table {
    private volatile TableSpec spec;
    private final Storage storage;
    private final RowStore rows;
    private final Map<String, RowStore> indexRows = new ConcurrentHashMap<>();
    private final ItemLocks locks;
    private final ChangeListener listener;
    /** Item counts and bytes kept as writes happen, so DescribeTable (and /health) costs nothing per item. */
    private final java.util.concurrent.atomic.AtomicLong items = new java.util.concurrent.atomic.AtomicLong();
    private final java.util.concurrent.atomic.AtomicLong bytes = new java.util.concurrent.atomic.AtomicLong();
    private final Map<String, java.util.concurrent.atomic.AtomicLong[]> indexTotals = new ConcurrentHashMap<>();
    /** With time to live on: its attribute and the items by their time; null when it is off. */
    private volatile Expiring expiring;

    private record Expiring(String attribute, Expiries rows) {
    }

    /** Whether the expiry store holds every item's row (false while turning time to live on fills it). */
    private volatile boolean expiriesWhole = true;
    private final java.util.concurrent.locks.Lock barrier;

    public Table(TableSpec spec, ItemLocks locks, ChangeListener listener, Storage storage) {
        this.spec = spec;
        this.locks = locks;
        this.listener = listener;
        this.storage = storage;
        this.barrier = storage.writeBarrier();
        this.rows = storage.open(storeName(spec, null));
        for (IndexSpec index : spec.indexes()) {
            indexRows.put(index.name(), storage.open(storeName(spec, index.name())));
        }
        if (spec.ttlAttribute() != null) {
            expiring = new Expiring(spec.ttlAttribute(), new Expiries(storage.open(expiriesName(spec))));
        }
    }

    private static String expiriesName(TableSpec spec) {
        return Expiries.storeName(storeName(spec, null));
    }

    /** A store per table and index, named by the table's id, so a table made again after a delete starts empty. */
    private static String storeName(TableSpec spec, String index) {
        String table = spec.tableId() != null ? spec.tableId() : "name:" + spec.name();
        return index == null ? table : table + "/" + index;
    }

    /** Forgets the rows (the table was deleted). */
    public synchronized void drop() {
        for (String index : indexRows.keySet()) {
            storage.drop(storeName(spec, index));
        }
        storage.drop(storeName(spec, null));
        storage.drop(expiriesName(spec));
    }

    public TableSpec spec() {
        return spec;
    }

    public String name() {
        return spec.name();
    }

    /** Replaces the declaration (indexes added get an empty store; removed ones drop theirs). */
    public synchronized void respec(TableSpec newSpec) {
        for (IndexSpec index : newSpec.indexes()) {
            indexRows.computeIfAbsent(index.name(), name -> storage.open(storeName(newSpec, name)));
        }
        for (String name : java.util.List.copyOf(indexRows.keySet())) {
            if (newSpec.index(name).isEmpty()) {
                indexRows.remove(name);
                storage.drop(storeName(newSpec, name));
            }
        }
        indexTotals.keySet().removeIf(name -> newSpec.index(name).isEmpty());
        String attribute = newSpec.ttlAttribute();
        boolean ttlChanged = !java.util.Objects.equals(attribute, spec.ttlAttribute());
        if (ttlChanged) {
            expiriesWhole = false; // before the spec says so: a checkpoint must not see the new one and a whole store
        }
        this.spec = newSpec;
        if (ttlChanged) {
            expireBy(attribute);
        }
    }

    /**
     * Time to live turned on, off or onto another attribute: the items by their new time, from every item there
     * (each read under its lock). Writers keep the rows from the moment the new store is in place, so no item is
     * missed; one read here before a write can leave a stale row, which the sweep removes.
     */
    private void expireBy(String attribute) {
        storage.drop(expiriesName(spec));
        if (attribute == null) {
            expiring = null;
            expiriesWhole = true;
            return;
        }
        Expiring now = new Expiring(attribute, new Expiries(storage.open(expiriesName(spec))));
        expiriesWhole = false;
        expiring = now;
        for (RowKey key : keys()) {
            var lock = locks.lockFor(name(), key);
            lock.lock();
            try {
                StoredItem item = rows.get(key);
                if (item != null) {
                    now.rows().add(attribute, key, item);
                }
            } finally {
                lock.unlock();
            }
        }
        expiriesWhole = true;
    }

    /** For a checkpoint: whether the expiry store holds every item's row (it is being filled when not). */
    public boolean expiriesWhole() {
        return expiriesWhole;
    }

    /** What a checkpoint keeps of the table besides its rows: its counts. */
    public record Counts(long items, long bytes, Map<String, long[]> indexes) {
    }

    public Counts counts() {
        Map<String, long[]> indexes = new HashMap<>();
        indexTotals.forEach((name, totals) -> indexes.put(name, new long[] {totals[0].get(), totals[1].get()}));
        return new Counts(items.get(), bytes.get(), indexes);
    }

    /**
     * A table taken up from a checkpoint (its rows in the stores already): its counts back, and its expiry store
     * filled again when the checkpoint caught it being filled.
     */
    public synchronized void restored(Counts counts, boolean expiriesWereWhole) {
        items.set(counts.items());
        bytes.set(counts.bytes());
        indexTotals.clear();
        counts.indexes().forEach((name, totals) -> {
            if (spec.index(name).isPresent()) {
                indexTotals.put(name, new java.util.concurrent.atomic.AtomicLong[] {
                        new java.util.concurrent.atomic.AtomicLong(totals[0]),
                        new java.util.concurrent.atomic.AtomicLong(totals[1])});
            }
        });
        if (!expiriesWereWhole && spec.ttlAttribute() != null) {
            expireBy(spec.ttlAttribute());
        }
    }

    /**
     * The rows of items whose time to live is in [{@code from}, {@code before}) (numbers of epoch seconds), each
     * row's {@link RowKey#tableKey()} its item's key; none when time to live is off.
     */
    public Iterator<RowStore.Row> expiring(Value from, Value before) {
        Expiring current = expiring;
        return current == null ? java.util.Collections.emptyIterator() : current.rows().due(from, before);
    }

    /** For the sweep, holding the item's lock, after it kept the item: drops {@code row} if it no longer holds. */
    public void keptFromExpiry(RowKey row) {
        Expiring current = expiring;
        if (current != null) {
            current.rows().forgetIfStale(current.attribute(), row, rows.get(row.tableKey()));
        }
    }

    public StoredItem get(RowKey key) {
        return rows.get(key);
    }

    /** The table's rows in key order. */
    public Rows rows() {
        return Rows.all(rows);
    }

    /** An index's rows in its key order, or null when the table has no such index. */
    public Rows indexRows(String indexName) {
        RowStore store = indexRows.get(indexName);
        if (store == null) {
            return null;
        }
        IndexSpec index = spec.index(indexName).orElse(null);
        if (index != null && readsThrough(index)) {
            return Rows.all(new AllProjection(store, rows, index.key()));
        }
        return Rows.all(store);
    }

    public long itemCount() {
        return items.get();
    }

    public long sizeBytes() {
        return bytes.get();
    }

    public long indexItemCount(String indexName) {
        var totals = indexTotals.get(indexName);
        return totals == null ? 0 : totals[0].get();
    }

    public long indexSizeBytes(String indexName) {
        var totals = indexTotals.get(indexName);
        return totals == null ? 0 : totals[1].get();
    }

    private void countIndex(String indexName, long entries, long size) {
        var totals = indexTotals.computeIfAbsent(indexName, name -> new java.util.concurrent.atomic.AtomicLong[] {
                new java.util.concurrent.atomic.AtomicLong(), new java.util.concurrent.atomic.AtomicLong()});
        totals[0].addAndGet(entries);
        totals[1].addAndGet(size);
    }

    /** The bytes of an item collection: a partition's items and their entries in the local indexes. */
    public long collectionBytes(Value partition) {
        long total = 0;
        total += bytesOf(rows, partition);
        for (IndexSpec index : spec.indexes()) {
            RowStore store = indexRows.get(index.name());
            if (!index.global() && store != null) {
                total += bytesOf(store, partition);
            }
        }
        return total;
    }

    private static long bytesOf(RowStore store, Value partition) {
        long total = 0;
        Iterator<StoredItem> items = store.items(RowKey.partitionStart(partition), true, RowKey.partitionEnd(partition),
                true, false);
        while (items.hasNext()) {
            total += items.next().size();
        }
        return total;
    }

    public ItemLocks locks() {
        return locks;
    }

    /**
     * Writes one item under its lock: {@code change} gets the current item (null when absent) and returns
     * the new one (null deletes; the same instance changes nothing). It may throw to refuse the write.
     */
    public WriteResult write(RowKey key, UnaryOperator<StoredItem> change) {
        var lock = locks.lockFor(name(), key);
        lock.lock();
        try {
            return writeLocked(key, change, false);
        } finally {
            lock.unlock();
        }
    }

    /** The same, for a caller that holds the item's lock already (transactions, time to live, backfills). */
    public WriteResult writeLocked(RowKey key, UnaryOperator<StoredItem> change, boolean byService) {
        if (barrier == null) {
            return writeInBarrier(key, change, byService);
        }
        storage.roomForWrite();
        barrier.lock();
        try {
            return writeInBarrier(key, change, byService);
        } finally {
            barrier.unlock();
        }
    }

    private WriteResult writeInBarrier(RowKey key, UnaryOperator<StoredItem> change, boolean byService) {
        StoredItem before = rows.get(key);
        StoredItem after = change.apply(before);
        if (after == before) {
            return new WriteResult(before, before, 0, Map.of());
        }
        if (before != null && after != null && after.attributes().equals(before.attributes())) {
            // Nothing changed: DynamoDB writes no stream record and no index entry, yet charges the write.
            return new WriteResult(before, before, Capacity.write(after.size()), Map.of());
        }
        rows.write(key, after);
        items.addAndGet((after == null ? 0 : 1) - (before == null ? 0 : 1));
        bytes.addAndGet((after == null ? 0 : after.size()) - (before == null ? 0 : before.size()));
        Map<String, Double> indexUnits = updateIndexes(key, before, after);
        Expiring ttl = expiring;
        if (ttl != null) {
            ttl.rows().update(ttl.attribute(), key, before, after);
        }
        long larger = Math.max(before == null ? 0 : before.size(), after == null ? 0 : after.size());
        listener.changed(this, before, after, byService);
        return new WriteResult(before, after, Capacity.write(larger), indexUnits);
    }

    private Map<String, Double> updateIndexes(RowKey key, StoredItem before, StoredItem after) {
        TableSpec current = spec;
        if (current.indexes().isEmpty()) {
            return Map.of();
        }
        Map<String, Double> units = new HashMap<>(4);
        for (IndexSpec index : current.indexes()) {
            RowStore store = indexRows.get(index.name());
            if (store == null) {
                continue;
            }
            RowKey oldRow = before == null ? null : indexRow(index, key, before);
            StoredItem newEntry = after == null ? null : entry(index, after);
            RowKey newRow = newEntry == null ? null : indexRow(index, key, after);
            double cost = 0;
            boolean sameRow = oldRow != null && oldRow.equals(newRow);
            if (oldRow != null && !sameRow) {
                StoredItem removed = store.remove(oldRow);
                cost += Capacity.write(removed == null ? 0 : removed.size());
                if (removed != null) {
                    countIndex(index.name(), -1, -removed.size());
                }
            }
            if (newRow != null) {
                StoredItem replaced = store.put(newRow, newEntry);
                countIndex(index.name(), replaced == null ? 1 : 0, newEntry.size() - (replaced == null ? 0 : replaced.size()));
                if (replaced == null || !sameRow) {
                    cost += Capacity.write(newEntry.size());
                } else if (projectsAll(index) || !newEntry.attributes().equals(replaced.attributes())) {
                    // An ALL index projects the item itself, which changed (unchanged writes stop earlier).
                    cost += Capacity.write(Math.max(newEntry.size(), replaced.size()));
                }
            }
            if (cost > 0) {
                units.put(index.name(), cost);
            }
        }
        return units;
    }

    /** Adds an item's entry to one index (a backfill), under the item's lock. */
    public void backfill(IndexSpec index, RowKey key) {
        var lock = locks.lockFor(name(), key);
        lock.lock();
        boolean barred = false;
        try {
            if (barrier != null) {
                storage.roomForWrite();
                barrier.lock();
                barred = true;
            }
            StoredItem item = rows.get(key);
            RowStore store = indexRows.get(index.name());
            if (item == null || store == null) {
                return;
            }
            StoredItem entry = entry(index, item);
            if (entry != null) {
                StoredItem replaced = store.put(indexRow(index, key, item), entry);
                countIndex(index.name(), replaced == null ? 1 : 0, entry.size() - (replaced == null ? 0 : replaced.size()));
            }
        } finally {
            if (barred) {
                barrier.unlock();
            }
            lock.unlock();
        }
    }

    private RowKey indexRow(IndexSpec index, RowKey tableKey, StoredItem item) {
        RowKey indexKey = index.key().keyOf(item.attributes());
        return indexKey == null ? null : indexKey.inIndex(tableKey);
    }

    /** The item's entry in an index, or null when the item lacks the index's key (a sparse index). */
    private StoredItem entry(IndexSpec index, StoredItem item) {
        if (index.key().keyOf(item.attributes()) == null) {
            return null;
        }
        if (readsThrough(index)) {
            // the size alone: the row's key holds the table key, the item is read from the table (AllProjection)
            return new StoredItem(Map.of(), item.size());
        }
        return StoredItem.of(index.projection().project(item.attributes(), spec.key(), index.key()));
    }

    /** An ALL index whose entries hold only the size and read the item from the table (when rows are memory). */
    private boolean readsThrough(IndexSpec index) {
        return storage.sharesItems() && projectsAll(index);
    }

    private static boolean projectsAll(IndexSpec index) {
        return index.projection().type().equals("ALL");
    }

    /** The table key of an item's attributes, or null when they lack it. */
    public RowKey keyOf(Map<String, Value> attributes) {
        return spec.key().keyOf(attributes);
    }

    /** Every row key, for a backfill or time to live's sweep: the table as it stood at the call, read lazily. */
    public Iterable<RowKey> keys() {
        return () -> new Iterator<>() {
            private final Iterator<StoredItem> items = rows.items(null, true, null, true, false);

            @Override
            public boolean hasNext() {
                return items.hasNext();
            }

            @Override
            public RowKey next() {
                return keyOf(items.next().attributes());
            }
        };
    }
}
