package dev.moviegraph.bench.capacity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;

/** The capacity model's accounting: known writes and reads charge known units to known partitions. */
class PartitionAccountingTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The table as DescribeTable answers for this gateway's layout (the indexes that matter here). */
    private static final KeySchema SCHEMA = KeySchema.of(json("""
            {"TableName": "moviegraph",
             "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
             "GlobalSecondaryIndexes": [{"IndexName": "gsi2", "KeySchema": [
                 {"AttributeName": "gsi2pk", "KeyType": "HASH"}, {"AttributeName": "streams", "KeyType": "RANGE"}]}],
             "LocalSecondaryIndexes": [{"IndexName": "lsi1", "KeySchema": [
                 {"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "lsi1sk", "KeyType": "RANGE"}]}]}
            """));
    private final Charges charges = new Charges(SCHEMA);

    @Test
    void aTotalsFirstStreamPutsItOnceInTheTableAndOnceInTheMonthsIndexPartition() {
        List<Charge> charged = write(null, total("tt0111161", 1), false);

        assertEquals(List.of(
                new Charge("moviegraph", "mov#tt0111161", Charge.Kind.WRITE, 1),
                new Charge("moviegraph/index/gsi2", "month#2024-05", Charge.Kind.WRITE, 1)), charged);
    }

    @Test
    void anIncrementMovesTheIndexEntrySoTheMonthsPartitionPaysADeleteAndAPut() {
        List<Charge> charged = write(total("tt0111161", 41), total("tt0111161", 42), false);

        assertEquals(List.of(
                new Charge("moviegraph", "mov#tt0111161", Charge.Kind.WRITE, 1),
                new Charge("moviegraph/index/gsi2", "month#2024-05", Charge.Kind.WRITE, 1),
                new Charge("moviegraph/index/gsi2", "month#2024-05", Charge.Kind.WRITE, 1)), charged);
    }

    @Test
    void aTransactionChargesEachWriteTwice() {
        double units = write(total("tt0111161", 41), total("tt0111161", 42), true).stream()
                .mapToDouble(Charge::units).sum();

        assertEquals(6, units);
    }

    @Test
    void anItemWithoutAnIndexsKeysIsNotWrittenThere() {
        JsonNode movie = json("""
                {"pk": {"S": "mov#tt0111161"}, "sk": {"S": "mov#tt0111161"}, "lsi1sk": {"S": "movie"}, "title": {"S": "X"}}""");

        List<Charge> charged = write(null, movie, false);

        // the local index's entry is written in the table's own partition
        assertEquals(List.of(new Charge("moviegraph", "mov#tt0111161", Charge.Kind.WRITE, 1),
                new Charge("moviegraph", "mov#tt0111161", Charge.Kind.WRITE, 1)), charged);
    }

    @Test
    void aWriteThatChangedNothingChargesItsBaseWriteEvenWithoutAnItem() {
        JsonNode key = json("{\"pk\": {\"S\": \"mov#tt0000404\"}, \"sk\": {\"S\": \"tot#2024-05\"}}");

        assertEquals(List.of(new Charge("moviegraph", "mov#tt0000404", Charge.Kind.WRITE, 2)),
                charges.write(key, null, null, true), "a condition check on nothing, in a transaction");
        assertEquals(List.of(new Charge("moviegraph", "mov#tt0000404", Charge.Kind.WRITE, 1)),
                charges.write(key, total("tt0000404", 3), total("tt0000404", 3), false), "a failed condition");
    }

    @Test
    void sizesRoundUpToAKilobyteForWritesAndFourForReadsAndEventualReadsCostHalf() {
        JsonNode big = json("{\"pk\": {\"S\": \"mov#tt0111161\"}, \"sk\": {\"S\": \"mov#tt0111161\"}, \"plot\": {\"S\": \""
                + "x".repeat(2_500) + "\"}}");
        int bytes = ItemSize.bytes(big);

        assertEquals(2 + 13 + 2 + 13 + 4 + 2_500, bytes);
        assertEquals(3, write(null, big, false).get(0).units());
        assertEquals(0.5, charges.get(big, big, false, false).get(0).units());
        assertEquals(1, charges.get(big, null, true, false).get(0).units(), "a consistent read of nothing costs 1");
        assertEquals(4, ItemSize.number("12345"), "1 byte per two significant digits, plus 1");
        assertEquals(2, ItemSize.number("1000"), "trailing zeros are not significant");
    }

    @Test
    void aQueryIsChargedToThePartitionItsKeyConditionNamesForAllItemsReadRoundedOnce() {
        JsonNode query = json("""
                {"TableName": "moviegraph", "IndexName": "gsi2", "ScanIndexForward": false, "Limit": 10,
                 "KeyConditionExpression": "#p = :month",
                 "ExpressionAttributeNames": {"#p": "gsi2pk"},
                 "ExpressionAttributeValues": {":month": {"S": "month#2024-05"}}}""");
        List<JsonNode> items = java.util.stream.IntStream.range(0, 10).mapToObj(i -> total("tt000000" + i, i)).toList();

        assertEquals(List.of(new Charge("moviegraph/index/gsi2", "month#2024-05", Charge.Kind.READ, 0.5)),
                charges.query(query, items));
    }

    @Test
    void aPartitionPastAThousandWriteUnitsInASecondIsThrottledWithDynamoDbsReasonAndTheNextSecondIsFree() {
        PartitionLedger ledger = new PartitionLedger();
        ledger.second(1);
        // 500 increments of 500 movies' totals: each a delete and a put in the month's index partition
        for (int i = 0; i < 500; i++) {
            String movie = String.format("tt%07d", i);
            assertEquals(Optional.empty(), ledger.charge(write(total(movie, 1), total(movie, 2), false)));
        }
        Optional<PartitionLedger.Throttle> refused = ledger.charge(
                write(total("tt0999999", 1), total("tt0999999", 2), false));

        assertEquals(Optional.of(new PartitionLedger.Throttle("IndexWriteKeyRangeThroughputExceeded",
                "moviegraph/index/gsi2", "month#2024-05", 1_002)), refused);
        assertEquals(1, ledger.throttles());
        assertEquals(new PartitionLedger.Usage(new PartitionLedger.Key("moviegraph/index/gsi2", "month#2024-05",
                Charge.Kind.WRITE), 1_000), ledger.hottest(1).get(0));
        ledger.second(2);
        assertTrue(ledger.charge(write(total("tt0999999", 1), total("tt0999999", 2), false)).isEmpty(),
                "a new second starts every partition empty");
    }

    @Test
    void aRefusedRequestChargesNothing() {
        PartitionLedger ledger = new PartitionLedger(2, 3_000);
        ledger.second(1);
        assertTrue(ledger.charge(write(null, total("tt0000001", 1), false)).isEmpty());
        // the index partition would take 3 units: refused, and the table partition is not charged either
        assertTrue(ledger.charge(write(total("tt0000001", 1), total("tt0000001", 2), false)).isPresent());

        assertEquals(1, ledger.hottest(5).stream()
                .filter(usage -> usage.key().partition().equals("mov#tt0000001")).findFirst().orElseThrow().unitsPerSecond());
    }

    /** A table with a KEYS_ONLY and an INCLUDE index, as a CreateTable request (or DescribeTable) gives them. */
    private static final KeySchema PROJECTED = KeySchema.of(json("""
            {"TableName": "moviegraph",
             "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
             "GlobalSecondaryIndexes": [
                 {"IndexName": "keys", "KeySchema": [{"AttributeName": "kpk", "KeyType": "HASH"},
                     {"AttributeName": "streams", "KeyType": "RANGE"}], "Projection": {"ProjectionType": "KEYS_ONLY"}},
                 {"IndexName": "titled", "KeySchema": [{"AttributeName": "tpk", "KeyType": "HASH"}],
                  "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["title"]}},
                 {"IndexName": "every", "KeySchema": [{"AttributeName": "tpk", "KeyType": "HASH"}],
                  "Projection": {"ProjectionType": "ALL"}}]}
            """));
    private final Charges projected = new Charges(PROJECTED);

    @Test
    void eachIndexsProjectionIsReadFromTheTablesDescription() {
        assertEquals(List.of(KeySchema.Projection.KEYS_ONLY, KeySchema.Projection.INCLUDE, KeySchema.Projection.ALL),
                PROJECTED.indexes().stream().map(KeySchema.IndexKeys::projection).toList());
        assertEquals(java.util.Set.of("title"), PROJECTED.index("titled").nonKeyAttributes());
        assertEquals(KeySchema.Projection.ALL, SCHEMA.index("gsi2").projection(), "no Projection given: ALL");
    }

    @Test
    void aKeysOnlyIndexIsWrittenWhenItsEntryIsCreatedOrItsKeyMovesNotWhenAnotherAttributeChanges() {
        JsonNode created = projectedItem(5, "A", "x");
        assertEquals(List.of(new Charge("moviegraph", "mov#1", Charge.Kind.WRITE, 1),
                        new Charge("moviegraph/index/keys", "k#1", Charge.Kind.WRITE, 1),
                        new Charge("moviegraph/index/titled", "t#1", Charge.Kind.WRITE, 1),
                        new Charge("moviegraph/index/every", "t#1", Charge.Kind.WRITE, 1)),
                projectedWrite(null, created), "the item's creation puts an entry in each index");

        assertEquals(List.of(new Charge("moviegraph", "mov#1", Charge.Kind.WRITE, 1),
                        new Charge("moviegraph/index/every", "t#1", Charge.Kind.WRITE, 1)),
                projectedWrite(created, projectedItem(5, "A", "y")),
                "an attribute only ALL projects: KEYS_ONLY and INCLUDE entries unchanged, not written");

        assertEquals(List.of(new Charge("moviegraph", "mov#1", Charge.Kind.WRITE, 1),
                        new Charge("moviegraph/index/titled", "t#1", Charge.Kind.WRITE, 1),
                        new Charge("moviegraph/index/every", "t#1", Charge.Kind.WRITE, 1)),
                projectedWrite(created, projectedItem(5, "B", "x")), "INCLUDE's own attribute: its entry is written");

        assertEquals(List.of(new Charge("moviegraph", "mov#1", Charge.Kind.WRITE, 2),
                        new Charge("moviegraph/index/keys", "k#1", Charge.Kind.WRITE, 2),
                        new Charge("moviegraph/index/keys", "k#1", Charge.Kind.WRITE, 2),
                        new Charge("moviegraph/index/every", "t#1", Charge.Kind.WRITE, 2)),
                projected.write(projected.keyOf(created), created, projectedItem(6, "A", "x"), true),
                "the KEYS_ONLY sort key moved: a delete and a put, doubled in a transaction");
    }

    @Test
    void anIndexWriteIsChargedByTheSizeOfItsEntry() {
        JsonNode big = projectedItem(5, "A", "x".repeat(3_500));

        List<Charge> charged = projectedWrite(null, big);

        assertEquals(List.of(4.0, 1.0, 1.0, 4.0), charged.stream().map(Charge::units).toList(),
                "the table and ALL take the 3.5 KB item; KEYS_ONLY and INCLUDE their small entries");
    }

    private List<Charge> projectedWrite(JsonNode before, JsonNode after) {
        return projected.write(projected.keyOf(after != null ? after : before), before, after, false);
    }

    private static JsonNode projectedItem(long streams, String title, String other) {
        return json("""
                {"pk": {"S": "mov#1"}, "sk": {"S": "tot"}, "kpk": {"S": "k#1"}, "streams": {"N": "%d"},
                 "tpk": {"S": "t#1"}, "title": {"S": "%s"}, "other": {"S": "%s"}}""".formatted(streams, title, other));
    }

    private List<Charge> write(JsonNode before, JsonNode after, boolean transactional) {
        return charges.write(charges.keyOf(after != null ? after : before), before, after, transactional);
    }

    private static JsonNode total(String movie, long streams) {
        return json("""
                {"pk": {"S": "mov#%s"}, "sk": {"S": "tot#2024-05"}, "gsi2pk": {"S": "month#2024-05"},
                 "streams": {"N": "%d"}, "type": {"S": "total"}}""".formatted(movie, streams));
    }

    private static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException(e);
        }
    }
}
