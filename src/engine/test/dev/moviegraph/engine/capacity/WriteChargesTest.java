package dev.moviegraph.engine.capacity;

import static dev.moviegraph.engine.capacity.CapacityFixture.TABLE;
import static dev.moviegraph.engine.capacity.CapacityFixture.item;
import static dev.moviegraph.engine.capacity.CapacityFixture.s;
import static dev.moviegraph.engine.capacity.CapacityFixture.total;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.moviegraph.engine.table.StoredItem;
import dev.moviegraph.engine.table.TableSpec;

import java.util.List;

import org.junit.jupiter.api.Test;

/** What a write costs, partition by partition: known writes charge known units to known partitions. */
class WriteChargesTest {
    private final TableSpec spec = CapacityFixture.table("PAY_PER_REQUEST").spec();

    @Test
    void aTotalsFirstStreamPutsItOnceInTheTableAndOnceInTheMonthsIndexPartition() {
        assertEquals(List.of(table("mov#tt0111161", 1), index("gsi2", "month#2024-05", 1)),
                charges(null, total("tt0111161", 1), 1));
    }

    @Test
    void anIncrementMovesTheIndexEntrySoTheMonthsPartitionPaysADeleteAndAPut() {
        assertEquals(List.of(table("mov#tt0111161", 1), index("gsi2", "month#2024-05", 1), index("gsi2", "month#2024-05", 1)),
                charges(total("tt0111161", 41), total("tt0111161", 42), 1));
    }

    @Test
    void aTransactionChargesEachWriteTwice() {
        double units = charges(total("tt0111161", 41), total("tt0111161", 42), 2).stream().mapToDouble(Charge::units).sum();

        assertEquals(6, units);
    }

    @Test
    void aLocalIndexsEntryIsChargedToTheTablesPartitionAndASparseIndexIsNotWritten() {
        StoredItem movie = item("pk", "mov#tt0111161", "sk", "mov#tt0111161", "lsi1sk", "movie", "title", "X");

        assertEquals(List.of(table("mov#tt0111161", 1), table("mov#tt0111161", 1)), charges(null, movie, 1));
    }

    @Test
    void aWriteThatChangesNothingChargesItsBaseWriteAndNoIndex() {
        StoredItem same = total("tt0000404", 3);
        assertEquals(List.of(table("mov#tt0000404", 2)), WriteCharges.of(spec, s("mov#tt0000404"), same, same, 2),
                "a condition check, in a transaction: the same instance before and after");
        assertEquals(List.of(table("mov#tt0000404", 1)), charges(total("tt0000404", 3), total("tt0000404", 3), 1),
                "an update that set what was there: the index entries are as they were");
        assertEquals(List.of(table("mov#tt0000404", 1)), WriteCharges.of(spec, s("mov#tt0000404"), null, null, 1),
                "a delete of nothing costs 1 unit");
    }

    @Test
    void aWriteIsChargedByTheKilobyteOfTheLargerImage() {
        StoredItem big = item("pk", "mov#tt0111161", "sk", "mov#tt0111161", "plot", "x".repeat(2_500));
        StoredItem small = item("pk", "mov#tt0111161", "sk", "mov#tt0111161", "plot", "x");

        assertEquals(2 + 13 + 2 + 13 + 4 + 2_500, big.size());
        assertEquals(List.of(table("mov#tt0111161", 3)), charges(null, big, 1));
        assertEquals(List.of(table("mov#tt0111161", 3)), charges(big, small, 1), "the larger of before and after");
        assertEquals(List.of(table("mov#tt0111161", 3)), charges(big, null, 1), "a delete: the item it removed");
    }

    @Test
    void aKeysOnlyIndexIsWrittenWhenItsEntryIsCreatedOrItsKeyMovesNotWhenAnotherAttributeChanges() {
        StoredItem created = projected(5, "A", "x");
        assertEquals(List.of(table("mov#1", 1), index("keys", "k#1", 1), index("titled", "t#1", 1)),
                charges(null, created, 1), "the item's creation puts an entry in each index it has the keys of");
        assertEquals(List.of(table("mov#1", 1)), charges(created, projected(5, "A", "y"), 1),
                "an attribute neither KEYS_ONLY nor INCLUDE holds: their entries are as they were");
        assertEquals(List.of(table("mov#1", 1), index("titled", "t#1", 1)), charges(created, projected(5, "B", "x"), 1),
                "INCLUDE's own attribute: its entry is rewritten");
        assertEquals(List.of(table("mov#1", 2), index("keys", "k#1", 2), index("keys", "k#1", 2)),
                charges(created, projected(6, "A", "x"), 2),
                "the KEYS_ONLY sort key moved: a delete and a put, doubled in a transaction");
    }

    @Test
    void anIndexWriteIsChargedByTheSizeOfItsEntry() {
        List<Charge> charged = charges(null, projected(5, "A", "x".repeat(3_500)), 1);

        assertEquals(List.of(4.0, 1.0, 1.0), charged.stream().map(Charge::units).toList(),
                "the table takes the 3.5 KB item; KEYS_ONLY and INCLUDE their small entries");
    }

    @Test
    void anItemLeavingAnIndexIsOneDeleteInTheOldEntrysPartition() {
        StoredItem ranked = total("tt0000001", 7);
        StoredItem unranked = item("pk", "mov#tt0000001", "sk", "tot#2024-05", "streams", 7L, "type", "total");

        assertEquals(List.of(table("mov#tt0000001", 1), index("gsi2", "month#2024-05", 1)), charges(ranked, unranked, 1));
    }

    private List<Charge> charges(StoredItem before, StoredItem after, double factor) {
        return WriteCharges.of(spec, WriteCharges.partitionOf(spec, before, after), before, after, factor);
    }

    private static StoredItem projected(long streams, String title, String other) {
        return item("pk", "mov#1", "sk", "tot", "kpk", "k#1", "streams", streams, "tpk", "t#1", "title", title,
                "other", other);
    }

    private static Charge table(String partition, double units) {
        return new Charge(new Charge.Partition(TABLE, null, s(partition)), Charge.Kind.WRITE, units);
    }

    private static Charge index(String index, String partition, double units) {
        return new Charge(new Charge.Partition(TABLE, index, s(partition)), Charge.Kind.WRITE, units);
    }
}
