package dev.moviegraph.engine.capacity;

import dev.moviegraph.engine.value.Value;

/**
 * Units one request takes from one partition: a partition key value of a table ({@code index} null; a local
 * secondary index's entries live in their table's partition, so they are charged there) or of one of its
 * global secondary indexes.
 */
record Charge(Partition partition, Kind kind, double units) {

    /** Which of a partition's two ceilings a charge counts against. */
    enum Kind {
        READ, WRITE
    }

    /** A partition key value of a table or of one of its global secondary indexes. */
    record Partition(String table, String index, Value value) {

        /** How it is printed: {@code table/partition} or {@code table/index/name/partition}. */
        String resource() {
            return index == null ? table : table + "/index/" + index;
        }

        /** The value as text: a string itself, a number its canonical text, binary its base64. */
        String text() {
            return PartitionLimits.text(value);
        }
    }
}
