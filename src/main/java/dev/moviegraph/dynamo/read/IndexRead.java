package dev.moviegraph.dynamo.read;

import dev.moviegraph.catalog.Award;
import dev.moviegraph.catalog.AwardWinnersRead;
import dev.moviegraph.catalog.ListRead;
import dev.moviegraph.catalog.PageRequest;
import dev.moviegraph.catalog.SearchHit;
import dev.moviegraph.catalog.SearchKind;
import dev.moviegraph.catalog.SearchRead;
import dev.moviegraph.dynamo.model.IndexList;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A page of an {@link IndexList} as a read asks for it: the list, the attribute values its partition is
 * rendered from, the name its cursors are bound to (a cursor of another list is refused), and the
 * entries read beyond the page for those a filter drops. Decided once per read, for the read that sends
 * ({@link DynamoCatalog}) and the plan that does not ({@link DynamoReadPlans}) alike.
 *
 * @param narrowing words every entry's word list must hold (a search of several words); empty for none
 */
record IndexRead<T>(IndexList<T> list, Map<String, ?> partition, String cursorName, PageRequest page, int slack,
                    List<String> narrowing) {
    /** Entries a search with narrowing words reads beyond its page, for those the words filter out. */
    static final int NARROWING_SLACK = 200;

    /**
     * A search: the partition of the query's key prefix, best ranked first. Words that narrow it are a
     * filter on the entries' word lists, so the page asks for {@value #NARROWING_SLACK} entries more.
     */
    static IndexRead<SearchHit> of(SearchRead read) {
        IndexList<SearchHit> list = read.kinds().size() > 1 ? IndexList.SEARCH
                : read.kinds().contains(SearchKind.PERSON) ? IndexList.SEARCH_PEOPLE : IndexList.SEARCH_MOVIES;
        List<String> narrowing = read.query().narrowing();
        return new IndexRead<>(list, Map.of("prefix", read.query().key()), list.name(), read.page(),
                narrowing.isEmpty() ? 0 : NARROWING_SLACK, narrowing);
    }

    /** A movie list in its order (the list holds only its movies: no filter). */
    static IndexRead<SearchHit> of(ListRead read) {
        return new IndexRead<>(IndexList.MOVIE_LIST, Map.of("list", read.list().name()),
                IndexList.MOVIE_LIST.name() + ":" + read.list().name(), read.page(), 0, List.of());
    }

    /** An award's winners, of every category or of one, newest first. */
    static IndexRead<Award> of(AwardWinnersRead read) {
        IndexList<Award> list = read.category() == null ? IndexList.AWARD_WINNERS : IndexList.AWARD_WINNERS_IN_CATEGORY;
        Map<String, Object> values = new HashMap<>();
        values.put("award", read.award());
        values.put("category", read.category());
        String partition = list.access().query("", values).build().expressionAttributeValues().get(":pk").s();
        return new IndexRead<>(list, values, list.name() + ":" + partition, read.page(), 0, List.of());
    }

    /** At most how many entries the page's Query reads: one past the page (is there a next?) and the slack. */
    int mostEntries() {
        return page.first() + 1 + slack;
    }
}
