package dev.moviegraph.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.zip.GZIPInputStream;

import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.LocalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.StreamSpecification;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * A table as the gateway of layout 1 (commit e55db79) left it: its table definition, and every item of
 * {@code layout1/table.jsonl.gz}, a dump of a table that server wrote (the sample, then a few writes
 * through its GraphQL API, streams included), one item per line in DynamoDB JSON.
 */
public final class Layout1Table {
    private static final String FIXTURE = "/layout1/table.jsonl.gz";
    private static final ObjectMapper JSON = new ObjectMapper();
    /**
     * For the tests' own calls that create or read a whole table: on a busy machine a local engine may take longer
     * than the 3 s per attempt that suits a gateway's queries (a createTable retried after a timeout finds the
     * table it created).
     */
    public static final software.amazon.awssdk.awscore.AwsRequestOverrideConfiguration PATIENT =
            software.amazon.awssdk.awscore.AwsRequestOverrideConfiguration.builder()
                    .apiCallAttemptTimeout(java.time.Duration.ofSeconds(60))
                    .apiCallTimeout(java.time.Duration.ofSeconds(120)).build();

    private Layout1Table() {
    }

    /** Layout 1's items, as dumped. */
    public static List<Map<String, AttributeValue>> items() {
        try (InputStream raw = Layout1Table.class.getResourceAsStream(FIXTURE);
             BufferedReader lines = new BufferedReader(new InputStreamReader(new GZIPInputStream(raw), StandardCharsets.UTF_8))) {
            List<Map<String, AttributeValue>> items = new ArrayList<>();
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                if (!line.isBlank()) {
                    items.add(item(JSON.readTree(line)));
                }
            }
            return items;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A consistent share of the dump: one movie collection in {@code oneIn} (always those with streams),
     * the people those movies credit, one in {@code oneIn} of the people with no credit, every stream of
     * a kept movie, and the markers. Same shapes, fewer items: migrations tested on it finish sooner.
     */
    public static List<Map<String, AttributeValue>> items(int oneIn) {
        List<Map<String, AttributeValue>> all = items();
        Set<String> streamed = new HashSet<>();
        Set<String> credited = new HashSet<>();
        for (Map<String, AttributeValue> item : all) {
            switch (item.get("type").s()) {
                case "stream" -> streamed.add("mov#" + item.get("movieId").s());
                case "cast" -> credited.add(item.get("sk").s());
                default -> { }
            }
        }
        Set<String> movies = new HashSet<>();
        Set<String> people = new HashSet<>();
        int movieIndex = 0;
        int uncreditedIndex = 0;
        for (Map<String, AttributeValue> item : all) {
            String type = item.get("type").s();
            String pk = item.get("pk").s();
            if (type.equals("movie") && (movieIndex++ % oneIn == 0 || streamed.contains(pk))) {
                movies.add(pk);
            } else if (type.equals("actor") && !credited.contains(pk) && uncreditedIndex++ % oneIn == 0) {
                people.add(pk);
            }
        }
        all.stream().filter(item -> item.get("type").s().equals("cast") && movies.contains(item.get("pk").s()))
                .forEach(credit -> people.add(credit.get("sk").s()));
        return all.stream().filter(item -> switch (item.get("type").s()) {
            case "actor" -> people.contains(item.get("pk").s());
            case "stream" -> streamed.contains("mov#" + item.get("movieId").s())
                    && movies.contains("mov#" + item.get("movieId").s());
            case "meta" -> true;
            default -> movies.contains(item.get("pk").s());
        }).toList();
    }

    /** Creates the table as layout 1 defined it and writes every item of the dump into it. */
    public static List<Map<String, AttributeValue>> create(DynamoDbAsyncClient client, String table) {
        return create(client, table, items());
    }

    /** Creates the table as layout 1 defined it and writes {@code items} into it. */
    public static List<Map<String, AttributeValue>> create(DynamoDbAsyncClient client, String table,
                                                           List<Map<String, AttributeValue>> items) {
        Projection all = Projection.builder().projectionType(ProjectionType.ALL).build();
        client.createTable(CreateTableRequest.builder().tableName(table).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(attribute("pk", ScalarAttributeType.S), attribute("sk", ScalarAttributeType.S),
                        attribute("lsi1sk", ScalarAttributeType.S), attribute("gsi2pk", ScalarAttributeType.S),
                        attribute("streams", ScalarAttributeType.N))
                .keySchema(key("pk", KeyType.HASH), key("sk", KeyType.RANGE))
                .localSecondaryIndexes(LocalSecondaryIndex.builder().indexName("lsi1")
                        .keySchema(key("pk", KeyType.HASH), key("lsi1sk", KeyType.RANGE)).projection(all).build())
                .globalSecondaryIndexes(
                        GlobalSecondaryIndex.builder().indexName("gsi1")
                                .keySchema(key("sk", KeyType.HASH), key("pk", KeyType.RANGE)).projection(all).build(),
                        GlobalSecondaryIndex.builder().indexName("gsi2")
                                .keySchema(key("gsi2pk", KeyType.HASH), key("streams", KeyType.RANGE)).projection(all).build())
                .streamSpecification(StreamSpecification.builder().streamEnabled(true)
                        .streamViewType(StreamViewType.NEW_IMAGE).build())
                .overrideConfiguration(PATIENT).build()).join();
        for (int i = 0; i < items.size(); i += 25) {
            List<WriteRequest> writes = items.subList(i, Math.min(items.size(), i + 25)).stream()
                    .map(item -> WriteRequest.builder().putRequest(PutRequest.builder().item(item).build()).build())
                    .toList();
            List<WriteRequest> left = writes;
            while (!left.isEmpty()) {
                left = client.batchWriteItem(BatchWriteItemRequest.builder().requestItems(Map.of(table, left)).build())
                        .join().unprocessedItems().getOrDefault(table, List.of());
            }
        }
        return items;
    }

    private static AttributeDefinition attribute(String name, ScalarAttributeType type) {
        return AttributeDefinition.builder().attributeName(name).attributeType(type).build();
    }

    private static KeySchemaElement key(String name, KeyType type) {
        return KeySchemaElement.builder().attributeName(name).keyType(type).build();
    }

    private static Map<String, AttributeValue> item(JsonNode node) {
        Map<String, AttributeValue> item = new HashMap<>();
        Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> field = fields.next();
            item.put(field.getKey(), value(field.getValue()));
        }
        return item;
    }

    private static AttributeValue value(JsonNode typed) {
        Map.Entry<String, JsonNode> only = typed.fields().next();
        JsonNode value = only.getValue();
        return switch (only.getKey()) {
            case "S" -> AttributeValue.fromS(value.asText());
            case "N" -> AttributeValue.fromN(value.asText());
            case "BOOL" -> AttributeValue.fromBool(value.asBoolean());
            case "NULL" -> AttributeValue.fromNul(true);
            case "SS" -> AttributeValue.fromSs(strings(value));
            case "NS" -> AttributeValue.fromNs(strings(value));
            case "L" -> {
                List<AttributeValue> list = new ArrayList<>();
                value.forEach(element -> list.add(value(element)));
                yield AttributeValue.fromL(list);
            }
            case "M" -> AttributeValue.fromM(item(value));
            default -> throw new IllegalArgumentException("Unknown DynamoDB JSON type " + only.getKey());
        };
    }

    private static List<String> strings(JsonNode array) {
        List<String> strings = new ArrayList<>();
        array.forEach(element -> strings.add(element.asText()));
        return strings;
    }
}
