package dev.moviegraph.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.catalog.SearchText;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * What "migrated", "settled" and "exact" mean for {@link LayoutMigrationTest}, item by item, on the items
 * of a scanned table.
 */
final class MigratedTable {
    /**
     * Attributes layouts 2 and 3 render from the model and layout 1 did not have (or had otherwise): keys,
     * and layout 3's credit counts on movies and people.
     */
    private static final Set<String> REKEYED = Set.of("lsi1sk", "gsi3pk", "gsi3sk", "castCount", "actedCount",
            "directedCount", "wroteCount", "gsi7pk", "trank", "gsi2pk", "gsi8pk");
    /** The items layouts 3 and 5 derive: search and list entries, and each month's top list. */
    static final Set<String> DERIVED = Set.of("movieWord", "personWord", "movieList", "topList");
    /** What migrate's last step writes on movie items, checked in assertDerived: the first-billed cast copied. */
    private static final Set<String> DERIVED_ON_MOVIES = Set.of("firstCast", "castVersion");
    /** Layout 4's top index key and rank, and layout 3's: no total of a settled layout 5 table has them. */
    private static final Set<String> OLD_TOP_KEYS = Set.of("gsi7pk", "trank", "gsi2pk");

    private MigratedTable() {
    }

    /** No total is left in an index of layouts 3 or 4, every total is in gsi8, layout 4's floors are gone. */
    static void assertSettled(List<Map<String, AttributeValue>> after) {
        for (Map<String, AttributeValue> item : after) {
            if (item.get("type").s().equals("total")) {
                assertTrue(OLD_TOP_KEYS.stream().noneMatch(item::containsKey), "out of the old top indexes: " + item);
                assertTrue(item.get("gsi8pk").s().startsWith("mon#" + item.get("month").s() + "#"), "in gsi8: " + item);
            }
            assertFalse(item.get("pk").s().startsWith("topfloor#"), "layout 4's floors deleted: " + item.get("pk"));
        }
    }

    /**
     * Every month's top list item is the top 200 of its totals by streams, then movie id, with their titles,
     * and its floor is the 200th's streams when the month has 200 or more, else 0.
     */
    static void assertExactLists(List<Map<String, AttributeValue>> after) {
        Map<String, List<Map<String, AttributeValue>>> byMonth = new HashMap<>();
        after.stream().filter(item -> item.get("type").s().equals("total"))
                .filter(total -> Long.parseLong(total.get("streams").n()) > 0)
                .forEach(total -> byMonth.computeIfAbsent(total.get("month").s(), month -> new ArrayList<>()).add(total));
        Map<String, Map<String, AttributeValue>> lists = new HashMap<>();
        after.stream().filter(item -> item.get("type").s().equals("topList")).forEach(list -> lists.put(list.get("month").s(), list));
        assertEquals(byMonth.keySet(), lists.keySet(), "a list for every month with streams");
        byMonth.forEach((month, totals) -> {
            List<Map<String, AttributeValue>> best = totals.stream().sorted(BEST_FIRST).limit(200).toList();
            Map<String, AttributeValue> list = lists.get(month);
            assertEquals(best.stream().map(total -> total.get("movieId").s() + "=" + total.get("streams").n()
                            + " " + text(total, "movieTitle")).toList(),
                    list.get("entries").l().stream().map(entry -> entry.m().get("m").s() + "=" + entry.m().get("s").n()
                            + " " + text(entry.m(), "t")).toList(), "the top list of " + month);
            assertEquals(totals.size() >= 200 ? best.get(199).get("streams").n() : "0", list.get("floor").n(),
                    "the floor of " + month);
        });
    }

    private static String text(Map<String, AttributeValue> item, String name) {
        return item.containsKey(name) ? item.get(name).s() : null;
    }

    private static final Comparator<Map<String, AttributeValue>> BEST_FIRST = Comparator
            .comparingLong((Map<String, AttributeValue> total) -> -Long.parseLong(total.get("streams").n()))
            .thenComparing(total -> total.get("movieId").s());

