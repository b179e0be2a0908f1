package dev.moviegraph.bench;

import dev.moviegraph.dynamo.admin.DynamoCatalogImport;
import dev.moviegraph.dynamo.admin.ImportedItems;
import dev.moviegraph.dynamo.admin.TableAdmin;
import dev.moviegraph.dynamo.client.Batches;
import dev.moviegraph.dynamo.client.DynamoClients;
import dev.moviegraph.imdb.ImdbImport;
import dev.moviegraph.local.EmbeddedDynamo;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * {@code moviegraph.jar benchmark import [--titles N] [--out DIR] [--in-memory | --data-dir DIR]}: generates an
 * IMDb-shaped data set of N movies (deterministic, seeded), imports it as {@code import DIR} does into a fresh
 * table of an embedded engine (a data folder on /dev/shm, as users run it, one of its own with
 * {@code --data-dir}, on a disk, or in memory), then
 * writes the same items again with the same {@link Batches#putAll} and parallelism into a fresh table
 * of a second engine of the same kind, and prints the import's items/s against that raw BatchWriteItem rate, per-phase times and the
 * peak heap. Not a test: numbers go to docs/benchmarks.md.
 */
final class ImportBench {
    private static final String USAGE = "usage: moviegraph.jar benchmark import [--titles N] [--out DIR] [--in-memory | --data-dir DIR] [--import-only]"
            + "\n  generates N movies (default 100000) in IMDb's format into DIR (default a temporary folder),"
            + "\n  imports them into an embedded engine and compares with raw BatchWriteItem"
            + "\n  (not with --import-only)";
    private static final int PARALLEL_WRITES = 16;
    /** People, or movies with their credits (about 9 items each), read untimed then written timed at a time. */
    private static final int RAW_PEOPLE = 50_000;
    private static final int RAW_MOVIES = 5_000;
    private static final long SEED = 20261123L;

    private ImportBench() {
    }

    /** The heap in use after full collections: what the engine keeps, without the garbage the peak includes. */
    static long liveHeap() {
        var memory = java.lang.management.ManagementFactory.getMemoryMXBean();
        for (int i = 0; i < 3; i++) {
            memory.gc();
        }
        return memory.getHeapMemoryUsage().getUsed();
    }

    static void main(String[] args) {
        int titles = 100_000;
        Path out = null;
        boolean inMemory = false;
        Path dataDir = null;
        boolean importOnly = false;
        try {
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--titles" -> titles = Integer.parseInt(args[++i]);
                    case "--out" -> out = Path.of(args[++i]);
                    case "--in-memory" -> inMemory = true;
                    case "--data-dir" -> dataDir = Path.of(args[++i]);
                    case "--import-only" -> importOnly = true;
                    default -> throw new IllegalArgumentException(args[i]);
                }
            }
            if (titles < 10 || inMemory && dataDir != null) {
                throw new IllegalArgumentException("--titles");
            }
        } catch (RuntimeException e) {
            System.err.println(USAGE);
            System.exit(2);
            return;
        }
        int status;
        try {
            run(titles, out, inMemory, dataDir, importOnly);
            status = 0;
        } catch (Exception e) {
            e.printStackTrace();
            status = 1;
        }
        System.exit(status);
    }

    private static void run(int titles, Path out, boolean inMemory, Path dataDir, boolean importOnly)
            throws Exception {
        Path dir = out != null ? Files.createDirectories(out) : Files.createTempDirectory("moviegraph-imdb-bench");
        long started = System.nanoTime();
        Map<String, Long> shape = new DataSet(titles, new Random(SEED)).write(dir);
        System.out.printf("Generated in %,d ms: %s%n", (System.nanoTime() - started) / 1_000_000, shape);

        // a data folder of the user's own is theirs to keep; a scratch one is deleted at the end
        Path data = inMemory ? null : dataDir != null ? Files.createDirectories(dataDir)
                : EmbeddedDynamo.scratchDirectory("moviegraph-import-bench");
        EmbeddedDynamo dynamo = inMemory ? EmbeddedDynamo.ephemeral(false) : EmbeddedDynamo.persistent(data, false);
        System.out.println("Engine: " + (inMemory ? "in memory" : dataDir != null ? "data folder " + data
                : "data folder on " + (data.startsWith("/dev/shm") ? "/dev/shm (tmpfs)" : "the temporary folder")));
        DynamoDbAsyncClient client = DynamoClients.create(dynamo.endpoint(), List.of());
        HeapWatch heap = new HeapWatch();
        Path rawData = null;
        EmbeddedDynamo rawDynamo = null;
        DynamoDbAsyncClient rawClient = null;
        try {
            TableAdmin admin = new TableAdmin(client, "imported");
            admin.ensureTable();
            admin.requireLayout();
            Map<String, Long> phaseStarts = new LinkedHashMap<>();
            long liveBefore = liveHeap();
            heap.start();
            long importStart = System.nanoTime();
            ImdbImport.Summary summary = new ImdbImport(new ImdbImport.Options(dir, Set.of("movie"), false, 0),
                    new DynamoCatalogImport(client, "imported", PARALLEL_WRITES), line -> {
                        if (line.startsWith("phase ")) {
                            phaseStarts.putIfAbsent(line.substring(6).split(" ")[0], System.nanoTime());
                        }
                        System.out.println(line);
                    }, false).run();
            long importNanos = System.nanoTime() - importStart;
            heap.stop();
            long importPeakUsed = heap.peakUsed.get();

            System.out.println("\nPhases:");
            List<Map.Entry<String, Long>> phases = new ArrayList<>(phaseStarts.entrySet());
            for (int i = 0; i < phases.size(); i++) {
                long end = i + 1 < phases.size() ? phases.get(i + 1).getValue() : importStart + importNanos;
                System.out.printf("  %-10s %,8d ms%n", phases.get(i).getKey(), (end - phases.get(i).getValue()) / 1_000_000);
            }
            double importRate = summary.itemsWritten() / (importNanos / 1e9);
            System.out.printf("%nImport: %,d items written in %,d ms: %,.0f items/s (movies %,d, people %,d, credits %,d,"
                            + " rows read %,d)%n", summary.itemsWritten(), importNanos / 1_000_000, importRate,
                    summary.movies(), summary.people(), summary.credits(), summary.rowsRead());
            System.out.printf("Peak heap during the import (the engine shares it): %,d MiB used; max %,d MiB%n",
                    importPeakUsed >> 20, Runtime.getRuntime().maxMemory() >> 20);
            System.out.println("Skipped rows: " + summary.skips().total()
                    + (summary.skips().total() == 0 ? "" : "\n" + summary.skips().summary()));
            long live = liveHeap();
            System.out.printf("Live heap (after full GCs) before the import %,d MiB, after %,d MiB: %,d bytes per item"
                    + " written (the items, their index entries and stream records)%n", liveBefore >> 20, live >> 20,
                    (live - liveBefore) / Math.max(1, summary.itemsWritten()));
            if (System.getenv("BENCH_HISTOGRAM") != null) {
                // what holds the heap, largest first (jcmd's GC.class_histogram, from inside)
                Object histogram = java.lang.management.ManagementFactory.getPlatformMBeanServer().invoke(
                        new javax.management.ObjectName("com.sun.management:type=DiagnosticCommand"), "gcClassHistogram",
                        new Object[] {null}, new String[] {String[].class.getName()});
                histogram.toString().lines().limit(25).forEach(System.out::println);
            }
            if (importOnly) {
                return;
            }

            // The raw table is alone in a second, fresh engine of the same kind, so that nothing of the import
            // (its items, its stream records) weighs on the raw writes.
            rawData = inMemory ? null : EmbeddedDynamo.scratchDirectory("moviegraph-import-bench-raw");
            rawDynamo = inMemory ? EmbeddedDynamo.ephemeral(false) : EmbeddedDynamo.persistent(rawData, false);
            rawClient = DynamoClients.create(rawDynamo.endpoint(), List.of());
            new TableAdmin(rawClient, "imported").ensureTable();
            Batches batches = new Batches(rawClient, "imported");
            ImportedItems imported = new ImportedItems(client, "imported", PARALLEL_WRITES);
            long rawNanos = 0;
            long rawItems = 0;
            long readStart = System.nanoTime();
            // Read back by id (untimed) rather than by Scan (DynamoDB Local's Scan slowed down page after page).
            List<List<String>> chunks = new ArrayList<>();
            chunks.addAll(chunks(firstColumn(dir.resolve("name.basics.tsv.gz"), null), RAW_PEOPLE));
            int peopleChunks = chunks.size();
            chunks.addAll(chunks(firstColumn(dir.resolve("title.basics.tsv.gz"), "movie"), RAW_MOVIES));
            for (int c = 0; c < chunks.size(); c++) {
                List<Map<String, AttributeValue>> segment = new ArrayList<>(c < peopleChunks
                        ? imported.people(chunks.get(c)) : imported.movieCollections(chunks.get(c)));
                // The import writes in the files' order, near key order.
                segment.sort(Comparator.comparing((Map<String, AttributeValue> item) -> item.get("pk").s())
                        .thenComparing(item -> item.get("sk").s()));
                long t = System.nanoTime();
                batches.putAll(segment, PARALLEL_WRITES).join();
                rawNanos += System.nanoTime() - t;
                rawItems += segment.size();
                System.out.printf("  raw: %,d items written (%,d ms writing), %,d ms since the first read%n", rawItems,
                        rawNanos / 1_000_000, (System.nanoTime() - readStart) / 1_000_000);
            }
            double rawRate = rawItems / (rawNanos / 1e9);

            System.out.printf("Raw BatchWriteItem (Batches.putAll, %d in flight, segments of %,d people or %,d movies): %,d"
                    + " items in %,d ms: %,.0f items/s%n", PARALLEL_WRITES, RAW_PEOPLE, RAW_MOVIES, rawItems,
                    rawNanos / 1_000_000, rawRate);
            System.out.printf("Import %,.0f items/s, raw %,.0f items/s: %.1f%% of the raw rate (target >= 80%%)%n",
                    importRate, rawRate, 100 * importRate / rawRate);
        } finally {
            heap.stop();
            client.close();
            dynamo.close();
            if (rawClient != null) {
                rawClient.close();
            }
            if (rawDynamo != null) {
                rawDynamo.close();
            }
            if (rawData != null) {
                delete(rawData);
            }
            if (data != null && dataDir == null) {
                delete(data);
            }
            if (out == null) {
                delete(dir);
            }
        }
    }

    /** The ids in the first column of a generated file, of rows whose second column is {@code type} (any if null). */
    private static List<String> firstColumn(Path file, String type) throws IOException {
        List<String> ids = new ArrayList<>();
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(
                new GZIPInputStream(Files.newInputStream(file), 1 << 16), StandardCharsets.UTF_8))) {
            reader.readLine();
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                String[] columns = line.split("\t", 3);
                if (type == null || type.equals(columns[1])) {
                    ids.add(columns[0]);
                }
            }
        }
        return ids;
    }

    private static List<List<String>> chunks(List<String> ids, int size) {
        List<List<String>> chunks = new ArrayList<>();
        for (int i = 0; i < ids.size(); i += size) {
            chunks.add(ids.subList(i, Math.min(ids.size(), i + size)));
        }
        return chunks;
    }

    private static void delete(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(file);
            }
        }
    }

    /** Polls the heap every 200 ms for the largest used. */
    private static final class HeapWatch {
        final AtomicLong peakUsed = new AtomicLong();
        private volatile boolean running;
        private Thread thread;

        void start() {
            running = true;
            thread = new Thread(() -> {
                while (running) {
                    long used = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
                    peakUsed.accumulateAndGet(used, Math::max);
                    try {
                        Thread.sleep(200);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }, "heap-watch");
            thread.setDaemon(true);
            thread.start();
        }

        void stop() {
            running = false;
        }
    }

    /**
     * IMDb's five files for {@code movies} movies, written in one streamed pass over the titles (and one
     * over the people): 1 title in 6 of another type, 1% of movies adult, years 1920..2024 with 3% unknown,
     * some long and non-ASCII titles, 90% of titles rated with long-tailed votes, 2.5 people per movie,
     * 6 to 10 principals per movie (one director, one or two writers, the rest mostly cast), a few stars
     * in thousands of movies and a few movies with a hundred principals.
     */
    static final class DataSet {
        private static final String N = "\\N";
        private static final int STARS = 30;
        private static final String[] OTHER_TYPES = {"short", "tvEpisode", "tvSeries", "tvMovie", "video", "tvMiniSeries"};
        private static final String[] GENRES = {"Drama", "Comedy", "Documentary", "Action", "Romance", "Thriller",
            "Crime", "Horror", "Adventure", "Family", "Mystery", "Fantasy", "Sci-Fi", "Animation", "Biography",
            "History", "Music", "War", "Western", "Musical", "Sport", "Film-Noir"};
        private static final String[] WORDS = {"the", "night", "of", "last", "love", "city", "river", "blood", "dream",
            "house", "king", "war", "summer", "shadow", "man", "woman", "return", "road", "dark", "star", "secret",
            "journey", "fire", "heart", "story", "lost", "winter", "time", "island", "game", "girl", "boy"};
        private static final String[] FOREIGN = {"Amélie", "Le Fabuleux Destin", "千と千尋の神隠し", "Ōkami", "Crónica",
            "Дорога", "Æon Flux", "Smultronstället", "Ça commence", "Die Blechtrommel", "Đêm", "Ἰλιάς", "서울의 봄",
            "Çoban", "Łódź", "جدایی"};
        private static final String[] FIRST = {"John", "Mary", "James", "Anna", "Robert", "Maria", "Michael", "Emma",
            "David", "Sofia", "Jean", "Chloé", "José", "Zoë", "Björn", "Søren", "Akira", "Yuki", "Olga", "Raúl",
            "Li", "Priya", "Ahmed", "Fatma", "Dmitri", "Ingrid", "Pedro", "Léa"};
        private static final String[] LAST = {"Smith", "Johnson", "Brown", "García", "Müller", "Rossi", "Dubois",
            "Kowalski", "Tanaka", "Kim", "Nguyen", "Ivanov", "Silva", "Andersson", "O'Brien", "Núñez", "Çelik",
            "Håkansson", "Novák", "Øvergaard", "Singh", "Chen", "Khan", "López", "Moreau", "Schmidt"};
        private static final String[] PROFESSIONS = {"actor", "actress", "director", "writer", "producer",
            "composer", "cinematographer", "editor", "self", "soundtrack", "miscellaneous"};
        private static final String[] CAST = {"actor", "actor", "actress", "actress", "actor", "actress", "self"};
        private static final String[] OTHER_CREW = {"producer", "composer", "cinematographer", "editor"};

        private final int movies;
        private final int people;
        private final Random random;

        DataSet(int movies, Random random) {
            this.movies = movies;
            this.people = (int) (movies * 2.5);
            this.random = random;
        }

        /** Writes the files into {@code dir}; returns the rows of each. */
        Map<String, Long> write(Path dir) throws IOException {
            Map<String, Long> rows = new LinkedHashMap<>();
            long titleRows = 0;
            long ratingRows = 0;
            long principalRows = 0;
            try (Writer basics = open(dir, "title.basics.tsv.gz");
                 Writer ratings = open(dir, "title.ratings.tsv.gz");
                 Writer principals = open(dir, "title.principals.tsv.gz");
                 Writer crew = open(dir, "title.crew.tsv.gz")) {
                basics.write("tconst\ttitleType\tprimaryTitle\toriginalTitle\tisAdult\tstartYear\tendYear\truntimeMinutes\tgenres\n");
                ratings.write("tconst\taverageRating\tnumVotes\n");
                principals.write("tconst\tordering\tnconst\tcategory\tjob\tcharacters\n");
                crew.write("tconst\tdirectors\twriters\n");
                int total = movies + movies / 5;
                StringBuilder line = new StringBuilder(256);
                for (int i = 0; i < total; i++) {
                    boolean movie = i % 6 != 5;
                    String id = String.format("tt%07d", i + 1);
                    titleRows++;
                    String title = title();
                    line.setLength(0);
                    line.append(id).append('\t').append(movie ? "movie" : pick(OTHER_TYPES)).append('\t').append(title)
                            .append('\t').append(random.nextInt(10) == 0 ? title() : title).append('\t')
                            .append(movie && random.nextInt(100) == 0 ? '1' : '0').append('\t')
                            .append(random.nextInt(100) < 3 ? N : Integer.toString(Math.min(2024,
                                    1920 + (int) (105 * Math.sqrt(random.nextDouble()))))).append('\t').append(N)
                            .append('\t').append(random.nextInt(10) == 0 ? N : Integer.toString(60 + random.nextInt(120)))
                            .append('\t').append(genres()).append('\n');
                    basics.append(line);
                    if (random.nextInt(10) != 0) {
                        ratingRows++;
                        double u = random.nextDouble();
                        long votes = Math.min(3_000_000L, 5 + (long) (5 / Math.pow(1 - u, 1.6)));
                        ratings.append(id).append('\t').append(rating()).append('\t')
                                .append(Long.toString(votes)).append('\n');
                    }
                    principalRows += principals(principals, crew, id, movie);
                }
            }
            rows.put("title.basics", titleRows);
            rows.put("title.ratings", ratingRows);
            rows.put("title.principals", principalRows);
            rows.put("title.crew", titleRows);
            try (Writer names = open(dir, "name.basics.tsv.gz")) {
                names.write("nconst\tprimaryName\tbirthYear\tdeathYear\tprimaryProfession\tknownForTitles\n");
                StringBuilder line = new StringBuilder(128);
                for (int p = 1; p <= people; p++) {
                    line.setLength(0);
                    int birth = 1880 + random.nextInt(125);
                    line.append(String.format("nm%07d", p)).append('\t').append(pick(FIRST)).append(' ')
                            .append(pick(LAST)).append('\t')
                            .append(random.nextInt(100) < 2 ? N : Integer.toString(birth)).append('\t')
                            .append(birth < 1940 && random.nextBoolean() ? Integer.toString(birth + 40 + random.nextInt(50))
                                    : N).append('\t');
                    int professions = random.nextInt(4);
                    for (int k = 0; k < professions; k++) {
                        line.append(k == 0 ? "" : ",").append(pick(PROFESSIONS));
                    }
                    line.append(professions == 0 ? N : "").append('\t');
                    int known = random.nextInt(5);
                    if (known == 0) {
                        line.append(N);
                    }
                    for (int k = 0; k < known; k++) {
                        line.append(k == 0 ? "" : ",").append(String.format("tt%07d", 1 + random.nextInt(movies)));
                    }
                    names.append(line).append('\n');
                }
            }
            rows.put("name.basics", (long) people);
            return rows;
        }

        /** The principals of one title (and its title.crew line); returns the principal rows written. */
        private int principals(Writer principals, Writer crew, String id, boolean movie) throws IOException {
            int count = movie ? (random.nextInt(1000) == 0 ? 60 + random.nextInt(60) : 6 + random.nextInt(5))
                    : 1 + random.nextInt(4);
            int writers = movie ? 1 + random.nextInt(2) : 0;
            int director = movie ? 1 + random.nextInt(count - writers) : 0;
            int[] chosen = new int[count];
            StringBuilder directors = new StringBuilder();
            StringBuilder writerIds = new StringBuilder();
            StringBuilder line = new StringBuilder(128);
            for (int ordering = 1; ordering <= count; ordering++) {
                String category;
                String job = N;
                boolean cast = false;
                if (ordering == director) {
                    category = "director";
                } else if (ordering > count - writers) {
                    category = "writer";
                    job = random.nextBoolean() ? "screenplay" : "novel";
                } else if (random.nextInt(12) == 0) {
                    category = pick(OTHER_CREW);
                } else {
                    category = pick(CAST);
                    cast = true;
                }
                int person = person(cast, chosen, ordering - 1);
                String personId = String.format("nm%07d", person);
                if (category.equals("director")) {
                    directors.append(directors.length() == 0 ? "" : ",").append(personId);
                } else if (category.equals("writer")) {
                    writerIds.append(writerIds.length() == 0 ? "" : ",").append(personId);
                }
                line.setLength(0);
                line.append(id).append('\t').append(ordering).append('\t').append(personId).append('\t')
                        .append(category).append('\t').append(job).append('\t');
                if (!cast || random.nextInt(20) == 0) {
                    line.append(N);
                } else if (category.equals("self")) {
                    line.append("[\"Self\"]");
                } else {
                    line.append("[\"").append(pick(FIRST)).append(random.nextInt(8) == 0 ? " (voice)" : "").append('"');
                    if (random.nextInt(15) == 0) {
                        line.append(",\"").append(pick(LAST)).append('"');
                    }
                    line.append(']');
                }
                principals.append(line).append('\n');
            }
            crew.append(id).append('\t').append(directors.length() == 0 ? N : directors).append('\t')
                    .append(writerIds.length() == 0 ? N : writerIds).append('\n');
            return count;
        }

        /**
         * A person for a principal: cast picks a star 1 time in 30 (star k about 1/k as often as the first),
         * otherwise anyone, the lower numbers more often; 1 in 2,000 is not in name.basics at all.
         */
        private int person(boolean cast, int[] chosen, int index) {
            while (true) {
                int person;
                if (random.nextInt(2000) == 0) {
                    person = people + 1 + random.nextInt(1000);
                } else if (cast && random.nextInt(30) == 0) {
                    person = 1 + (int) Math.min(STARS - 1, Math.floor(Math.exp(random.nextDouble() * Math.log(STARS))) - 1);
                } else {
                    person = STARS + 1 + (int) ((people - STARS) * Math.pow(random.nextDouble(), 1.7));
                }
                boolean taken = false;
                for (int k = 0; k < index; k++) {
                    taken |= chosen[k] == person;
                }
                if (!taken || random.nextInt(500) == 0) {
                    chosen[index] = person;
                    return person;
                }
            }
        }

        private String title() {
            int kind = random.nextInt(200);
            StringBuilder title = new StringBuilder();
            if (kind == 0) {
                while (title.length() < 150 + random.nextInt(200)) {
                    title.append(title.length() == 0 ? "" : " ").append(pick(WORDS));
                }
            } else if (kind < 12) {
                title.append(pick(FOREIGN));
                if (random.nextBoolean()) {
                    title.append(' ').append(pick(FOREIGN));
                }
            } else {
                int words = 1 + random.nextInt(4);
                for (int w = 0; w < words; w++) {
                    String word = pick(WORDS);
                    title.append(w == 0 ? "" : " ").append(Character.toUpperCase(word.charAt(0))).append(word, 1, word.length());
                }
                if (random.nextInt(15) == 0) {
                    title.append(' ').append(2 + random.nextInt(4));
                }
            }
            return title.toString();
        }

        private String genres() {
            int count = random.nextInt(20) == 0 ? 0 : 1 + random.nextInt(3);
            if (count == 0) {
                return N;
            }
            StringBuilder genres = new StringBuilder();
            for (int g = 0; g < count; g++) {
                String genre = pick(GENRES);
                if (genres.indexOf(genre) < 0) {
                    genres.append(genres.length() == 0 ? "" : ",").append(genre);
                }
            }
            return genres.toString();
        }

        private String rating() {
            int tenths = (int) Math.round(10 * (6.2 + 1.3 * random.nextGaussian()));
            tenths = Math.max(10, Math.min(100, tenths));
            return tenths / 10 + "." + tenths % 10;
        }

        private String pick(String[] values) {
            return values[random.nextInt(values.length)];
        }

        private static Writer open(Path dir, String name) throws IOException {
            return new BufferedWriter(new OutputStreamWriter(
                    new GZIPOutputStream(Files.newOutputStream(dir.resolve(name)), 1 << 16), StandardCharsets.UTF_8), 1 << 16);
        }
    }
}
