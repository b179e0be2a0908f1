package dev.moviegraph.engine.capacity;

import dev.moviegraph.engine.table.IndexSpec;
import dev.moviegraph.engine.table.KeySchema;
import dev.moviegraph.engine.table.Projection;
import dev.moviegraph.engine.table.StoredItem;
import dev.moviegraph.engine.table.Table;
import dev.moviegraph.engine.table.TableSpec;
import dev.moviegraph.engine.table.Tables;
import dev.moviegraph.engine.value.Numbers;
import dev.moviegraph.engine.value.Value;

import java.math.BigDecimal;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Tables as the gateway lays them out (the indexes that matter here), items, and a clock tests move by hand. */
final class CapacityFixture {
    static final String TABLE = "moviegraph";
    static final String REGION = "eu-west-1";

    private CapacityFixture() {
    }

    /**
     * pk/sk, a global index {@code gsi2} (month partition, streams sort, ALL), a local index {@code lsi1} (ALL),
     * and global ones projecting KEYS_ONLY ({@code keys}: kpk/streams) and INCLUDE title ({@code titled}: tpk).
     */
    static Table table(String billingMode) {
        KeySchema key = new KeySchema("pk", "S", "sk", "S");
        List<IndexSpec> indexes = List.of(
                new IndexSpec("gsi2", true, new KeySchema("gsi2pk", "S", "streams", "N"), Projection.ALL, 0, 0, "ACTIVE"),
                new IndexSpec("lsi1", false, new KeySchema("pk", "S", "lsi1sk", "S"), Projection.ALL, 0, 0, "ACTIVE"),
                new IndexSpec("keys", true, new KeySchema("kpk", "S", "streams", "N"),
                        new Projection("KEYS_ONLY", List.of()), 0, 0, "ACTIVE"),
                new IndexSpec("titled", true, new KeySchema("tpk", "S", null, null),
                        new Projection("INCLUDE", List.of("title")), 0, 0, "ACTIVE"));
        TableSpec spec = new TableSpec(TABLE, "id-1", Instant.parse("2024-05-01T00:00:00Z"), key,
                Map.of("pk", "S", "sk", "S", "gsi2pk", "S", "streams", "N", "lsi1sk", "S", "kpk", "S", "tpk", "S"),
                billingMode, billingMode.equals("PROVISIONED") ? 5 : 0, billingMode.equals("PROVISIONED") ? 5 : 0,
                indexes, null, null, null, "ACTIVE");
        return new Tables((table, before, after, byService) -> { }, dev.moviegraph.engine.store.RowFiles.inMemory()).create(spec);
    }

    /** A movie's total of May 2024: in the month's gsi2 partition, ranked by its streams. */
    static StoredItem total(String movie, long streams) {
        return item("pk", "mov#" + movie, "sk", "tot#2024-05", "gsi2pk", "month#2024-05", "streams", streams,
                "type", "total");
    }

    /** An item from name, value pairs: a Long is a number, anything else a string. */
    static StoredItem item(Object... pairs) {
        Map<String, Value> attributes = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            Object value = pairs[i + 1];
            attributes.put((String) pairs[i], value instanceof Long n ? number(n) : new Value.S((String) value));
        }
        return StoredItem.of(attributes);
    }

    static Value.N number(long n) {
        return Numbers.of(BigDecimal.valueOf(n));
    }

    static Value s(String text) {
        return new Value.S(text);
    }

    /** A clock that stands still until moved. */
    static final class TestClock extends Clock {
        private Instant now;

        TestClock(Instant start) {
            now = start;
        }

        void advanceMillis(long millis) {
            now = now.plusMillis(millis);
        }

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}