    /** The month's top {@code limit} movie ids from the totals. */
    static List<String> expectedTop(List<Map<String, AttributeValue>> after, String month, int limit) {
        return after.stream().filter(item -> item.get("type").s().equals("total") && item.get("month").s().equals(month))
                .sorted(BEST_FIRST).limit(limit).map(total -> total.get("movieId").s()).toList();
    }

    static String busiestMonth(List<Map<String, AttributeValue>> after) {
        return after.stream().filter(item -> item.get("type").s().equals("total"))
                .collect(Collectors.groupingBy(total -> total.get("month").s(), Collectors.counting()))
                .entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();
    }

    /** Every list entry copies its movie's rating and votes, and says so. */
    static void assertRated(List<Map<String, AttributeValue>> after) {
        Map<String, Map<String, AttributeValue>> movies = new HashMap<>();
        after.stream().filter(item -> item.get("type").s().equals("movie")).forEach(movie -> movies.put(movie.get("pk").s(), movie));
        List<Map<String, AttributeValue>> entries = after.stream().filter(item -> item.get("type").s().equals("movieList")).toList();
        assertFalse(entries.isEmpty(), "the table has list entries");
        for (Map<String, AttributeValue> entry : entries) {
            Map<String, AttributeValue> movie = movies.get(entry.get("pk").s());
            assertEquals(Boolean.TRUE, entry.get("ratingCopied").bool(), "rating copied: " + entry);
            assertEquals(movie.get("averageRating"), entry.get("averageRating"), "rating of " + entry);
            assertEquals(movie.get("numVotes"), entry.get("numVotes"), "votes of " + entry);
        }
    }

    /**
     * Every layout 1 item is in the table with the same data: movies, totals, streams, checkpoints and
     * markers unchanged but for the credit-order key; each actor a person under per#; each cast item
     * with its person attributes renamed; every credit's copies equal to their sources.
     */
    static void assertMigrated(List<Map<String, AttributeValue>> before, List<Map<String, AttributeValue>> after) {
        assertMigrated(before, after, true);
    }

    /** The same, with layout 3's derived items when {@code layoutThree}. */
    static void assertMigrated(List<Map<String, AttributeValue>> before, List<Map<String, AttributeValue>> after,
                                       boolean layoutThree) {
        Map<String, Map<String, AttributeValue>> byKey = new HashMap<>();
        if (layoutThree) {
            assertDerived(after);
        }
        // What layout 3 derives, the record of item sizes its writes keep, and layout 4's marker that gsi2 was
        // settled are checked apart.
        after = after.stream().filter(item -> !DERIVED.contains(item.get("type").s()))
                .filter(item -> !item.get("pk").s().equals("meta#item-sizes"))
                .filter(item -> !item.get("pk").s().equals("meta#layout3-settled")).toList();
        after.forEach(item -> byKey.put(item.get("pk").s() + "|" + item.get("sk").s(), item));
        assertEquals(0, count(after, "actor"), "no actor item is left");
        assertEquals(before.size() + (hasLayoutItem(before) ? 0 : 1), after.size(), "one new item: the layout");
        for (Map<String, AttributeValue> old : before) {
            String type = old.get("type").s();
            Map<String, AttributeValue> expected = new HashMap<>(old);
            String key = old.get("pk").s() + "|" + old.get("sk").s();
            if (type.equals("actor")) {
                String id = old.get("actorId").s();
                expected.put("type", AttributeValue.fromS("person"));
                expected.put("personId", expected.remove("actorId"));
                key = "per#" + id + "|per#" + id;
                expected.put("pk", AttributeValue.fromS("per#" + id));
                expected.put("sk", AttributeValue.fromS("per#" + id));
            } else if (type.equals("cast")) {
                expected.put("personId", expected.remove("actorId"));
                expected.put("personName", expected.remove("actorName"));
                if (expected.containsKey("actorVersion")) {
                    expected.put("personVersion", expected.remove("actorVersion"));
                }
            }
            Map<String, AttributeValue> migrated = byKey.get(key);
            assertNotNull(migrated, "migrated item at " + key);
            assertEquals(withoutKeysOfLayout2(expected), withoutKeysOfLayout2(migrated), "item at " + key);
            if (type.equals("cast") || type.equals("actor")) {
                assertTrue(migrated.containsKey("gsi3pk") && migrated.containsKey("gsi3sk"), "GSI3 keys at " + key);
            }
        }
        for (Map<String, AttributeValue> credit : after) {
            if (credit.get("type").s().equals("cast")) {
                Map<String, AttributeValue> movie = byKey.get(credit.get("pk").s() + "|" + credit.get("pk").s());
                String person = "per#" + credit.get("personId").s();
                assertEquals(movie.get("title"), credit.get("movieTitle"), "movie title copy at " + credit.get("pk"));
                assertEquals(movie.get("year"), credit.get("movieYear"));
                assertEquals(byKey.get(person + "|" + person).get("name"), credit.get("personName"),
                        "person name copy of " + person);
            }
        }
    }

