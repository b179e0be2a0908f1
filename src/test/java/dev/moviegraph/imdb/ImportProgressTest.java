package dev.moviegraph.imdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.cli.ImportLinesAccess;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

/** Progress: a redrawn status line on a terminal, plain lines elsewhere, with rows, items, rate. */
class ImportProgressTest {
    @Test
    void onATerminalTheStatusIsRedrawnInPlace() throws InterruptedException {
        List<String> lines = new ArrayList<>();
        AtomicLong written = new AtomicLong();
        ImportProgress progress = new ImportProgress(lines::add, true, written::get, 0);
        progress.phase("cast", null);
        written.set(1_500);
        Thread.sleep(5);
        progress.tick(12_345, -1);
        assertEquals("phase cast", lines.get(0));
        String status = lines.get(1);
        assertTrue(status.startsWith(ImportProgress.REDRAW), status);
        assertTrue(status.contains("cast: 12,345 rows, 1,500 items written"), status);
        assertTrue(status.contains("items/s"), status);
    }

    @Test
    void elsewhereStatusLinesArePlainAndTheTerminalPrinterEndsAStatusBeforeALine() {
        List<String> lines = new ArrayList<>();
        ImportProgress progress = new ImportProgress(lines::add, false, () -> 7, 0);
        progress.phase("people", null);
        progress.tick(3, -1);
        assertFalse(lines.get(1).startsWith(ImportProgress.REDRAW), lines.get(1));

        String printed = ImportLinesAccess.print(List.of("phase cast", "\r  cast: 1 rows", "\r  cast: 2 rows", "done"));
        String nl = System.lineSeparator();
        assertEquals("phase cast" + nl + "\r  cast: 1 rows\u001b[K\r  cast: 2 rows\u001b[K" + nl + "done" + nl, printed);
    }
}
