package dev.moviegraph.engine.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.moviegraph.engine.error.ApiException;
import dev.moviegraph.engine.expr.Condition;
import dev.moviegraph.engine.expr.Expressions;
import dev.moviegraph.engine.expr.KeyCondition;
import dev.moviegraph.engine.expr.Placeholders;
import dev.moviegraph.engine.expr.Projection;
import dev.moviegraph.engine.expr.SortCondition;
import dev.moviegraph.engine.table.Capacity;
import dev.moviegraph.engine.table.IndexSpec;
import dev.moviegraph.engine.table.KeySchema;
import dev.moviegraph.engine.table.RowKey;
import dev.moviegraph.engine.table.Rows;
import dev.moviegraph.engine.table.StoredItem;
import dev.moviegraph.engine.table.Successor;
import dev.moviegraph.engine.table.Table;
import dev.moviegraph.engine.table.TableSpec;
import dev.moviegraph.engine.table.Tables;
import dev.moviegraph.engine.value.Value;
import dev.moviegraph.engine.value.Wire;
import dev.moviegraph.engine.value.WireItem;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Query and Scan: a range of one sorted store (the table's or an index's) read in order, a page ending at
 * Limit items evaluated or at 1 MB read, whichever comes first, with LastEvaluatedKey to go on from.
 */
public final class ReadApi {
    static final long PAGE_BYTES = 1024 * 1024;

    private final Tables tables;
    private final Throughput throughput;
    /** The bytes the page just read on this thread, charged to its partition once known. */
    private final ThreadLocal<Long> lastPageBytes = ThreadLocal.withInitial(() -> 0L);

    public ReadApi(Tables tables, Throughput throughput) {
        this.tables = tables;
        this.throughput = throughput;
    }

    /** Which store a read walks and the key it is ordered by. */
    private record Source(Table table, IndexSpec index, KeySchema key, Rows rows) {
        static Source of(Table table, String indexName) {
            if (indexName == null) {
                return new Source(table, null, table.spec().key(), table.rows());
            }
            IndexSpec index = table.spec().index(indexName).orElseThrow(() -> ApiException.validation(
                    "The table does not have the specified index: " + indexName));
            return new Source(table, index, index.key(), table.indexRows(indexName));
        }

        /** The store's position of a page's start key (ExclusiveStartKey). */
        RowKey position(Map<String, Value> start) {
            TableSpec spec = table.spec();
            RowKey tableKey = spec.key().keyOf(start);
            if (tableKey == null) {
                throw ApiException.validation("The provided starting key is invalid: The provided key element does not"
                        + " match the schema");
            }
            if (index == null) {
                return tableKey;
            }
            RowKey indexKey = index.key().keyOf(start);
            if (indexKey == null) {
                throw ApiException.validation("The provided starting key is invalid: The provided key element does not"
                        + " match the schema");
            }
            return indexKey.inIndex(tableKey);
        }

        /** The LastEvaluatedKey of an item: the table's key and, in an index, the index's key. */
        Map<String, Value> lastKey(StoredItem item) {
            Map<String, Value> key = new LinkedHashMap<>(table.spec().key().keyAttributes(item.attributes()));
            if (index != null) {
                key.putAll(index.key().keyAttributes(item.attributes()));
            }
            return key;
        }
    }

    public ObjectNode query(JsonNode request) {
        // Query's model words its Limit apart from Scan's: no value shown, 'Limit' capitalised
        Members.of(request).consumedCapacity().oneOf("Select", "select", Members.SELECT)
                .atLeast("Limit", "Limit", 1, false).check();
        Table table = tables.forItems(Fields.text(request, "TableName"));
        Source source = Source.of(table, Fields.text(request, "IndexName"));
        boolean consistent = consistent(request, source);
        Placeholders placeholders = placeholders(request);
        String keyText = Fields.text(request, "KeyConditionExpression");
        if (keyText == null) {
            throw ApiException.validation("Either the KeyConditions or KeyConditionExpression parameter must be specified"
                    + " in the request.");
        }
        KeyCondition keys = Expressions.keyCondition(keyText, placeholders, source.key().partition(), source.key().sort());
        Reading reading = reading(request, placeholders, source);
        if (!keys.partition().type().equals(source.key().partitionType())
                || keys.sort() != null && !keys.sort().low().type().equals(source.key().sortType())) {
            throw ApiException.validation("One or more parameter values were invalid: Condition parameter type does not"
                    + " match schema type");
        }
        Rows range = range(source.rows(), keys);
        if (!Fields.bool(request, "ScanIndexForward") && request.has("ScanIndexForward")) {
            range = range.descendingMap();
        }
        RowKey start = request.hasNonNull("ExclusiveStartKey") ? source.position(Wire.item(request.get("ExclusiveStartKey"))) : null;
        if (start != null) {
            range = range.tailMap(start, false);
        }
        ObjectNode page = page(request, source, range, reading, consistent);
        throughput.read(table, source.index() == null ? null : source.index().name(), keys.partition(),
                Capacity.read(lastPageBytes.get(), consistent));
        return page;
    }

