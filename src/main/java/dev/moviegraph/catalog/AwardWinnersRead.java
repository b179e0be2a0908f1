package dev.moviegraph.catalog;

/** A page of an award's winners, newest first: of every category, or of one. */
public record AwardWinnersRead(String award, String category, PageRequest page) {
}
