package dev.moviegraph.catalog;

/** A write named a movie or an actor that does not exist. */
public final class NotFoundException extends RuntimeException {
    public NotFoundException(String message) {
        super(message);
    }
}
