package dev.moviegraph.dynamo.read;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Values read from the table, kept for a short while, so a hot key is read once per {@code ttl} per
 * gateway instead of once per request: DynamoDB gives a partition 3,000 read units a second, and a movie
 * streamed 10,000 times a second would take them all if each stream read the movie. Absent values are
 * not kept (the loader throws or returns null). Bounded: past {@code capacity} entries it starts afresh,
 * which costs one read per key and never a wrong answer older than {@code ttl}.
 */
public final class RecentReads<K, V> {
    private record Entry<V>(V value, long expiresAt) {
    }

    private final Map<K, Entry<V>> entries = new ConcurrentHashMap<>();
    private final long ttlNanos;
    private final int capacity;

    public RecentReads(Duration ttl, int capacity) {
        this.ttlNanos = ttl.toNanos();
        this.capacity = capacity;
    }

    /** Keeps a value just learnt (a floor this process raised), as if it had been read now. */
    public void put(K key, V value) {
        if (entries.size() >= capacity) {
            entries.clear();
        }
        entries.put(key, new Entry<>(value, System.nanoTime() + ttlNanos));
    }

    /** The kept value, or the loader's (kept when it is not null). */
    public V get(K key, Supplier<V> loader) {
        long now = System.nanoTime();
        Entry<V> entry = entries.get(key);
        if (entry != null && now - entry.expiresAt() < 0) {
            return entry.value();
        }
        V value = loader.get();
        if (value != null) {
            if (entries.size() >= capacity) {
                entries.clear();
            }
            entries.put(key, new Entry<>(value, now + ttlNanos));
        }
        return value;
    }
}
