package dev.moviegraph.dynamo.model;

import dev.moviegraph.catalog.Award;
import dev.moviegraph.catalog.SearchHit;

import java.util.List;
import java.util.Map;
import java.util.function.Function;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A list read from one partition of an index, in the index's order, declared as data as
 * {@link ItemCollection} declares a collection's lists: its access pattern (the index and the key
 * condition), the entities whose items belong to it (an overloaded index holds others too, and a newer
 * version may add kinds this one does not know), what an item shows as, and the name its cursors are
 * bound to. Search, movie lists and award winners are such lists; one read pages them all.
 */
public record IndexList<T>(String name, Access access, List<Entity<?>> kinds, Function<Map<String, AttributeValue>, T> shown) {
    /** GSI4: movies and people whose words start with a prefix, best ranked first. */
    public static final IndexList<SearchHit> SEARCH = new IndexList<>("search:ALL", Access.SEARCH,
            concat(TableModel.MOVIE_SEARCH, TableModel.PERSON_WORD), SearchEntries::hit);
    /** GSI5: the same for movies alone. */
    public static final IndexList<SearchHit> SEARCH_MOVIES = new IndexList<>("search:MOVIE", Access.SEARCH_KIND,
            List.copyOf(TableModel.MOVIE_SEARCH), SearchEntries::hit);
    /** GSI5: the same for people alone. */
    public static final IndexList<SearchHit> SEARCH_PEOPLE = new IndexList<>("search:PERSON", Access.SEARCH_KIND,
            List.of(TableModel.PERSON_WORD), SearchEntries::hit);
    /** GSI6: a movie list (browse, top rated) in its order. */
    public static final IndexList<SearchHit> MOVIE_LIST = new IndexList<>("list", Access.MOVIE_LIST_PAGE,
            List.of(TableModel.MOVIE_LIST), SearchEntries::listed);
    /** GSI5: an award's winners of every category, newest first. */
    public static final IndexList<Award> AWARD_WINNERS = new IndexList<>("winners", Access.AWARD_WINNERS,
            List.of(TableModel.MOVIE_AWARD, TableModel.PERSON_AWARD), item -> (Award) TableModel.decode(item).orElseThrow());
    /** GSI6: an award's winners in one category, newest first. */
    public static final IndexList<Award> AWARD_WINNERS_IN_CATEGORY = new IndexList<>("winners",
            Access.AWARD_WINNERS_IN_CATEGORY, List.of(TableModel.MOVIE_AWARD, TableModel.PERSON_AWARD),
            item -> (Award) TableModel.decode(item).orElseThrow());

    public IndexList {
        kinds = List.copyOf(kinds);
    }

    private static List<Entity<?>> concat(List<? extends Entity<?>> first, Entity<?> last) {
        List<Entity<?>> all = new java.util.ArrayList<>(first);
        all.add(last);
        return all;
    }

    /** Whether the item is one of this list's (an index's other items neither count nor show). */
    public boolean holds(Map<String, AttributeValue> item) {
        return TableModel.isAny(item, kinds);
    }

    /** Which of the pattern's partition templates this list's partition is (a person's search, say). */
    public int template() {
        return kinds.size() == 1 && kinds.get(0) == TableModel.PERSON_WORD ? 1 : 0;
    }
}
