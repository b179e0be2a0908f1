package dev.moviegraph.imdb;

import java.util.BitSet;
import java.util.HashSet;
import java.util.Set;

/**
 * A set of IMDb ids (tt0111161, nm0000151) held as bits of their numbers: every id of title.basics
 * (about 12 million) fits in a few megabytes, where strings would take hundreds. Ids too large for a
 * bit index (none today) fall back to a plain set.
 */
final class IdSet {
    private final BitSet bits = new BitSet();
    private final Set<String> large = new HashSet<>();

    void add(String id) {
        long number = number(id);
        if (number >= 0) {
            bits.set((int) number);
        } else {
            large.add(id);
        }
    }

    boolean contains(String id) {
        long number = number(id);
        return number >= 0 ? bits.get((int) number) : large.contains(id);
    }

    void clear() {
        bits.clear();
        large.clear();
    }

    /** The id's number when it fits a bit index, else -1. Ids are validated (two letters, digits) by the parsers. */
    private static long number(String id) {
        if (id.length() > 11) {
            return -1;
        }
        long number = Long.parseLong(id, 2, id.length(), 10);
        return number < Integer.MAX_VALUE ? number : -1;
    }
}
