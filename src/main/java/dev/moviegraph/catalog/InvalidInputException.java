package dev.moviegraph.catalog;

/** The caller asked for something malformed (an id, a month, a cursor, a page size). Its message is safe to show. */
public final class InvalidInputException extends RuntimeException {
    public InvalidInputException(String message) {
        super(message, null, false, false);
    }
}
