package dev.moviegraph.catalog;

/** What a connection's pageInfo shows of any page. */
public interface Paged {
    boolean hasNextPage();

    /** The first entry's cursor; null when the page is empty. */
    String startCursor();

    String endCursor();
}
