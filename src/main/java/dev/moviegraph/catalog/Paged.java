package dev.moviegraph.catalog;

/** What a connection's pageInfo shows of any page. */
public interface Paged {
    boolean hasNextPage();

    String endCursor();
}
