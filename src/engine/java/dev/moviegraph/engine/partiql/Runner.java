package dev.moviegraph.engine.partiql;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.POJONode;

import dev.moviegraph.engine.api.ItemApi;
import dev.moviegraph.engine.api.ReadApi;
import dev.moviegraph.engine.error.ApiException;
import dev.moviegraph.engine.partiql.Ast.Path;

import java.util.List;

/**
 * Sends a plan's request to its operation and reads the answer back as PartiQL's: the items found (or the
 * item a write returns), the key to go on from, the capacity consumed.
 */
final class Runner {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final String DUPLICATE = "com.amazonaws.dynamodb.v20120810#DuplicateItemException";

    /** What one statement gave: its items in wire form, the LastEvaluatedKey of a read that stopped early. */
    record Result(ArrayNode items, JsonNode lastKey, JsonNode consumed) {
    }

    private final ItemApi items;
    private final ReadApi reads;

    Runner(ItemApi items, ReadApi reads) {
        this.items = items;
        this.reads = reads;
    }

    /**
     * Runs the plan; {@code options} holds what the caller's request adds (ReturnConsumedCapacity,
     * ConsistentRead, Limit, ExclusiveStartKey, ReturnValuesOnConditionCheckFailure), each where it applies.
     */
    Result run(Plan plan, ObjectNode options) {
        ObjectNode request = plan.request().deepCopy();
        copy(options, request, "ReturnConsumedCapacity");
        ArrayNode found = JsonNodeFactory.instance.arrayNode();
        ObjectNode answer;
        switch (plan.operation()) {
            case GET -> {
                copy(options, request, "ConsistentRead");
                answer = items.getItem(request);
                if (answer.has("Item")) {
                    found.add(shown(answer.get("Item"), plan.projection()));
                }
            }
            case QUERY, SCAN -> {
                copy(options, request, "ConsistentRead");
                copy(options, request, "Limit");
                copy(options, request, "ExclusiveStartKey");
                answer = plan.operation() == Plan.Operation.QUERY ? reads.query(request) : reads.scan(request);
                answer.get("Items").forEach(item -> found.add(shown(item, plan.projection())));
            }
            case PUT -> {
                try {
                    answer = items.putItem(request);
                } catch (ApiException e) {
                    throw e.type().endsWith("#ConditionalCheckFailedException") ? duplicate() : e;
                }
            }
            default -> {
                copy(options, request, "ReturnValuesOnConditionCheckFailure");
                answer = plan.operation() == Plan.Operation.UPDATE ? items.updateItem(request) : items.deleteItem(request);
                if (answer.has("Attributes")) {
                    found.add(answer.get("Attributes"));
                }
            }
        }
        return new Result(found, answer.get("LastEvaluatedKey"), answer.get("ConsumedCapacity"));
    }

    static ApiException duplicate() {
        return new ApiException(DUPLICATE, 400, "Duplicate primary key exists in table", java.util.Map.of());
    }

    private static void copy(ObjectNode from, ObjectNode to, String field) {
        if (from != null && from.hasNonNull(field)) {
            to.set(field, from.get(field));
        }
    }

    /**
     * An item as a SELECT shows it: the projected paths' values each under the path's last name
     * ({@code SELECT a.b} gives {@code b}); the item as it is for {@code *} or top-level names.
     */
    static JsonNode shown(JsonNode item, List<Path> projection) {
        if (projection.stream().allMatch(Path::isTopLevel)) {
            return item;
        }
        JsonNode tree = item instanceof POJONode pojo ? MAPPER.valueToTree(pojo.getPojo()) : item;
        ObjectNode shown = JsonNodeFactory.instance.objectNode();
        for (Path path : projection) {
            JsonNode value = at(tree, path);
            if (value != null) {
                shown.set(path.lastName(), value);
            }
        }
        return shown;
    }

    private static JsonNode at(JsonNode item, Path path) {
        JsonNode value = item.get(path.first());
        for (Ast.Step step : path.steps().subList(1, path.steps().size())) {
            if (value == null) {
                return null;
            }
            value = step instanceof Ast.Name name ? child(value.get("M"), name.name())
                    : child(value.get("L"), ((Ast.Index) step).index());
        }
        return value;
    }

    private static JsonNode child(JsonNode container, String name) {
        return container == null ? null : container.get(name);
    }

    private static JsonNode child(JsonNode container, int index) {
        return container == null ? null : container.get(index);
    }
}
