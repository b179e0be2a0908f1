package dev.moviegraph.cli;

import dev.moviegraph.config.AppConfig;
import dev.moviegraph.config.ConfigException;
import dev.moviegraph.dynamo.admin.DynamoCatalogImport;
import dev.moviegraph.dynamo.admin.TableAdmin;
import dev.moviegraph.imdb.ImdbImport;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;


/**
 * {@code moviegraph.jar import DIR [--title-types movie,tvMovie] [--include-adult] [--min-votes N]}:
 * imports IMDb's datasets from DIR into the table the usual variables name (DYNAMODB_ENDPOINT,
 * TABLE_NAME, CREATE_TABLE; DYNAMODB_DATA_DIR for the embedded engine), so that the server then serves
 * them. Killed, it goes on where it stopped when run again with the same arguments.
 */
public final class Import {
    private static final int PARALLEL_WRITES = 16;
    static final String USAGE = "usage: moviegraph.jar import DIR [--title-types movie,tvMovie] [--include-adult]"
            + " [--min-votes N] [--max-write-units N]";

    private Import() {
    }

    /** The options of the command line; a bad one is a ConfigException that names it. */
    public static ImdbImport.Options options(List<String> args) {
        if (args.isEmpty() || args.get(0).startsWith("--")) {
            throw new ConfigException("import needs the folder of IMDb's files; " + USAGE);
        }
        Path dir = Path.of(args.get(0));
        if (!Files.isDirectory(dir)) {
            throw new ConfigException("import: " + dir + " is not a folder; " + USAGE);
        }
        Set<String> types = Set.of("movie");
        boolean adult = false;
        int minVotes = 0;
        int maxWriteUnits = 0;
        for (int i = 1; i < args.size(); i++) {
            String arg = args.get(i);
            switch (arg) {
                case "--include-adult" -> adult = true;
                case "--title-types" -> {
                    String value = value(args, ++i, arg);
                    types = new LinkedHashSet<>(Arrays.stream(value.split(",")).map(String::strip)
                            .filter(type -> !type.isEmpty()).toList());
                    if (types.isEmpty()) {
                        throw new ConfigException("import: --title-types needs at least one type; " + USAGE);
                    }
                }
                case "--min-votes" -> minVotes = wholeNumber(arg, value(args, ++i, arg), 0);
                case "--max-write-units" -> maxWriteUnits = wholeNumber(arg, value(args, ++i, arg), 1);
                default -> throw new ConfigException("import: unknown option '" + arg + "'; " + USAGE);
            }
        }
        return new ImdbImport.Options(dir, types, adult, minVotes, maxWriteUnits);
    }

    private static int wholeNumber(String option, String value, int least) {
        int number;
        try {
            number = Integer.parseInt(value);
        } catch (NumberFormatException e) {
            number = least - 1;
        }
        if (number < least) {
            throw new ConfigException("import: " + option + " must be a whole number >= " + least + ", not '" + value + "'");
        }
        return number;
    }

    private static String value(List<String> args, int index, String option) {
        if (index >= args.size()) {
            throw new ConfigException("import: " + option + " needs a value; " + USAGE);
        }
        return args.get(index);
    }

    /**
     * Prints the import's lines: a status line starting with a carriage return is redrawn in place (a
     * terminal), any other line ends the status line first.
     */
    static java.util.function.Consumer<String> terminalLines(PrintStream out) {
        boolean[] statusShown = {false};
        return text -> {
            if (text.startsWith("\r")) {
                out.print(text + "\u001b[K"); // and clear what a longer line before left
                statusShown[0] = true;
            } else {
                out.print((statusShown[0] ? System.lineSeparator() : "") + text + System.lineSeparator());
                statusShown[0] = false;
            }
            out.flush();
        };
    }

    public static ImdbImport.Summary run(AppConfig config, List<String> args, PrintStream out) {
        ImdbImport.Options options = options(args);
        return AdminTable.with(config, "import writes into", client -> {
            TableAdmin admin = new TableAdmin(client, config.tableName());
            if (config.createTable()) {
                // No stream while importing: DynamoDB Local makes every write to a table with a stream look
                // through the stream records its database holds before that stream's (earlier tables', in a
                // shared data folder), which made an import 20 times slower. The stream starts once done.
                admin.ensureTableForLoad();
            } else if (!admin.exists()) {
                throw new IllegalStateException("Table " + config.tableName()
                        + " does not exist; create it or set CREATE_TABLE=true");
            }
            admin.requireLayout();
            ImdbImport.Summary summary = new ImdbImport(options, new DynamoCatalogImport(client, config.tableName(),
                    PARALLEL_WRITES, options.maxWriteUnits()), terminalLines(out), System.console() != null).run();
            admin.startStreamAfterLoad();
            return summary;
        });
    }
}
