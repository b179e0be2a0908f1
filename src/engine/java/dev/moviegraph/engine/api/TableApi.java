package dev.moviegraph.engine.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.moviegraph.engine.error.ApiException;
import dev.moviegraph.engine.stream.Streams;
import dev.moviegraph.engine.table.IndexSpec;
import dev.moviegraph.engine.table.KeySchema;
import dev.moviegraph.engine.table.Projection;
import dev.moviegraph.engine.table.RowKey;
import dev.moviegraph.engine.table.Table;
import dev.moviegraph.engine.table.TableSpec;
import dev.moviegraph.engine.table.Tables;

import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.function.Consumer;

/**
 * CreateTable, DescribeTable, UpdateTable (indexes added with a backfill, removed, stream on and off,
 * billing), DeleteTable, ListTables, UpdateTimeToLive and DescribeTimeToLive. A table is ACTIVE as soon as
 * it is created: nothing here takes time but an index's backfill, which DescribeTable shows.
 */
public final class TableApi {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final Tables tables;
    private final Streams streams;
    private final String region;
    private final Clock clock;
    private final ExecutorService backfills;
    /** Told of every change of a table's declaration (the journal records it). */
    private final Consumer<TableSpec> declared;
    private final Consumer<String> deleted;
    private final TagApi tags;

    public TableApi(Tables tables, Streams streams, String region, Clock clock, ExecutorService backfills,
                    Consumer<TableSpec> declared, Consumer<String> deleted) {
        this.tables = tables;
        this.streams = streams;
        this.region = region;
        this.clock = clock;
        this.backfills = backfills;
        this.declared = declared;
        this.deleted = deleted;
        this.tags = new TagApi(tables, region, declared);
    }

    public ObjectNode createTable(JsonNode request) {
        String name = TableConstraints.createTable(request);
        Map<String, String> types = attributeTypes(request);
        String billing = Fields.text(request, "BillingMode");
        billing = billing == null ? "PROVISIONED" : billing;
        long reads = 0;
        long writes = 0;
        if (billing.equals("PAY_PER_REQUEST") && request.has("ProvisionedThroughput")) {
            throw ApiException.validation("One or more parameter values were invalid: Neither ReadCapacityUnits nor"
                    + " WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST");
        }
        if (billing.equals("PROVISIONED") && !request.has("ProvisionedThroughput")) {
            throw ApiException.validation("One or more parameter values were invalid: ReadCapacityUnits and"
                    + " WriteCapacityUnits must both be specified when BillingMode is PROVISIONED");
        }
        TableConstraints.checkBounds(request.get("ProvisionedThroughput"));
        KeySchema key = TableConstraints.keySchema(request.get("KeySchema"), types, true);
        if (request.path("LocalSecondaryIndexes").size() > 5) {
            throw ApiException.validation("One or more parameter values were invalid: Number of LocalSecondaryIndexes"
                    + " exceeds per-table limit of 5");
        }
        if (request.path("GlobalSecondaryIndexes").size() > 20) {
            throw ApiException.validation("One or more parameter values were invalid: Number of GlobalSecondaryIndexes"
                    + " exceeds per-table limit of 20");
        }
        if (billing.equals("PROVISIONED")) {
            JsonNode provisioned = request.get("ProvisionedThroughput");
            reads = provisioned.path("ReadCapacityUnits").asLong();
            writes = provisioned.path("WriteCapacityUnits").asLong();
        }
        List<IndexSpec> indexes = new ArrayList<>();
        for (JsonNode node : request.path("LocalSecondaryIndexes")) {
            KeySchema indexKey = TableConstraints.keySchema(node.get("KeySchema"), types, false);
            if (!key.hasSort() || !indexKey.partition().equals(key.partition())) {
                throw ApiException.validation("One or more parameter values were invalid: Table KeySchema does not have a"
                        + " range key, which is required when specifying a LocalSecondaryIndex");
            }
            indexes.add(new IndexSpec(Fields.text(node, "IndexName"), false, indexKey, projection(node), 0, 0, "ACTIVE"));
        }
        for (JsonNode node : request.path("GlobalSecondaryIndexes")) {
            indexes.add(globalIndex(node, types, billing, "ACTIVE"));
        }
        checkDistinctIndexes(indexes);
        checkAllDefinitionsUsed(types, key, indexes);
        String viewType = null;
        JsonNode stream = request.get("StreamSpecification");
        if (stream != null && stream.path("StreamEnabled").asBoolean(false)) {
            viewType = stream.path("StreamViewType").asText(null);
            if (viewType == null) {
                throw ApiException.validation("One or more parameter values were invalid: StreamViewType is required when"
                        + " StreamEnabled is true");
            }
        }
        TableSpec spec = new TableSpec(name, UUID.randomUUID().toString(), clock.instant(), key, types, billing, reads,
                writes, indexes, null, null, null, "ACTIVE", TagApi.declaredTags(request.get("Tags")));
        Table table = tables.create(spec);
        if (viewType != null) {
            String label = streams.enable(spec, viewType);
            spec = spec.withStream(viewType, label);
            table.respec(spec);
        }
        declared.accept(spec);
        ObjectNode response = NODES.objectNode();
        response.set("TableDescription", describe(table));
        return response;
    }