    public ObjectNode scan(JsonNode request) {
        Members.of(request).consumedCapacity().oneOf("Select", "select", Members.SELECT)
                .atLeast("Limit", "limit", 1, true).check();
        Table table = tables.forItems(Fields.text(request, "TableName"));
        Source source = Source.of(table, Fields.text(request, "IndexName"));
        boolean consistent = consistent(request, source);
        Placeholders placeholders = placeholders(request);
        Reading reading = reading(request, placeholders, source);
        Rows range = source.rows();
        Integer segment = Fields.integer(request, "Segment");
        Integer total = Fields.integer(request, "TotalSegments");
        if (segment != null || total != null) {
            if (total == null) {
                throw ApiException.validation("The TotalSegments parameter is required but was not present in the request"
                        + " when Segment parameter is present");
            }
            if (segment == null) {
                throw ApiException.validation("The Segment parameter is required but was not present in the request when"
                        + " parameter TotalSegments is present");
            }
            if (total < 1 || total > 1_000_000 || segment < 0 || segment >= total) {
                throw ApiException.validation("The Segment parameter is zero-based and must be less than parameter"
                        + " TotalSegments: Segment: " + segment + " is not less than TotalSegments: " + total);
            }
            long low = (1L << 32) * segment / total;
            long high = (1L << 32) * (segment + 1) / total;
            range = high >= (1L << 32) ? range.tailMap(RowKey.hashStart((int) low), true)
                    : range.subMap(RowKey.hashStart((int) low), true, RowKey.hashStart((int) high), false);
        }
        if (request.hasNonNull("ExclusiveStartKey")) {
            RowKey start = source.position(Wire.item(request.get("ExclusiveStartKey")));
            try {
                range = range.tailMap(start, false);
            } catch (IllegalArgumentException outsideSegment) {
                // a segment is a slice of the key space: a start key of another slice is the client's mistake
                // (the request fuzzer's finding: this answered 500)
                throw ApiException.validation("The provided Exclusive start key does not map to the provided segment");
            }
        }
        return page(request, source, range, reading, consistent);
    }

    /** What a read returns of what it finds: the filter, the projection, whether only a count. */
    private record Reading(Condition filter, Projection projection, boolean countOnly, Integer limit,
                           boolean fromTable) {
    }

    private static Placeholders placeholders(JsonNode request) {
        return new Placeholders(Fields.names(request), Fields.values(request));
    }

    private static boolean consistent(JsonNode request, Source source) {
        boolean consistent = Fields.bool(request, "ConsistentRead");
        if (consistent && source.index() != null && source.index().global()) {
            throw ApiException.validation("Consistent reads are not supported on global secondary indexes");
        }
        return consistent;
    }

    private static Reading reading(JsonNode request, Placeholders placeholders, Source source) {
        String filterText = Fields.text(request, "FilterExpression");
        Condition filter = filterText == null ? null : Expressions.filter(filterText, placeholders);
        String projectionText = Fields.text(request, "ProjectionExpression");
        Projection projection = projectionText == null ? null : Expressions.projection(projectionText, placeholders);
        placeholders.requireAllUsed();
        if (filter != null && request.has("KeyConditionExpression")) {
            for (String name : filter.topLevelNames()) {
                if (source.key().isKey(name)) {
                    throw ApiException.validation("Filter Expression can only contain non-primary key attributes:"
                            + " Primary key attribute: " + name);
                }
            }
        }
        String select = Fields.text(request, "Select");
        if (select != null && select.equals("SPECIFIC_ATTRIBUTES") && projection == null) {
            throw ApiException.validation("Select type SPECIFIC_ATTRIBUTES requires ProjectionExpression or"
                    + " AttributesToGet");
        }
        if (select != null && projection != null && !select.equals("SPECIFIC_ATTRIBUTES")) {
            throw ApiException.validation("Cannot specify the ProjectionExpression when choosing to get "
                    + select.replace('_', ' '));
        }
        if (select != null && select.equals("ALL_PROJECTED_ATTRIBUTES") && source.index() == null) {
            throw ApiException.validation("ALL_PROJECTED_ATTRIBUTES can be used only when Querying using an IndexName");
        }
        Integer limit = Fields.integer(request, "Limit");
        boolean fromTable = false;
        IndexSpec index = source.index();
        if (index != null && !index.projection().type().equals("ALL")) {
            TableSpec spec = source.table().spec();
            boolean wantsMore = "ALL_ATTRIBUTES".equals(select) || projection != null && projection.topLevelNames()
                    .stream().anyMatch(name -> !index.projection().holds(name, spec.key(), index.key()));
            if (wantsMore && index.global()) {
                throw ApiException.validation("One or more parameter values were invalid: "
                        + ("ALL_ATTRIBUTES".equals(select) ? "Select type ALL_ATTRIBUTES is not supported for global"
                        + " secondary index " + index.name() + " because its projection type is not ALL"
                        : "Global secondary index " + index.name() + " does not project the attributes asked for"));
            }
            fromTable = wantsMore; // a local index fetches what it lacks from the table, as DynamoDB does
        }
        return new Reading(filter, projection, "COUNT".equals(select), limit, fromTable);
    }

