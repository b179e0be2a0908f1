package dev.moviegraph.engine.stream;

import static dev.moviegraph.engine.stream.StreamFixture.item;
import static dev.moviegraph.engine.stream.StreamFixture.put;
import static dev.moviegraph.engine.stream.StreamFixture.request;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.moviegraph.engine.error.ApiException;
import dev.moviegraph.engine.table.Table;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ShardIteratorTest {
    private final StreamFixture fixture = new StreamFixture();
    private Table table;
    private String arn;
    private String shard;

    @BeforeEach
    void fiveRecords() {
        table = fixture.table("Movies", "KEYS_ONLY");
        arn = fixture.arn(table);
        for (int i = 1; i <= 5; i++) {
            put(table, item("m", i));
        }
        shard = fixture.shardIds(arn).get(0);
    }

    private List<String> numbers(ObjectNode page) {
        return page.path("Records").findValuesAsText("SequenceNumber");
    }

    private List<String> all() {
        return numbers(fixture.records(fixture.iterator(arn, shard, "TRIM_HORIZON", null)));
    }

    @Test
    void atAndAfterASequenceNumberStartThereOrJustAfter() {
        List<String> all = all();
        assertEquals(5, all.size());
        assertEquals(all.subList(2, 5), numbers(fixture.records(fixture.iterator(arn, shard, "AT_SEQUENCE_NUMBER",
                all.get(2)))));
        assertEquals(all.subList(3, 5), numbers(fixture.records(fixture.iterator(arn, shard, "AFTER_SEQUENCE_NUMBER",
                all.get(2)))));
    }

    @Test
    void afterTheNewestRecordReadsOnlyLaterOnes() {
        String newest = all().get(4);
        String iterator = fixture.iterator(arn, shard, "AFTER_SEQUENCE_NUMBER", newest);
        ObjectNode empty = fixture.records(iterator);
        assertEquals(0, empty.path("Records").size());

        put(table, item("m", 6));
        ObjectNode later = fixture.records(empty.path("NextShardIterator").asText());
        assertEquals(1, later.path("Records").size());
        assertEquals("6", later.path("Records").get(0).path("dynamodb").path("Keys").path("sk").path("N").asText());
    }

    @Test
    void latestSkipsWhatIsThereAndReadsWhatComes() {
        String iterator = fixture.iterator(arn, shard, "LATEST", null);
        put(table, item("m", 7));
        JsonNode records = fixture.records(iterator).path("Records");
        assertEquals(1, records.size());
        assertEquals("7", records.get(0).path("dynamodb").path("Keys").path("sk").path("N").asText());
    }

    @Test
    void sequenceNumbersAreReReadable() {
        String third = all().get(2);
        for (int i = 0; i < 3; i++) {
            assertEquals(third, numbers(fixture.records(fixture.iterator(arn, shard, "AT_SEQUENCE_NUMBER", third))).get(0));
        }
    }

    @Test
    void limitCutsAPageAndTheNextIteratorGoesOn() {
        ObjectNode first = fixture.streams.getRecords(request("ShardIterator",
                fixture.iterator(arn, shard, "TRIM_HORIZON", null)).put("Limit", 2));
        ObjectNode second = fixture.streams.getRecords(request("ShardIterator",
                first.path("NextShardIterator").asText()).put("Limit", 2));
        List<String> all = all();
        assertEquals(all.subList(0, 2), numbers(first));
        assertEquals(all.subList(2, 4), numbers(second));
    }

    @Test
    void limitOutsideOneToAThousandIsRefused() {
        String iterator = fixture.iterator(arn, shard, "TRIM_HORIZON", null);
        ApiException zero = assertThrows(ApiException.class,
                () -> fixture.streams.getRecords(request("ShardIterator", iterator).put("Limit", 0)));
        assertTrue(zero.type().endsWith("ValidationException"));
        assertEquals("1 validation error detected: Value '0' at 'limit' failed to satisfy constraint: Member must have"
                + " value greater than or equal to 1", zero.getMessage());
        assertThrows(ApiException.class,
                () -> fixture.streams.getRecords(request("ShardIterator", iterator).put("Limit", 1001)));
    }

    @Test
    void aPageStopsAtAboutOneMegabyte() {
        Table big = fixture.table("Big", "NEW_IMAGE");
        String text = "x".repeat(300_000);
        for (int i = 0; i < 5; i++) {
            put(big, item("b", i, "blob", text));
        }
        String bigArn = fixture.arn(big);
        String bigShard = fixture.shardIds(bigArn).get(0);
        ObjectNode page = fixture.records(fixture.iterator(bigArn, bigShard, "TRIM_HORIZON", null));
        assertEquals(3, page.path("Records").size());
        assertEquals(2, fixture.records(page.path("NextShardIterator").asText()).path("Records").size());
    }

    @Test
    void anIteratorExpiresAfterItsLifetime() {
        String iterator = fixture.iterator(arn, shard, "TRIM_HORIZON", null);
        fixture.advance(Duration.ofMinutes(15).plusSeconds(1));
        ApiException expired = assertThrows(ApiException.class, () -> fixture.records(iterator));
        assertTrue(expired.type().endsWith("#ExpiredIteratorException"), expired.type());
    }

    @Test
    void theNextIteratorIsFreshEvenWhenTheFirstWasOld() {
        String iterator = fixture.iterator(arn, shard, "TRIM_HORIZON", null);
        fixture.advance(Duration.ofMinutes(14));
        String next = fixture.records(iterator).path("NextShardIterator").asText();
        fixture.advance(Duration.ofMinutes(14));
        assertEquals(0, fixture.records(next).path("Records").size());
    }

    @Test
    void aMangledIteratorIsRefused() {
        String iterator = fixture.iterator(arn, shard, "TRIM_HORIZON", null);
        String mangled = iterator.substring(0, 10) + (iterator.charAt(10) == 'A' ? 'B' : 'A') + iterator.substring(11);
        ApiException refused = assertThrows(ApiException.class, () -> fixture.records(mangled));
        assertTrue(refused.type().endsWith("ValidationException"));
        assertThrows(ApiException.class, () -> fixture.records("nonsense"));
    }

    @Test
    void sequenceNumbersMustBeInTheShardAndGivenForTheirTypes() {
        ApiException missing = assertThrows(ApiException.class,
                () -> fixture.iterator(arn, shard, "AT_SEQUENCE_NUMBER", null));
        assertTrue(missing.type().endsWith("ValidationException"));
        ApiException beyond = assertThrows(ApiException.class,
                () -> fixture.iterator(arn, shard, "AT_SEQUENCE_NUMBER", "900000000000000000000"));
        assertTrue(beyond.type().endsWith("ValidationException"));
        ApiException type = assertThrows(ApiException.class, () -> fixture.iterator(arn, shard, "OLDEST", null));
        assertTrue(type.getMessage().contains("shardIteratorType"), type.getMessage());
    }

    @Test
    void unknownStreamsAndShardsAreNotFound() {
        ApiException stream = assertThrows(ApiException.class,
                () -> fixture.iterator(arn + "x", shard, "LATEST", null));
        assertTrue(stream.type().endsWith("#ResourceNotFoundException"));
        assertEquals("Requested resource not found: Stream: " + arn + "x not found", stream.getMessage());
        ApiException unknownShard = assertThrows(ApiException.class,
                () -> fixture.iterator(arn, "shardId-00000000000000000000-00000000", "LATEST", null));
        assertTrue(unknownShard.type().endsWith("#ResourceNotFoundException"));
    }
}
