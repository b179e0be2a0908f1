package dev.moviegraph.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** Totals' streams before a migration, and what old gateways counted during it, by movie|month. */
final class CountedStreams {
    private final Map<String, Long> before = new HashMap<>();
    final Map<String, Long> added = new ConcurrentHashMap<>();

    void before(List<Map<String, AttributeValue>> items) {
        items.stream().filter(item -> item.get("type").s().equals("total"))
                .forEach(total -> before.put(key(total), Long.parseLong(total.get("streams").n())));
    }

    /** Every total has what it had plus what was counted: no stream lost or counted twice. */
    void assertCountedOnce(List<Map<String, AttributeValue>> after) {
        for (Map<String, AttributeValue> total : after) {
            if (total.get("type").s().equals("total")) {
                assertEquals(before.getOrDefault(key(total), 0L) + added.getOrDefault(key(total), 0L),
                        Long.parseLong(total.get("streams").n()), "every stream counted once at " + key(total));
            }
        }
    }

    /** A total as movie|month. */
    static String key(Map<String, AttributeValue> total) {
        return total.get("movieId").s() + "|" + total.get("month").s();
    }
}
