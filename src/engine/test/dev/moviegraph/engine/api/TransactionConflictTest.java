package dev.moviegraph.engine.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.moviegraph.engine.error.ApiException;
import dev.moviegraph.engine.table.KeySchema;
import dev.moviegraph.engine.table.RowKey;
import dev.moviegraph.engine.table.TableSpec;
import dev.moviegraph.engine.table.Tables;
import dev.moviegraph.engine.table.TransactionClaims;
import dev.moviegraph.engine.value.Value;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An item a write transaction holds, as DynamoDB answers for it: another transaction that writes or reads it is
 * cancelled with TransactionConflict at that item's place, a single write gets TransactionConflictException, and
 * all of them go through once the transaction is over. The transaction in flight is made by claiming its item,
 * as TransactWriteItems does before it takes the locks, so the window is held open for as long as the test needs.
 */
class TransactionConflictTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private Tables tables;
    private ItemApi items;
    private TransactApi transactions;

    @BeforeEach
    void setUp() {
        tables = new Tables((table, before, after, byService) -> {
        }, dev.moviegraph.engine.store.RowFiles.inMemory());
        tables.create(new TableSpec("t", "id", Instant.now(), new KeySchema("pk", "S", null, null), Map.of("pk", "S"),
                "PAY_PER_REQUEST", 0, 0, List.of(), null, null, null, "ACTIVE"));
        items = new ItemApi(tables, Throughput.UNLIMITED);
        transactions = new TransactApi(tables, Throughput.UNLIMITED, Runnable::run);
    }

    private static JsonNode json(String text) {
        try {
            return JSON.readTree(text.replace('\'', '"'));
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    private List<TransactionClaims.Item> inFlight(String pk) {
        RowKey key = tables.find("t").spec().key().keyOf(Map.of("pk", new Value.S(pk)));
        return List.of(new TransactionClaims.Item("t", key));
    }

    private static String codes(ApiException cancelled) {
        StringBuilder codes = new StringBuilder();
        for (Object reason : (List<?>) cancelled.extra().get("CancellationReasons")) {
            codes.append(codes.isEmpty() ? "" : ",").append(((Map<?, ?>) reason).get("Code"));
        }
        return codes.toString();
    }

    @Test
    void everythingThatTouchesAnItemInATransactionIsRefusedUntilItEnds() {
        Object other = new Object();
        List<TransactionClaims.Item> held = inFlight("busy");
        assertEquals(-1, tables.claims().claimAll(held, other));

        ApiException single = assertThrows(ApiException.class,
                () -> items.putItem(json("{'TableName':'t','Item':{'pk':{'S':'busy'}}}")));
        assertEquals("com.amazonaws.dynamodb.v20120810#TransactionConflictException", single.type());
        assertEquals("Transaction is ongoing for the item", single.getMessage());
        assertThrows(ApiException.class, () -> items.updateItem(json(
                "{'TableName':'t','Key':{'pk':{'S':'busy'}},'UpdateExpression':'SET a = :a',"
                        + "'ExpressionAttributeValues':{':a':{'N':'1'}}}")));
        assertThrows(ApiException.class, () -> items.deleteItem(json("{'TableName':'t','Key':{'pk':{'S':'busy'}}}")));

        ApiException write = assertThrows(ApiException.class, () -> transactions.transactWriteItems(json(
                "{'TransactItems':[{'Put':{'TableName':'t','Item':{'pk':{'S':'free'}}}},"
                        + "{'Put':{'TableName':'t','Item':{'pk':{'S':'busy'}}}}]}")));
        assertEquals("None,TransactionConflict", codes(write));
        assertEquals("Transaction cancelled, please refer cancellation reasons for specific reasons [None,"
                + " TransactionConflict]", write.getMessage());
        ApiException read = assertThrows(ApiException.class, () -> transactions.transactGetItems(json(
                "{'TransactItems':[{'Get':{'TableName':'t','Key':{'pk':{'S':'busy'}}}}]}")));
        assertEquals("TransactionConflict", codes(read));
        // the cancelled transaction wrote nothing, not even its first item, and let go of its own claims
        assertEquals(0, items.getItem(json("{'TableName':'t','Key':{'pk':{'S':'free'}}}")).size());
        transactions.transactWriteItems(json("{'TransactItems':[{'Put':{'TableName':'t','Item':{'pk':{'S':'free'}}}}]}"));

        tables.claims().releaseAll(held, other);
        items.putItem(json("{'TableName':'t','Item':{'pk':{'S':'busy'},'v':{'N':'1'}}}"));
        transactions.transactWriteItems(json("{'TransactItems':[{'Delete':{'TableName':'t','Key':{'pk':{'S':'busy'}}}}]}"));
        assertEquals(0, items.getItem(json("{'TableName':'t','Key':{'pk':{'S':'busy'}}}")).size());
    }

    @Test
    void aTransactionLetsGoOfItsItemsHoweverItEnds() {
        ApiException failed = assertThrows(ApiException.class, () -> transactions.transactWriteItems(json(
                "{'TransactItems':[{'Put':{'TableName':'t','Item':{'pk':{'S':'x'}},"
                        + "'ConditionExpression':'attribute_exists(pk)'}}]}")));
        assertEquals("ConditionalCheckFailed", codes(failed));
        assertEquals(-1, tables.claims().firstClaimed(inFlight("x")), "a cancelled transaction holds nothing");
        transactions.transactWriteItems(json("{'TransactItems':[{'Put':{'TableName':'t','Item':{'pk':{'S':'x'}}}}]}"));
        assertEquals(-1, tables.claims().firstClaimed(inFlight("x")), "a committed transaction holds nothing");
    }
}