    public ObjectNode describeTable(JsonNode request) {
        Table table = tables.require(TableNames.required(request));
        ObjectNode response = NODES.objectNode();
        response.set("Table", describe(table));
        return response;
    }

    public ObjectNode deleteTable(JsonNode request) {
        String name = TableNames.required(request);
        Table table = tables.require(name);
        ObjectNode description = describe(table);
        description.put("TableStatus", "DELETING");
        tables.remove(name);
        streams.tableDeleted(name);
        deleted.accept(name);
        ObjectNode response = NODES.objectNode();
        response.set("TableDescription", description);
        return response;
    }

    public ObjectNode listTables(JsonNode request) {
        String start = Fields.text(request, "ExclusiveStartTableName");
        Integer limit = Fields.integer(request, "Limit");
        if (limit != null && (limit < 1 || limit > 100)) {
            throw ApiException.validation("1 validation error detected: Value '" + limit + "' at 'limit' failed to"
                    + " satisfy constraint: Member must have value " + (limit < 1 ? "greater than or equal to 1"
                    : "less than or equal to 100"));
        }
        int max = limit == null ? 100 : limit;
        ObjectNode response = NODES.objectNode();
        ArrayNode names = response.putArray("TableNames");
        List<String> all = tables.names();
        for (String name : all) {
            if (start != null && name.compareTo(start) <= 0) {
                continue;
            }
            if (names.size() == max) {
                response.put("LastEvaluatedTableName", names.get(names.size() - 1).asText());
                break;
            }
            names.add(name);
        }
        return response;
    }

