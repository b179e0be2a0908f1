package dev.moviegraph.engine.table;

import java.util.Map;

/**
 * What one item write did: the item before and after (null when absent), and the write units it cost the
 * table and each index it touched, by DynamoDB's rules (1 KB units of the larger image; per index, an
 * entry put, removed or rewritten, a key change counting a delete and a put).
 */
public record WriteResult(StoredItem before, StoredItem after, double tableUnits, Map<String, Double> indexUnits) {

    public boolean changed() {
        return before != null || after != null;
    }
}
