package dev.moviegraph.dynamo.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.catalog.Person;
import dev.moviegraph.catalog.PersonId;
import dev.moviegraph.catalog.SearchText;
import dev.moviegraph.dynamo.client.DynamoClients;
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
                // 60 people, each a small item and a search entry per prefix of its name, one unit each,
                // at 200 units a second in slices of 25: the last slice waits for every earlier one's units.
                List<Person> people = people(60);
                int items = people.size() + people.stream().mapToInt(p -> SearchText.prefixes(p.name()).size()).sum();
                DynamoCatalogImport paced = new DynamoCatalogImport(client, "paced", 4, 200);
                long start = System.nanoTime();
                paced.write(people);
                long millis = (System.nanoTime() - start) / 1_000_000;
                long least = (items - 1) / 25 * 25 * 1000L / 200;
                assertTrue(millis >= least, items + " units at 200 a second took " + millis + " ms, under " + least);
                assertEquals(items, paced.itemsWritten());
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