    /**
     * Layout 3's derived items: each movie and person has exactly the search entries its title or name
     * gives, each list entry names a movie, and movies and people carry their credits counted.
     */
    private static void assertDerived(List<Map<String, AttributeValue>> after) {
        long wordsWanted = after.stream().filter(item -> item.get("type").s().equals("movie"))
                .mapToLong(item -> SearchText.prefixes(item.get("title").s()).size()).sum()
                + after.stream().filter(item -> item.get("type").s().equals("person"))
                .mapToLong(item -> SearchText.prefixes(item.get("name").s()).size()).sum();
        assertEquals(wordsWanted, count(after, "movieWord") + count(after, "personWord"), "every search entry, once");
        assertTrue(count(after, "movieList") >= count(after, "movie"), "every movie in its lists");
        Map<String, Long> castOf = after.stream().filter(item -> item.get("type").s().equals("cast"))
                .collect(Collectors.groupingBy(item -> item.get("movieId").s(), Collectors.counting()));
        for (Map<String, AttributeValue> movie : after) {
            if (movie.get("type").s().equals("movie")) {
                assertEquals(castOf.getOrDefault(movie.get("movieId").s(), 0L).toString(), movie.get("castCount").n(),
                        "cast counted on " + movie.get("movieId").s());
                // migrate's last step: the first five billed copied on the movie item, billing order, uncredited last
                List<String> firstBilled = after.stream().filter(item -> item.get("type").s().equals("cast"))
                        .filter(item -> item.get("movieId").equals(movie.get("movieId")))
                        .sorted(Comparator.comparing((Map<String, AttributeValue> item) -> item.get("lsi1sk").s()))
                        .limit(5).map(item -> item.get("personId").s()).toList();
                List<String> copied = movie.containsKey("firstCast") ? movie.get("firstCast").l().stream()
                        .map(entry -> entry.m().get("p").s()).toList() : List.of();
                assertEquals(firstBilled, copied, "first-billed cast copied on " + movie.get("movieId").s());
            }
        }
    }

    /** Without the keys layout 2 renders, and without empty lists: to the model, absent and empty are one. */
    private static Map<String, AttributeValue> withoutKeysOfLayout2(Map<String, AttributeValue> item) {
        Map<String, AttributeValue> rest = new HashMap<>(item);
        REKEYED.forEach(rest::remove);
        DERIVED_ON_MOVIES.forEach(rest::remove);
        rest.values().removeIf(value -> value.hasL() && value.l().isEmpty());
        return rest;
    }

    private static boolean hasLayoutItem(List<Map<String, AttributeValue>> items) {
        return items.stream().anyMatch(item -> item.get("pk").s().equals("meta#layout"));
    }

    static long count(List<Map<String, AttributeValue>> items, String type) {
        return items.stream().filter(item -> item.get("type").s().equals(type)).count();
    }
}
