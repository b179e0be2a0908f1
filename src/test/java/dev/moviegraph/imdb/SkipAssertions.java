package dev.moviegraph.imdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Checks on a parsed line that the parser tests share. */
final class SkipAssertions {
    private SkipAssertions() {
    }

    /** The line parsed to a row; fails showing the skip otherwise. */
    static <T> T row(Parsed<T> parsed) {
        assertNull(parsed.skip(), () -> "expected a row, got " + parsed.skip());
        return parsed.row();
    }

    /** The line, the file's only data line (line 2), was skipped for the reason with a detail containing the text. */
    static Skip skipped(Parsed<?> parsed, String file, SkipReason reason, String detailContains) {
        assertNull(parsed.row(), () -> "expected a " + reason + " skip, got " + parsed.row());
        Skip skip = parsed.skip();
        assertNotNull(skip);
        assertEquals(reason, skip.reason(), skip::toString);
        assertEquals(file, skip.file());
        assertEquals(2, skip.line());
        assertTrue(skip.detail().contains(detailContains), () -> skip + " should mention " + detailContains);
        return skip;
    }
}
