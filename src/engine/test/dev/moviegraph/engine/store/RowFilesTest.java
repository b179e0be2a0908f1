package dev.moviegraph.engine.store;

import dev.moviegraph.engine.table.RowKey;
import dev.moviegraph.engine.table.RowStore;
import dev.moviegraph.engine.table.Rows;
import dev.moviegraph.engine.value.Value;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static dev.moviegraph.engine.store.NumberedRows.PK;
import static dev.moviegraph.engine.store.NumberedRows.item;
import static dev.moviegraph.engine.store.NumberedRows.key;
import static dev.moviegraph.engine.store.NumberedRows.n;
import static dev.moviegraph.engine.store.NumberedRows.number;
import static dev.moviegraph.engine.store.NumberedRows.numbers;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The MVStore-backed rows answer as a sorted map does: gets, ranges in both directions, bounds, snapshots. */
class RowFilesTest {

    @Test
    void rangesInBothDirectionsWithEveryBound() {
        try (RowFiles files = RowFiles.inMemory()) {
            check(files.open("t"));
        }
    }

    private static void check(RowStore store) {
        for (int i = 0; i < 10; i++) {
            assertNull(store.put(key(i), item(i)));
        }
        store.put(RowKey.of(new Value.S("other"), n(1)), item(99));
        assertEquals(item(3), store.get(key(3)));
        assertEquals(item(3), store.put(key(3), item(33)));
        assertEquals(item(33), store.remove(key(3)));
        assertNull(store.get(key(3)));
        store.write(key(3), item(3));
        Rows partition = Rows.all(store).subMap(RowKey.partitionStart(PK), true, RowKey.partitionEnd(PK), true);
        assertEquals(List.of(0, 1, 2, 3, 4, 5, 6, 7, 8, 9), numbers(partition));
        assertEquals(List.of(9, 8, 7, 6, 5, 4, 3, 2, 1, 0), numbers(partition.descendingMap()));
        assertEquals(List.of(3, 4, 5), numbers(partition.subMap(key(3), true, key(5), true)));
        assertEquals(List.of(4), numbers(partition.subMap(key(3), false, key(5), false)));
        assertEquals(List.of(5, 4), numbers(partition.subMap(key(3), false, key(5), true).descendingMap()));
        assertEquals(List.of(7, 8, 9), numbers(partition.tailMap(key(6), false)));
        assertEquals(List.of(5, 4, 3, 2, 1, 0), numbers(partition.descendingMap().tailMap(key(6), false)));
        assertEquals(List.of(6, 5, 4, 3, 2, 1, 0), numbers(partition.descendingMap().tailMap(key(6), true)));
        assertEquals(List.of(), numbers(partition.subMap(key(5), false, key(5), false)));
        Rows three = partition.subMap(key(2), true, key(4), true);
        assertThrows(IllegalArgumentException.class, () -> three.tailMap(key(7), false));
        // a range read walks the rows as they stood when it began
        var items = partition.iterator();
        store.remove(key(0));
        store.put(key(10), item(10));
        List<Integer> seen = new ArrayList<>();
        items.forEachRemaining(item -> seen.add(number(item)));
        assertEquals(List.of(0, 1, 2, 3, 4, 5, 6, 7, 8, 9), seen);
    }
}
