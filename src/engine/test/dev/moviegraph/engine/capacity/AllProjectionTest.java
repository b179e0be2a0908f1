package dev.moviegraph.engine.capacity;

import dev.moviegraph.engine.table.RowKey;
import dev.moviegraph.engine.table.StoredItem;
import dev.moviegraph.engine.table.Table;
import dev.moviegraph.engine.value.Value;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static dev.moviegraph.engine.capacity.CapacityFixture.item;
import static dev.moviegraph.engine.capacity.CapacityFixture.total;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * An index projecting ALL keeps each item's keys and size and reads the item from the table: what it answers,
 * its counts and the write units it costs are those of an index holding copies.
 */
class AllProjectionTest {
    private static final Value MAY = new Value.S("month#2024-05");

    @Test
    void anIndexReadGivesTheTablesItemAsItIsNow() {
        Table table = CapacityFixture.table("PAY_PER_REQUEST");
        put(table, total("m1", 10));
        put(table, total("m2", 20));
        StoredItem renamed = item("pk", "mov#m1", "sk", "tot#2024-05", "gsi2pk", "month#2024-05", "streams", 10L,
                "type", "total", "title", "New title");
        var result = put(table, renamed);
        assertEquals(List.of(renamed.attributes(), total("m2", 20).attributes()), may(table));
        // the entry changed (the item did) so the index is charged as a copy would be
        assertEquals(1.0, result.indexUnits().get("gsi2"));
        assertEquals(2, table.indexItemCount("gsi2"));
        assertEquals(renamed.size() + total("m2", 20).size(), table.indexSizeBytes("gsi2"));
    }

    @Test
    void anItemThatMovedOrWentIsNotReadUnderItsOldKey() {
        Table table = CapacityFixture.table("PAY_PER_REQUEST");
        put(table, total("m1", 10));
        put(table, total("m2", 20));
        put(table, total("m1", 30));
        assertEquals(List.of(total("m2", 20).attributes(), total("m1", 30).attributes()), may(table));
        table.write(key("m2"), current -> null);
        assertEquals(List.of(total("m1", 30).attributes()), may(table));
        assertEquals(1, table.indexItemCount("gsi2"));
        RowKey old = RowKey.of(MAY, CapacityFixture.number(20)).inIndex(key("m2"));
        assertNull(table.indexRows("gsi2").get(old));
    }

    private static List<Object> may(Table table) {
        List<Object> found = new ArrayList<>();
        for (StoredItem item : table.indexRows("gsi2").subMap(RowKey.partitionStart(MAY), true,
                RowKey.partitionEnd(MAY), true)) {
            found.add(item.attributes());
        }
        return found;
    }

    private static dev.moviegraph.engine.table.WriteResult put(Table table, StoredItem item) {
        return table.write(table.keyOf(item.attributes()), current -> item);
    }

    private static RowKey key(String movie) {
        return RowKey.of(new Value.S("mov#" + movie), new Value.S("tot#2024-05"));
    }
}
