package dev.moviegraph.dynamo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.catalog.Person;
import dev.moviegraph.catalog.PersonId;
import dev.moviegraph.local.EmbeddedDynamo;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;

/** The import's writer: everything stored, and {@code --max-write-units} paces the writes. */
class DynamoCatalogImportTest {
    private static List<Person> people(int count) {
        List<Person> people = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            people.add(new Person(PersonId.of("nm" + (1_000_000 + i)), "Person " + i, 1970, null));
        }
        return people;
    }

    @Test
    void aWriteUnitLimitSpreadsTheWritesOverTime() {
        try (EmbeddedDynamo dynamo = EmbeddedDynamo.ephemeral(false)) {
            DynamoDbAsyncClient client = DynamoClients.create(dynamo.endpoint(), List.of());
            try {
                new TableAdmin(client, "paced").ensureTable();
                // 60 small items, one unit each, at 20 units a second: slices of 25, 25 and 10, the
                // second sent 1.25 s after the first and the third 2.5 s after it.
                DynamoCatalogImport paced = new DynamoCatalogImport(client, "paced", 4, 20);
                long start = System.nanoTime();
                paced.write(people(60));
                long millis = (System.nanoTime() - start) / 1_000_000;
                assertTrue(millis >= 2_400, "60 units at 20 a second took " + millis + " ms");
                assertEquals(60, paced.itemsWritten());
                assertEquals(60, client.scan(ScanRequest.builder().tableName("paced")
                        .filterExpression("#type = :person")
                        .expressionAttributeNames(java.util.Map.of("#type", "type"))
                        .expressionAttributeValues(java.util.Map.of(":person",
                                software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromS("person")))
                        .build()).join().count());
            } finally {
                client.close();
            }
        }
    }
}