    /** The rows of the key condition: one partition, narrowed by the sort key condition. */
    private static Rows range(Rows rows, KeyCondition keys) {
        Value pk = keys.partition();
        RowKey first = RowKey.partitionStart(pk);
        RowKey last = RowKey.partitionEnd(pk);
        SortCondition sort = keys.sort();
        if (sort == null) {
            return rows.subMap(first, true, last, true);
        }
        Value v = sort.low();
        return switch (sort.op()) {
            case EQ -> rows.subMap(RowKey.at(pk, v, false), true, RowKey.at(pk, v, true), true);
            case LT -> rows.subMap(first, true, RowKey.at(pk, v, false), false);
            case LE -> rows.subMap(first, true, RowKey.at(pk, v, true), true);
            case GT -> rows.subMap(RowKey.at(pk, v, true), false, last, true);
            case GE -> rows.subMap(RowKey.at(pk, v, false), true, last, true);
            case BETWEEN -> {
                if (dev.moviegraph.engine.value.Ordering.compareKeys(v, sort.high()) > 0) {
                    throw ApiException.validation("Invalid KeyConditionExpression: The BETWEEN operator requires upper"
                            + " bound to be greater than or equal to lower bound; lower bound operand: AttributeValue: {"
                            + v.type() + ":" + text(v) + "}, upper bound operand: AttributeValue: {" + sort.high().type()
                            + ":" + text(sort.high()) + "}");
                }
                yield rows.subMap(RowKey.at(pk, v, false), true, RowKey.at(pk, sort.high(), true), true);
            }
            case BEGINS_WITH -> {
                Value next = Successor.of(v);
                yield next == null ? rows.subMap(RowKey.at(pk, v, false), true, last, true)
                        : rows.subMap(RowKey.at(pk, v, false), true, RowKey.at(pk, next, false), false);
            }
        };
    }

    private static String text(Value v) {
        return v instanceof Value.S s ? s.value() : v instanceof Value.N n ? n.text() : String.valueOf(v);
    }

    private ObjectNode page(JsonNode request, Source source, Rows range, Reading reading,
                            boolean consistent) {
        ObjectNode response = JsonNodeFactory.instance.objectNode();
        ArrayNode items = reading.countOnly() ? null : response.putArray("Items");
        int count = 0;
        int scanned = 0;
        long bytes = 0;
        StoredItem last = null;
        boolean more = false;
        var iterator = range.iterator();
        while (iterator.hasNext()) {
            if (reading.limit() != null && scanned >= reading.limit() || bytes >= PAGE_BYTES) {
                more = true;
                break;
            }
            StoredItem item = iterator.next();
            if (reading.fromTable()) {
                StoredItem whole = source.table().get(source.table().keyOf(item.attributes()));
                item = whole == null ? item : whole;
            }
            scanned++;
            bytes += item.size();
            last = item;
            if (reading.filter() != null && !reading.filter().test(item.attributes())) {
                continue;
            }
            count++;
            if (items != null) {
                items.addPOJO(WireItem.of(reading.projection() == null ? item.attributes()
                        : reading.projection().apply(item.attributes())));
            }
        }
        if (reading.limit() != null && scanned == reading.limit()) {
            more = true; // DynamoDB stops at Limit and says where, even when nothing follows
        }
        response.put("Count", count);
        response.put("ScannedCount", scanned);
        if (more && last != null) {
            response.set("LastEvaluatedKey", Wire.json(source.lastKey(last)));
        }
        lastPageBytes.set(bytes);
        double units = Capacity.read(bytes, consistent);
        Consumed consumed = new Consumed(source.table().name(), true);
        if (source.index() == null) {
            consumed.table(units);
        } else {
            consumed.index(source.table(), source.index().name(), units);
        }
        ItemApi.capacity(request, response, consumed);
        return response;
    }
}
