package dev.moviegraph.engine.api;

import com.fasterxml.jackson.databind.JsonNode;

import dev.moviegraph.engine.error.ApiException;
import dev.moviegraph.engine.table.KeySchema;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The checks DynamoDB makes of CreateTable, UpdateTable and UpdateTimeToLive before it looks at any table: first
 * every member constraint (null, length, enum, range), all reported together, then the key schema's rules one by
 * one, with DynamoDB's messages. What depends on the table as it stands is checked by {@link TableApi}.
 */
final class TableConstraints {
    /** DynamoDB's largest provisioned throughput a request may name. */
    private static final long MAX_UNITS = 1_000_000_000_000L;

    private TableConstraints() {
    }

    /** CreateTable's members, in the order DynamoDB lists their violations; the TableName when all hold. */
    static String createTable(JsonNode request) {
        String name = Fields.text(request, "TableName");
        if (name == null) {
            throw ApiException.validation("The parameter 'TableName' is required but was not present in the request");
        }
        Violations violations = new Violations();
        JsonNode definitions = request.get("AttributeDefinitions");
        if (definitions == null || definitions.isNull()) {
            violations.notNull("attributeDefinitions");
        } else {
            attributeDefinitions(definitions, violations);
        }
        violations.addAll(TableNames.violations(name, TableNames.MIN_DECLARED));
        String billing = Fields.text(request, "BillingMode");
        if (billing != null && !billing.equals("PROVISIONED") && !billing.equals("PAY_PER_REQUEST")) {
            violations.enumeration("billingMode", billing, "[PROVISIONED, PAY_PER_REQUEST]");
        }
        throughput(request.get("ProvisionedThroughput"), violations);
        keySchemaMembers(request.get("KeySchema"), violations);
        TagApi.tags(request.get("Tags"), false, violations);
        violations.check();
        return name;
    }

    /** Each AttributeDefinition: a name, and a type of S, N or B. */
    private static void attributeDefinitions(JsonNode definitions, Violations violations) {
        int i = 0;
        for (JsonNode definition : definitions) {
            i++;
            String member = "attributeDefinitions." + i + ".member.";
            String attribute = Fields.text(definition, "AttributeName");
            String type = Fields.text(definition, "AttributeType");
            if (attribute == null) {
                violations.notNull(member + "attributeName");
            }
            if (type == null) {
                violations.notNull(member + "attributeType");
            } else if (!type.equals("S") && !type.equals("N") && !type.equals("B")) {
                violations.enumeration(member + "attributeType", type, "[B, N, S]");
            }
        }
    }

    /**
     * UpdateTable's members: its ProvisionedThroughput, its AttributeDefinitions, and a name for each index it
     * creates (a fuzzed request without them once reached the index's creation and failed there).
     */
    static void updateTable(JsonNode request) {
        Violations violations = new Violations();
        JsonNode definitions = request.get("AttributeDefinitions");
        if (definitions != null && !definitions.isNull()) {
            attributeDefinitions(definitions, violations);
        }
        int i = 0;
        for (JsonNode update : request.path("GlobalSecondaryIndexUpdates")) {
            i++;
            for (String action : new String[] {"Create", "Update", "Delete"}) {
                JsonNode body = update.get(action);
                if (body != null && !body.isNull() && Fields.text(body, "IndexName") == null) {
                    violations.notNull("globalSecondaryIndexUpdates." + i + ".member." + action.toLowerCase(
                            java.util.Locale.ROOT) + ".indexName");
                }
            }
        }
        throughput(request.get("ProvisionedThroughput"), violations);
        violations.check();
        checkBounds(request.get("ProvisionedThroughput"));
    }

    /** UpdateTimeToLive's TimeToLiveSpecification members. */
    static void timeToLive(JsonNode specification) {
        Violations violations = new Violations();
        if (specification == null || specification.isNull()) {
            violations.notNull("timeToLiveSpecification");
        } else {
            String attribute = Fields.text(specification, "AttributeName");
            if (attribute == null) {
                violations.notNull("timeToLiveSpecification.attributeName");
            }
            violations.length("timeToLiveSpecification.attributeName", attribute, 1, 255);
            JsonNode enabled = specification.get("Enabled");
            if (enabled == null || enabled.isNull()) {
                violations.notNull("timeToLiveSpecification.enabled");
            }
        }
        violations.check();
    }

