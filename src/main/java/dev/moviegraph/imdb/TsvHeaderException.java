package dev.moviegraph.imdb;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A file whose first line is not the expected header. Fatal, unlike a bad row: a changed or wrong file
 * would otherwise be read with every column shifted, so the import stops and names the file.
 */
public final class TsvHeaderException extends IOException {
    private final transient Path file;

    TsvHeaderException(Path file, String message) {
        super(file + ": " + message);
        this.file = file;
    }

    public Path file() {
        return file;
    }
}