    public ObjectNode updateTable(JsonNode request) {
        String name = TableNames.required(request);
        TableConstraints.updateTable(request);
        Table table = tables.require(name);
        if (!request.has("ProvisionedThroughput") && !request.has("BillingMode") && !request.has("StreamSpecification")
                && !request.has("GlobalSecondaryIndexUpdates") && !request.has("SSESpecification")
                && !request.has("ReplicaUpdates") && !request.has("TableClass")
                && !request.has("DeletionProtectionEnabled")) {
            throw ApiException.validation("At least one of ProvisionedThroughput, BillingMode, UpdateStreamEnabled,"
                    + " GlobalSecondaryIndexUpdates or SSESpecification or ReplicaUpdates is required");
        }
        ObjectNode response;
        synchronized (table) {
            TableSpec spec = table.spec();
            Map<String, String> types = new HashMap<>(spec.attributeTypes());
            for (JsonNode node : request.path("AttributeDefinitions")) {
                types.put(node.path("AttributeName").asText(), node.path("AttributeType").asText());
            }
            spec = spec.withAttributeTypes(types);
            String billing = Fields.text(request, "BillingMode");
            if (billing != null || request.has("ProvisionedThroughput")) {
                JsonNode provisioned = request.path("ProvisionedThroughput");
                String mode = billing == null ? spec.billingMode() : billing;
                if (mode.equals("PAY_PER_REQUEST")) {
                    if (request.has("ProvisionedThroughput")) {
                        throw ApiException.validation("One or more parameter values were invalid: Neither"
                                + " ReadCapacityUnits nor WriteCapacityUnits can be specified when BillingMode is"
                                + " PAY_PER_REQUEST");
                    }
                    spec = spec.withBilling(mode, 0, 0);
                } else {
                    long reads = provisioned.path("ReadCapacityUnits").asLong(spec.readUnits());
                    long writes = provisioned.path("WriteCapacityUnits").asLong(spec.writeUnits());
                    if (request.has("ProvisionedThroughput") && spec.billingMode().equals("PROVISIONED")
                            && reads == spec.readUnits() && writes == spec.writeUnits()) {
                        throw ApiException.validation("The provisioned throughput for the table will not change. The"
                                + " requested value equals the current value. Current ReadCapacityUnits provisioned for"
                                + " the table: " + reads + ". Requested ReadCapacityUnits: " + reads + ". Current"
                                + " WriteCapacityUnits provisioned for the table: " + writes + ". Requested"
                                + " WriteCapacityUnits: " + writes + ". Refer to the Amazon DynamoDB Developer Guide for"
                                + " current limits and how to request higher limits.");
                    }
                    spec = spec.withBilling(mode, reads, writes);
                }
            }
            List<IndexSpec> created = new ArrayList<>();
            for (JsonNode update : request.path("GlobalSecondaryIndexUpdates")) {
                if (update.has("Create")) {
                    IndexSpec index = globalIndex(update.get("Create"), types, spec.billingMode(), "CREATING");
                    if (spec.index(index.name()).isPresent()) {
                        throw ApiException.validation("One or more parameter values were invalid: Index with name: "
                                + index.name() + " already exists");
                    }
                    List<IndexSpec> list = new ArrayList<>(spec.indexes());
                    list.add(index);
                    spec = spec.withIndexes(list);
                    created.add(index);
                } else if (update.has("Delete")) {
                    String indexName = update.get("Delete").path("IndexName").asText();
                    if (spec.index(indexName).filter(IndexSpec::global).isEmpty()) {
                        throw ApiException.resourceNotFound("Requested resource not found: Index: " + indexName
                                + " not found");
                    }
                    List<IndexSpec> list = new ArrayList<>(spec.indexes());
                    list.removeIf(index -> index.name().equals(indexName));
                    spec = spec.withIndexes(list);
                } else if (update.has("Update")) {
                    String indexName = update.get("Update").path("IndexName").asText();
                    if (spec.index(indexName).isEmpty()) {
                        throw ApiException.resourceNotFound("Requested resource not found: Index: " + indexName
                                + " not found");
                    }
                }
            }
            JsonNode stream = request.get("StreamSpecification");
            if (stream != null) {
                boolean enable = stream.path("StreamEnabled").asBoolean(false);
                if (enable && spec.streamViewType() != null) {
                    throw ApiException.validation("Table already has an enabled stream: TableName: " + name);
                }
                if (!enable && spec.streamViewType() == null) {
                    throw ApiException.validation("Table already has stream disabled: TableName: " + name);
                }
                if (enable) {
                    String viewType = stream.path("StreamViewType").asText(null);
                    if (viewType == null) {
                        throw ApiException.validation("One or more parameter values were invalid: StreamViewType is"
                                + " required when StreamEnabled is true");
                    }
                    spec = spec.withStream(viewType, streams.enable(spec, viewType));
                } else {
                    streams.disable(name);
                    spec = spec.withStream(null, spec.streamLabel());
                }
            }
            table.respec(spec);
            declared.accept(spec);
            // Described before any backfill starts: the answer shows a new index CREATING, as DynamoDB's does.
            response = NODES.objectNode();
            response.set("TableDescription", describe(table));
            for (IndexSpec index : created) {
                backfills.execute(() -> backfill(table, index));
            }
        }
        return response;
    }

    /** Fills a new index from the table's items, then marks it ACTIVE; writes meanwhile keep it up to date. */
    private void backfill(Table table, IndexSpec index) {
        for (RowKey key : table.keys()) {
            if (table.spec().index(index.name()).isEmpty()) {
                return; // deleted while filling
            }
            table.backfill(index, key);
        }
        synchronized (table) {
            table.spec().index(index.name()).ifPresent(current -> {
                TableSpec spec = table.spec().withIndex(current.withStatus("ACTIVE"));
                table.respec(spec);
                declared.accept(spec);
            });
        }
    }

