package dev.moviegraph.catalog;

import java.util.List;
import java.util.Map;

/**
 * The answer to a {@link CollectionRead}: the owner item (null when not asked for or unknown), and a
 * {@link Page} of each list asked for.
 */
public record CollectionPage(Record owner, Map<Part, Page<?>> lists) {
    public CollectionPage {
        lists = Map.copyOf(lists);
    }

    /** The page of a list asked for (its nodes are of the part's item type), or null when it was not asked. */
    @SuppressWarnings("unchecked")
    public <T> Page<T> list(Part part) {
        return (Page<T>) lists.get(part);
    }

    /** The items of a list asked for, without their cursors, or null when it was not asked. */
    public <T> List<T> items(Part part) {
        Page<T> page = list(part);
        return page == null ? null : page.nodes();
    }

    public <T extends Record> T owner(Class<T> type) {
        return owner == null ? null : type.cast(owner);
    }
}
