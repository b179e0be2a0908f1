package dev.moviegraph.engine.store;

import dev.moviegraph.engine.table.RowKey;
import dev.moviegraph.engine.table.Rows;
import dev.moviegraph.engine.table.StoredItem;
import dev.moviegraph.engine.value.Value;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Rows of one partition numbered by their sort key, each item holding its number: what the row stores' tests write and read. */
final class NumberedRows {
    static final Value PK = new Value.S("movie#1");

    private NumberedRows() {
    }

    static List<Integer> numbers(Rows rows) {
        List<Integer> numbers = new ArrayList<>();
        for (StoredItem item : rows) {
            numbers.add(number(item));
        }
        return numbers;
    }

    static int number(StoredItem item) {
        return Integer.parseInt(((Value.N) item.attributes().get("n")).text());
    }

    static RowKey key(int i) {
        return RowKey.of(PK, n(i));
    }

    static Value.N n(int i) {
        return new Value.N(Integer.toString(i), new java.math.BigDecimal(i));
    }

    static StoredItem item(int i) {
        return StoredItem.of(Map.of("n", n(i)));
    }
}