    public ObjectNode updateTimeToLive(JsonNode request) {
        String name = TableNames.required(request);
        JsonNode specification = request.get("TimeToLiveSpecification");
        TableConstraints.timeToLive(specification);
        Table table = tables.require(name);
        boolean enable = specification.path("Enabled").asBoolean(false);
        String attribute = specification.path("AttributeName").asText(null);
        synchronized (table) {
            TableSpec spec = table.spec();
            if (enable && spec.ttlAttribute() != null) {
                throw ApiException.validation("TimeToLive is already enabled");
            }
            if (!enable && spec.ttlAttribute() == null) {
                throw ApiException.validation("TimeToLive is already disabled");
            }
            spec = spec.withTtl(enable ? attribute : null);
            table.respec(spec);
            declared.accept(spec);
        }
        ObjectNode response = NODES.objectNode();
        ObjectNode echoed = response.putObject("TimeToLiveSpecification");
        echoed.put("AttributeName", attribute);
        echoed.put("Enabled", enable);
        return response;
    }

    public ObjectNode tagResource(JsonNode request) {
        return tags.tagResource(request);
    }

    public ObjectNode untagResource(JsonNode request) {
        return tags.untagResource(request);
    }

    public ObjectNode listTagsOfResource(JsonNode request) {
        return tags.listTagsOfResource(request);
    }

    public ObjectNode describeTimeToLive(JsonNode request) {
        Table table = tables.require(TableNames.required(request));
        ObjectNode response = NODES.objectNode();
        ObjectNode description = response.putObject("TimeToLiveDescription");
        String attribute = table.spec().ttlAttribute();
        description.put("TimeToLiveStatus", attribute == null ? "DISABLED" : "ENABLED");
        if (attribute != null) {
            description.put("AttributeName", attribute);
        }
        return response;
    }

    /** The table as DescribeTable shows it. */
    ObjectNode describe(Table table) {
        TableSpec spec = table.spec();
        ObjectNode node = NODES.objectNode();
        ArrayNode definitions = node.putArray("AttributeDefinitions");
        new java.util.TreeMap<>(spec.attributeTypes()).forEach((attribute, type) -> {
            ObjectNode definition = definitions.addObject();
            definition.put("AttributeName", attribute);
            definition.put("AttributeType", type);
        });
        node.put("TableName", spec.name());
        node.set("KeySchema", keySchemaJson(spec.key()));
        node.put("TableStatus", spec.status());
        node.put("CreationDateTime", spec.created().toEpochMilli() / 1000.0);
        node.set("ProvisionedThroughput", throughput(spec.readUnits(), spec.writeUnits()));
        node.put("TableSizeBytes", table.sizeBytes());
        node.put("ItemCount", table.itemCount());
        node.put("TableArn", spec.arn(region));
        node.put("TableId", spec.tableId());
        ObjectNode billing = node.putObject("BillingModeSummary");
        billing.put("BillingMode", spec.billingMode().equals("PAY_PER_REQUEST") ? "PAY_PER_REQUEST" : "PROVISIONED");
        ArrayNode locals = NODES.arrayNode();
        ArrayNode globals = NODES.arrayNode();
        for (IndexSpec index : spec.indexes()) {
            ObjectNode description = NODES.objectNode();
            description.put("IndexName", index.name());
            description.set("KeySchema", keySchemaJson(index.key()));
            ObjectNode projection = description.putObject("Projection");
            projection.put("ProjectionType", index.projection().type());
            if (!index.projection().nonKeyAttributes().isEmpty()) {
                ArrayNode attributes = projection.putArray("NonKeyAttributes");
                index.projection().nonKeyAttributes().forEach(attributes::add);
            }
            description.put("IndexSizeBytes", table.indexSizeBytes(index.name()));
            description.put("ItemCount", table.indexItemCount(index.name()));
            description.put("IndexArn", spec.arn(region) + "/index/" + index.name());
            if (index.global()) {
                description.put("IndexStatus", index.status());
                if (index.status().equals("CREATING")) {
                    description.put("Backfilling", true);
                }
                description.set("ProvisionedThroughput", throughput(index.readUnits(), index.writeUnits()));
                globals.add(description);
            } else {
                locals.add(description);
            }
        }
        if (!locals.isEmpty()) {
            node.set("LocalSecondaryIndexes", locals);
        }
        if (!globals.isEmpty()) {
            node.set("GlobalSecondaryIndexes", globals);
        }
        if (spec.streamViewType() != null) {
            ObjectNode stream = node.putObject("StreamSpecification");
            stream.put("StreamEnabled", true);
            stream.put("StreamViewType", spec.streamViewType());
        }
        if (spec.streamLabel() != null) {
            node.put("LatestStreamLabel", spec.streamLabel());
            node.put("LatestStreamArn", spec.arn(region) + "/stream/" + spec.streamLabel());
        }
        node.put("DeletionProtectionEnabled", false);
        return node;
    }

