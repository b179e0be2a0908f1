package dev.moviegraph.catalog;

/**
 * How far an import got, kept in the table so a killed import goes on where it stopped: the arguments
 * and files it ran with, the phase it was in, and the last line of that phase's file whose items are
 * all written. {@code done} once everything is written; {@code update} when it runs over a catalog an
 * earlier import wrote (then credits the new files lack are deleted and totals' titles refreshed).
 */
public record ImportCheckpoint(String name, String arguments, String phase, long line, boolean done, boolean update) {
    /** The checkpoint of the IMDb import. */
    public static final String IMDB = "imdb";
}
