package dev.moviegraph.dynamo.model;

import static dev.moviegraph.dynamo.model.TableModel.*;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.List;

import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.LocalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.StreamSpecification;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;

/** The table's definition as CreateTable takes it, derived from the {@link Index} declarations. */
public final class TableDefinition {
    private TableDefinition() {
    }

    /** The table with its indexes and a stream of new images, on-demand billing (no capacity to guess). */
    public static CreateTableRequest createTableRequest(String tableName) {
        Map<String, ScalarAttributeType> attributes = new LinkedHashMap<>();
        List<LocalSecondaryIndex> locals = new ArrayList<>();
        List<GlobalSecondaryIndex> globals = new ArrayList<>();
        for (Index index : Index.CURRENT) {
            attributes.putIfAbsent(index.partitionKey(), ScalarAttributeType.S);
            if (index.sortKey() != null) {
                attributes.putIfAbsent(index.sortKey(), index.sortType());
            }
            if (index == Index.TABLE) {
                continue;
            }
            if (index.isLocal()) {
                locals.add(LocalSecondaryIndex.builder().indexName(index.indexName())
                        .keySchema(keySchema(index)).projection(projection(index)).build());
            } else {
                globals.add(globalIndex(index));
            }
        }
        return CreateTableRequest.builder()
                .tableName(tableName)
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(attributes.entrySet().stream().map(entry -> AttributeDefinition.builder()
                        .attributeName(entry.getKey()).attributeType(entry.getValue()).build()).toList())
                .keySchema(hash(PK), range(SK))
                .localSecondaryIndexes(locals)
                .globalSecondaryIndexes(globals)
                // New images feed the stream aggregator (TOTALS=stream); unread, a stream costs nothing.
                .streamSpecification(StreamSpecification.builder()
                        .streamEnabled(true).streamViewType(StreamViewType.NEW_IMAGE).build())
                .build();
    }

    /** An index's definition as CreateTable and UpdateTable take it. */
    public static GlobalSecondaryIndex globalIndex(Index index) {
        return GlobalSecondaryIndex.builder().indexName(index.indexName())
                .keySchema(keySchema(index)).projection(projection(index)).build();
    }

    private static List<KeySchemaElement> keySchema(Index index) {
        return index.sortKey() == null ? List.of(hash(index.partitionKey()))
                : List.of(hash(index.partitionKey()), range(index.sortKey()));
    }

    private static Projection projection(Index index) {
        return Projection.builder().projectionType(index.projection()).build();
    }

    static KeySchemaElement hash(String name) {
        return KeySchemaElement.builder().attributeName(name).keyType(KeyType.HASH).build();
    }

    static KeySchemaElement range(String name) {
        return KeySchemaElement.builder().attributeName(name).keyType(KeyType.RANGE).build();
    }
}