    private static ObjectNode throughput(long reads, long writes) {
        ObjectNode node = NODES.objectNode();
        node.put("NumberOfDecreasesToday", 0);
        node.put("ReadCapacityUnits", reads);
        node.put("WriteCapacityUnits", writes);
        return node;
    }

    private static ArrayNode keySchemaJson(KeySchema key) {
        ArrayNode array = NODES.arrayNode();
        ObjectNode hash = array.addObject();
        hash.put("AttributeName", key.partition());
        hash.put("KeyType", "HASH");
        if (key.hasSort()) {
            ObjectNode range = array.addObject();
            range.put("AttributeName", key.sort());
            range.put("KeyType", "RANGE");
        }
        return array;
    }

    private IndexSpec globalIndex(JsonNode node, Map<String, String> types, String billing, String status) {
        String indexName = Fields.text(node, "IndexName");
        KeySchema indexKey = TableConstraints.keySchema(node.get("KeySchema"), types, false);
        JsonNode provisioned = node.get("ProvisionedThroughput");
        if (billing.equals("PROVISIONED") && provisioned == null) {
            throw ApiException.validation("One or more parameter values were invalid: ProvisionedThroughput must be"
                    + " specified for index: " + indexName);
        }
        long reads = provisioned == null ? 0 : provisioned.path("ReadCapacityUnits").asLong();
        long writes = provisioned == null ? 0 : provisioned.path("WriteCapacityUnits").asLong();
        return new IndexSpec(indexName, true, indexKey, projection(node), reads, writes, status);
    }

    private static Projection projection(JsonNode index) {
        JsonNode node = index.get("Projection");
        if (node == null) {
            throw ApiException.validation("1 validation error detected: Value null at 'projection' failed to satisfy"
                    + " constraint: Member must not be null");
        }
        String type = node.path("ProjectionType").asText("ALL");
        List<String> attributes = new ArrayList<>();
        node.path("NonKeyAttributes").forEach(attribute -> attributes.add(attribute.asText()));
        if (!type.equals("INCLUDE") && !attributes.isEmpty()) {
            throw ApiException.validation("One or more parameter values were invalid: ProjectionType is " + type
                    + ", but NonKeyAttributes is specified");
        }
        if (!type.equals("ALL") && !type.equals("KEYS_ONLY") && !type.equals("INCLUDE")) {
            throw ApiException.validation("1 validation error detected: Value '" + type + "' at"
                    + " 'projection.projectionType' failed to satisfy constraint: Member must satisfy enum value set:"
                    + " [ALL, INCLUDE, KEYS_ONLY]");
        }
        return new Projection(type, attributes);
    }

    private static Map<String, String> attributeTypes(JsonNode request) {
        Map<String, String> types = new LinkedHashMap<>();
        for (JsonNode node : request.path("AttributeDefinitions")) {
            String type = node.path("AttributeType").asText();
            if (!type.equals("S") && !type.equals("N") && !type.equals("B")) {
                throw ApiException.validation("1 validation error detected: Value '" + type + "' at"
                        + " 'attributeDefinitions.member.attributeType' failed to satisfy constraint: Member must satisfy"
                        + " enum value set: [B, N, S]");
            }
            types.put(node.path("AttributeName").asText(), type);
        }
        return types;
    }

    private static void checkDistinctIndexes(List<IndexSpec> indexes) {
        java.util.Set<String> names = new java.util.HashSet<>();
        for (IndexSpec index : indexes) {
            if (!names.add(index.name())) {
                throw ApiException.validation("One or more parameter values were invalid: Duplicate index name: "
                        + index.name());
            }
        }
    }

    private static void checkAllDefinitionsUsed(Map<String, String> types, KeySchema key, List<IndexSpec> indexes) {
        java.util.Set<String> used = new java.util.HashSet<>();
        used.add(key.partition());
        if (key.hasSort()) {
            used.add(key.sort());
        }
        for (IndexSpec index : indexes) {
            used.add(index.key().partition());
            if (index.key().hasSort()) {
                used.add(index.key().sort());
            }
        }
        if (!used.containsAll(types.keySet()) || types.size() != used.size()) {
            throw ApiException.validation("One or more parameter values were invalid: Number of attributes in KeySchema"
                    + " does not exactly match number of attributes defined in AttributeDefinitions");
        }
    }
}
