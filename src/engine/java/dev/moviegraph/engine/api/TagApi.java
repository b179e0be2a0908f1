package dev.moviegraph.engine.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.moviegraph.engine.error.ApiException;
import dev.moviegraph.engine.table.Table;
import dev.moviegraph.engine.table.TableSpec;
import dev.moviegraph.engine.table.Tables;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * TagResource, UntagResource and ListTagsOfResource on a table, named by its ARN. The tags live in the table's
 * {@link TableSpec} (so the journal keeps them as it keeps the rest of the declaration); a change is seen at once
 * (DynamoDB's is eventually consistent, which a client has to allow for anyway).
 */
public final class TagApi {
    /** DynamoDB's limit of tags on one resource. */
    static final int MAX_TAGS = 50;
    static final int MAX_KEY = 128;
    static final int MAX_VALUE = 256;
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final Pattern TABLE_ARN = Pattern.compile("arn:aws:dynamodb:([^:]+):([^:]+):table/([^/]*)");

    private final Tables tables;
    private final String region;
    private final Consumer<TableSpec> declared;

    public TagApi(Tables tables, String region, Consumer<TableSpec> declared) {
        this.tables = tables;
        this.region = region;
        this.declared = declared;
    }

    public ObjectNode tagResource(JsonNode request) {
        Violations violations = new Violations();
        JsonNode tagsNode = request.get("Tags");
        Map<String, String> tags = tags(tagsNode, true, violations);
        String arn = Fields.text(request, "ResourceArn");
        violations.length("resourceArn", arn, 1, 1283);
        violations.check();
        String name = tableName(arn);
        if (tags.isEmpty()) {
            throw ApiException.validation("Atleast one Tag needs to be provided as Input.");
        }
        checkKeysNotReserved(tags.keySet());
        Table table = find(arn, name);
        if (table == null) {
            throw ApiException.resourceNotFound("Requested resource not found: ResourcArn: " + arn + " not found");
        }
        synchronized (table) {
            Map<String, String> merged = new TreeMap<>(table.spec().tags());
            merged.putAll(tags);
            checkCount(merged.size());
            TableSpec spec = table.spec().withTags(merged);
            table.respec(spec);
            declared.accept(spec);
        }
        return NODES.objectNode();
    }

    public ObjectNode untagResource(JsonNode request) {
        Violations violations = new Violations();
        JsonNode keysNode = request.get("TagKeys");
        List<String> keys = new ArrayList<>();
        if (keysNode == null || keysNode.isNull()) {
            violations.notNull("tagKeys");
        } else {
            int i = 0;
            for (JsonNode key : keysNode) {
                i++;
                if (!key.isTextual()) {
                    throw ApiException.serialization("Unexpected value type in payload for TagKeys");
                }
                violations.length("tagKeys." + i + ".member", key.textValue(), 1, MAX_KEY);
                keys.add(key.textValue());
            }
        }
        String arn = Fields.text(request, "ResourceArn");
        violations.length("resourceArn", arn, 1, 1283);
        violations.check();
        String name = tableName(arn);
        if (keys.isEmpty()) {
            throw ApiException.validation("Atleast one Tag Key needs to be provided as Input.");
        }
        checkKeysNotReserved(keys);
        Table table = find(arn, name);
        if (table == null) {
            throw ApiException.resourceNotFound("Requested resource not found");
        }
        synchronized (table) {
            Map<String, String> remaining = new TreeMap<>(table.spec().tags());
            if (remaining.keySet().removeAll(keys)) {
                TableSpec spec = table.spec().withTags(remaining);
                table.respec(spec);
                declared.accept(spec);
            }
        }
        return NODES.objectNode();
    }

    /**
     * The tags in key order. NextToken is taken (the tags after that key) but never given: DynamoDB answers all of
     * a resource's tags, at most 50, in one page.
     */
    public ObjectNode listTagsOfResource(JsonNode request) {
        String arn = Fields.text(request, "ResourceArn");
        Violations violations = new Violations();
        violations.length("resourceArn", arn, 1, 1283);
        violations.check();
        String name = tableName(arn);
        String after = Fields.text(request, "NextToken");
        Table table = find(arn, name);
        if (table == null) {
            // What DynamoDB answers for the ARN of a table it does not have (IAM is asked before the table is looked up).
            throw new ApiException("com.amazon.coral.service#AccessDeniedException", 400, "User: arn:aws:iam::"
                    + TableSpec.ACCOUNT + ":root is not authorized to perform: dynamodb:ListTagsOfResource on resource: "
                    + arn, Map.of());
        }
        ObjectNode response = NODES.objectNode();
        ArrayNode list = response.putArray("Tags");
        table.spec().tags().forEach((key, value) -> {
            if (after == null || key.compareTo(after) > 0) {
                ObjectNode tag = list.addObject();
                tag.put("Key", key);
                tag.put("Value", value);
            }
        });
        return response;
    }

    /**
     * A Tags member (of TagResource or CreateTable) read and its members' constraints checked into
     * {@code violations}; a key given twice keeps its last value. Empty when the member is absent and not required.
     */
    static Map<String, String> tags(JsonNode node, boolean required, Violations violations) {
        Map<String, String> tags = new LinkedHashMap<>();
        if (node == null || node.isNull()) {
            if (required) {
                violations.notNull("tags");
            }
            return tags;
        }
        if (!node.isArray()) {
            throw ApiException.serialization("Unexpected value type in payload for Tags");
        }
        int i = 0;
        for (JsonNode tag : node) {
            i++;
            String key = Fields.text(tag, "Key");
            String value = Fields.text(tag, "Value");
            String member = "tags." + i + ".member.";
            if (key == null) {
                violations.notNull(member + "key");
            }
            violations.length(member + "key", key, 1, MAX_KEY);
            if (value == null) {
                violations.notNull(member + "value");
            }
            violations.length(member + "value", value, 0, MAX_VALUE);
            if (key != null && value != null) {
                tags.put(key, value);
            }
        }
        return tags;
    }

    /** CreateTable's Tags (their member constraints already checked), refused when reserved or too many. */
    static Map<String, String> declaredTags(JsonNode node) {
        Map<String, String> tags = tags(node, false, new Violations());
        checkKeysNotReserved(tags.keySet());
        checkCount(tags.size());
        return tags;
    }

    /** Keys beginning aws: are AWS's own: a user may neither set nor remove one. */
    static void checkKeysNotReserved(Iterable<String> keys) {
        for (String key : keys) {
            if (key.startsWith("aws:")) {
                throw ApiException.validation("One or more parameter values were invalid: Tag keys starting with"
                        + " 'aws:' are reserved for system use. Key: " + key);
            }
        }
    }

    static void checkCount(int count) {
        if (count > MAX_TAGS) {
            throw ApiException.validation("One or more parameter values were invalid: Too many tags: tag limit is "
                    + MAX_TAGS);
        }
    }

    /** The table name in a table's ARN, or DynamoDB's ValidationException for what is not one. */
    private static String tableName(String arn) {
        if (arn == null) {
            throw ApiException.validation("Invalid TableArn");
        }
        Matcher matcher = TABLE_ARN.matcher(arn);
        if (!matcher.matches() || !TableNames.isValid(matcher.group(3))) {
            throw ApiException.validation("Invalid TableArn: Invalid ResourceArn provided as input " + arn);
        }
        return matcher.group(3);
    }

    /** The table the ARN names, when it is in this engine's region and account; else null. */
    private Table find(String arn, String name) {
        Matcher matcher = TABLE_ARN.matcher(arn);
        if (!matcher.matches() || !matcher.group(1).equals(region) || !matcher.group(2).equals(TableSpec.ACCOUNT)) {
            return null;
        }
        return tables.find(name);
    }
}