    /** The refusals of a throughput out of DynamoDB's bounds, after the member constraints held. */
    static void checkBounds(JsonNode throughput) {
        if (throughput == null || throughput.isNull()) {
            return;
        }
        for (String member : List.of("ReadCapacityUnits", "WriteCapacityUnits")) {
            long units = throughput.path(member).asLong();
            if (units > MAX_UNITS) {
                throw ApiException.validation("Given value " + units + " for " + member + " is out of bounds");
            }
        }
    }

    /**
     * A table's or an index's KeySchema against the attribute definitions, checked in DynamoDB's order: enough
     * definitions, each key attribute defined, two different attributes, HASH first, RANGE second.
     */
    static KeySchema keySchema(JsonNode node, Map<String, String> types, boolean table) {
        if (node == null || !node.isArray() || node.isEmpty()) {
            throw ApiException.validation("1 validation error detected: Value null at 'keySchema' failed to satisfy"
                    + " constraint: Member must not be null");
        }
        List<String> attributes = new ArrayList<>();
        node.forEach(element -> attributes.add(element.path("AttributeName").asText()));
        if (table && attributes.size() > types.size()) {
            throw ApiException.validation("Invalid KeySchema: Some index key attribute have no definition");
        }
        if (!types.keySet().containsAll(attributes)) {
            throw ApiException.validation("One or more parameter values were invalid: Some index key attributes are"
                    + " not defined in AttributeDefinitions. Keys: " + attributes + ", AttributeDefinitions: "
                    + types.keySet());
        }
        if (attributes.size() == 2 && attributes.get(0).equals(attributes.get(1))) {
            throw ApiException.validation("Both the Hash Key and the Range Key element in the KeySchema have the same"
                    + " name");
        }
        if (!node.get(0).path("KeyType").asText().equals("HASH")) {
            throw ApiException.validation("Invalid KeySchema: The first KeySchemaElement is not a HASH key type");
        }
        if (attributes.size() == 2 && !node.get(1).path("KeyType").asText().equals("RANGE")) {
            throw ApiException.validation("Invalid KeySchema: The second KeySchemaElement is not a RANGE key type");
        }
        String hash = attributes.get(0);
        String range = attributes.size() == 2 ? attributes.get(1) : null;
        return new KeySchema(hash, types.get(hash), range, range == null ? null : types.get(range));
    }

    private static void throughput(JsonNode throughput, Violations violations) {
        if (throughput == null || throughput.isNull()) {
            return;
        }
        // DynamoDB names WriteCapacityUnits' violation before ReadCapacityUnits'.
        for (String member : List.of("WriteCapacityUnits", "ReadCapacityUnits")) {
            String field = "provisionedThroughput." + Character.toLowerCase(member.charAt(0)) + member.substring(1);
            JsonNode units = throughput.get(member);
            if (units == null || units.isNull()) {
                violations.notNull(field);
            } else if (!units.isIntegralNumber()) {
                throw ApiException.serialization("NUMBER_VALUE cannot be converted to Long: " + member);
            } else {
                violations.atLeast(field, units.asLong(), 1);
            }
        }
    }

    private static void keySchemaMembers(JsonNode keySchema, Violations violations) {
        if (keySchema == null || keySchema.isNull()) {
            violations.notNull("keySchema");
            return;
        }
        if (keySchema.isEmpty()) {
            violations.add("Value '[]' at 'keySchema' failed to satisfy constraint: Member must have length greater"
                    + " than or equal to 1");
        } else if (keySchema.size() > 2) {
            List<String> shown = new ArrayList<>();
            keySchema.forEach(element -> shown.add("KeySchemaElement(attributeName="
                    + element.path("AttributeName").asText(null) + ", keyType=" + element.path("KeyType").asText(null)
                    + ")"));
            violations.add("Value '" + shown + "' at 'keySchema' failed to satisfy constraint: Member must have length"
                    + " less than or equal to 2");
        }
        int i = 0;
        for (JsonNode element : keySchema) {
            i++;
            String member = "keySchema." + i + ".member.";
            String keyType = Fields.text(element, "KeyType");
            if (Fields.text(element, "AttributeName") == null) {
                violations.notNull(member + "attributeName");
            }
            if (keyType == null) {
                violations.notNull(member + "keyType");
            } else if (!keyType.equals("HASH") && !keyType.equals("RANGE")) {
                violations.enumeration(member + "keyType", keyType, "[HASH, RANGE]");
            }
        }
    }
}
