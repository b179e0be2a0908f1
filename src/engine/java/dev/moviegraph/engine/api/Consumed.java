package dev.moviegraph.engine.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.moviegraph.engine.table.Table;

import java.util.Map;
import java.util.TreeMap;

/**
 * The capacity one request consumed on one table, by table and by index, shown as DynamoDB shows it when
 * ReturnConsumedCapacity is TOTAL (the sum) or INDEXES (the sum and its parts). DynamoDB splits the units into
 * ReadCapacityUnits or WriteCapacityUnits for transactions only; every other operation shows CapacityUnits alone.
 */
final class Consumed {
    private final String table;
    private final boolean reads;
    private final boolean split;
    private double tableUnits;
    private final Map<String, Double> global = new TreeMap<>();
    private final Map<String, Double> local = new TreeMap<>();

    Consumed(String table, boolean reads) {
        this(table, reads, false);
    }

    private Consumed(String table, boolean reads, boolean split) {
        this.table = table;
        this.reads = reads;
        this.split = split;
    }

    /** A transaction's capacity on one table, whose answer names reads or writes besides the total. */
    static Consumed ofTransaction(String table, boolean reads) {
        return new Consumed(table, reads, true);
    }

    void table(double units) {
        tableUnits += units;
    }

    void index(Table owner, String index, double units) {
        boolean isGlobal = owner.spec().index(index).map(spec -> spec.global()).orElse(true);
        (isGlobal ? global : local).merge(index, units, Double::sum);
    }

    void indexes(Table owner, Map<String, Double> units) {
        units.forEach((index, value) -> index(owner, index, value));
    }

    double total() {
        return tableUnits + global.values().stream().mapToDouble(Double::doubleValue).sum()
                + local.values().stream().mapToDouble(Double::doubleValue).sum();
    }

    /** Multiplies everything (transactions cost twice). */
    void scale(double factor) {
        tableUnits *= factor;
        global.replaceAll((name, units) -> units * factor);
        local.replaceAll((name, units) -> units * factor);
    }

    /** Whether the request asked for capacity, and how. */
    static String mode(JsonNode request) {
        JsonNode node = request.get("ReturnConsumedCapacity");
        String mode = node == null ? "NONE" : node.asText("NONE");
        return mode.equals("TOTAL") || mode.equals("INDEXES") ? mode : "NONE";
    }

    ObjectNode json(String mode) {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        node.put("TableName", table);
        double total = total();
        node.put("CapacityUnits", total);
        if (split) {
            node.put(reads ? "ReadCapacityUnits" : "WriteCapacityUnits", total);
        }
        if (mode.equals("INDEXES")) {
            node.set("Table", part(tableUnits));
            if (!global.isEmpty()) {
                ObjectNode indexes = node.putObject("GlobalSecondaryIndexes");
                global.forEach((name, units) -> indexes.set(name, part(units)));
            }
            if (!local.isEmpty()) {
                ObjectNode indexes = node.putObject("LocalSecondaryIndexes");
                local.forEach((name, units) -> indexes.set(name, part(units)));
            }
        }
        return node;
    }

    private ObjectNode part(double units) {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        node.put("CapacityUnits", units);
        if (split) {
            node.put(reads ? "ReadCapacityUnits" : "WriteCapacityUnits", units);
        }
        return node;
    }
}
