package dev.moviegraph.dynamo.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.catalog.CollectionRead;
import dev.moviegraph.catalog.ListBounds;
import dev.moviegraph.catalog.MonthRange;
import dev.moviegraph.catalog.PageRequest;
import dev.moviegraph.catalog.Part;
import dev.moviegraph.catalog.Slice;
import dev.moviegraph.dynamo.read.DynamoCatalog;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.YearMonth;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

/**
 * Sort order as data: where each list's items sit in its collection's sort order decides which lists one
 * Query reads together, so a new list (or a new sort-key prefix) can silently turn a one-request shape
 * into two. This plans every shape of every declared collection (the owner or not, with any set of its
 * lists) and compares the Queries each takes with the recorded table, {@code collection-shapes.txt}: a
 * change of the model that adds a request to an existing shape fails here, naming the shape. A change
 * that is meant records the new table with {@code -Dshapes.update=true}.
 */
class CollectionShapesTest {
    private static final Path RECORDED = Path.of("src", "test", "resources", "collection-shapes.txt");

    @Test
    void everyShapeOfEveryCollectionTakesTheQueriesRecordedForIt() throws IOException {
        String planned = table();
        if (Boolean.getBoolean("shapes.update")) {
            Files.writeString(RECORDED, planned, StandardCharsets.UTF_8);
        }
        assertTrue(Files.exists(RECORDED), RECORDED + " is missing: run with -Dshapes.update=true to record it");
        String recorded = Files.readString(RECORDED, StandardCharsets.UTF_8);
        List<String> dearer = new ArrayList<>();
        Map<String, Integer> before = counts(recorded);
        counts(planned).forEach((shape, queries) -> {
            Integer was = before.get(shape);
            if (was != null && queries > was) {
                dearer.add(shape + ": " + was + " -> " + queries + " Queries");
            }
        });
        assertEquals(List.of(), dearer, "shapes that now take more requests");
        assertEquals(recorded, planned, "the collection shapes changed; if that is meant, run with -Dshapes.update=true");
    }

    /** One line per shape: its lists, the number of calls, and what each call reads. */
    private static String table() {
        StringBuilder text = new StringBuilder();
        for (Part.Collection collection : Part.Collection.values()) {
            List<Part> parts = java.util.Arrays.stream(Part.values()).filter(part -> part.collection() == collection).toList();
            for (int mask = 0; mask < 1 << parts.size(); mask++) {
                for (boolean owner : new boolean[] {true, false}) {
                    if (mask == 0 && !owner) {
                        continue;
                    }
                    Map<Part, Slice> slices = new EnumMap<>(Part.class);
                    for (int i = 0; i < parts.size(); i++) {
                        if ((mask & 1 << i) != 0) {
                            slices.put(parts.get(i), slice(parts.get(i)));
                        }
                    }
                    CollectionRead read = new CollectionRead(collection, "id", owner, slices);
                    List<ItemCollection.Run> runs = DynamoCatalog.steps(read, ListBounds.SLICES);
                    String shape = collection + (owner ? " owner" : "") + slices.keySet().stream()
                            .map(part -> " " + part).collect(Collectors.joining());
                    text.append(shape).append(" = ").append(runs.size()).append(": ")
                            .append(runs.stream().map(run -> run.ownerOnly() ? "GetItem" : run.indexLabel() + " " + run.name())
                                    .collect(Collectors.joining(", "))).append('\n');
                }
            }
        }
        return text.toString();
    }

    private static Slice slice(Part part) {
        return switch (part) {
            case CAST, ACTED, DIRECTED, WROTE -> Slice.page(PageRequest.of(10, null));
            case TOTALS -> Slice.months(new MonthRange(YearMonth.of(2024, 1), YearMonth.of(2024, 6)));
            default -> Slice.all();
        };
    }

    private static Map<String, Integer> counts(String table) {
        Map<String, Integer> counts = new java.util.LinkedHashMap<>();
        for (String line : table.split("\n")) {
            int equals = line.indexOf(" = ");
            if (equals > 0) {
                counts.put(line.substring(0, equals), Integer.parseInt(line.substring(equals + 3, line.indexOf(':', equals))));
            }
        }
        return counts;
    }
}
