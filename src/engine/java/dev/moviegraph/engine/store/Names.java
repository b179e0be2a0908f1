package dev.moviegraph.engine.store;

import dev.moviegraph.engine.value.Value;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Top-level attribute names as small numbers in the items and stream records kept in memory: a table's items
 * repeat the same few dozen names ({@code pk}, {@code GSI1SK}, {@code title}...), which were a third of an
 * item's bytes. The first {@value #CAPACITY} names an engine meets get a number for its life (the journal spells
 * names out; a checkpoint of rows on disk keeps the numbers beside them); later ones are written in full, so a table of ever-new names costs one
 * byte more per name, not a dictionary that grows without end.
 */
final class Names {
    static final int CAPACITY = 1 << 16;

    private final ConcurrentHashMap<String, Integer> numbers = new ConcurrentHashMap<>();
    private final AtomicReferenceArray<String> names = new AtomicReferenceArray<>(CAPACITY);

    /** Writes an item: its attribute count, then each name's number + 1 (or 0 and the name), then its value. */
    void item(Codec.Out out, Map<String, Value> item) {
        out.varint(item.size());
        for (Map.Entry<String, Value> attribute : item.entrySet()) {
            int number = numberOf(attribute.getKey());
            if (number < 0) {
                out.varint(0);
                out.string(attribute.getKey());
            } else {
                out.varint(number + 1);
            }
            Codec.value(out, attribute.getValue());
        }
    }

    Map<String, Value> item(Codec.In in) {
        int count = in.length();
        Map<String, Value> item = new LinkedHashMap<>(Math.max(4, (int) (count / 0.75f) + 1));
        for (int i = 0; i < count; i++) {
            int number = (int) in.varint();
            String name = number == 0 ? in.string() : names.get(number - 1);
            item.put(name, Codec.value(in));
        }
        return Collections.unmodifiableMap(item);
    }

    /** The names numbered so far, in their numbers' order (for a checkpoint of rows written with them). */
    synchronized java.util.List<String> numbered() {
        java.util.List<String> all = new java.util.ArrayList<>(numbers.size());
        for (int i = 0; i < numbers.size(); i++) {
            all.add(names.get(i));
        }
        return all;
    }

    /** Before any item is written or read: the names a checkpoint's rows were written with, numbered as then. */
    synchronized void restore(java.util.List<String> numbered) {
        numbers.clear();
        for (int i = 0; i < names.length(); i++) {
            names.set(i, null);
        }
        for (int i = 0; i < numbered.size() && i < CAPACITY; i++) {
            names.set(i, numbered.get(i));
            numbers.put(numbered.get(i), i);
        }
    }

    private int numberOf(String name) {
        Integer number = numbers.get(name);
        if (number != null) {
            return number;
        }
        if (numbers.size() >= CAPACITY) {
            return -1;
        }
        synchronized (this) {
            number = numbers.get(name);
            if (number != null) {
                return number;
            }
            int next = numbers.size();
            if (next >= CAPACITY) {
                return -1;
            }
            names.set(next, name); // published before the number is, so a reader of the number finds the name
            numbers.put(name, next);
            return next;
        }
    }
}
