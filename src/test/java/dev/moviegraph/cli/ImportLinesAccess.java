package dev.moviegraph.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Consumer;

/** Lets tests of other packages see what the import command prints for a list of progress lines. */
public final class ImportLinesAccess {
    private ImportLinesAccess() {
    }

    public static String print(List<String> lines) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Consumer<String> printer = Import.terminalLines(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        lines.forEach(printer);
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
