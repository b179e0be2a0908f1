package dev.moviegraph.imdb;

import dev.moviegraph.catalog.CatalogImport;
import dev.moviegraph.catalog.Credit;
import dev.moviegraph.catalog.ImportCheckpoint;
import dev.moviegraph.catalog.KnownFor;
import dev.moviegraph.catalog.RankedPerson;
import dev.moviegraph.catalog.BilledCast;
import dev.moviegraph.catalog.Movie;
import dev.moviegraph.catalog.MovieId;
import dev.moviegraph.catalog.MovieTitle;
import dev.moviegraph.catalog.Person;
import dev.moviegraph.catalog.PersonId;
import dev.moviegraph.catalog.Role;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Imports IMDb's datasets, as published, into the catalog through {@link CatalogImport}. The files are
 * streamed; what is held in memory is bounded by the titles and people kept, never by the file sizes:
 * the ids of candidate titles, the kept titles' title and year (for the copies credits carry), the kept
 * people's names, and the crew of the kept titles.
 *
 * <p>Phases, each a pass over one file: {@code titles} (title.basics: the candidate ids), {@code ratings}
 * (title.ratings: ratings of the candidates), {@code kept} (title.basics again: the {@code --min-votes}
 * filter, and each kept title's title and year), {@code referenced} (title.principals and title.crew:
 * who the kept titles credit, and their crew), {@code people} (name.basics: the person items),
 * {@code cast} (title.principals again: cast credits), {@code crew} (director and writer credits),
 * {@code akas} (title.akas, when there: the titles each kept title is known by elsewhere), {@code movies} (title.basics a last time: the movie items) and, when the table held an earlier
 * import, {@code reconcile}. Every copy a credit carries comes from what this import holds in memory,
 * so it is true at the end whatever order the files list their rows in; and a movie item is written
 * only after all of its credits, so a movie never shows half its cast.
 *
 * <p>Chunks of items are written while the reading goes on, {@value ResumablePasses#IN_FLIGHT} at a time, so
 * parsing and writing overlap. Resumable: as chunks are stored, in order, the checkpoint item records the phase and
 * the last line whose items, and every earlier line's, are all stored. Run again with the same arguments and files, the import reads the
 * earlier phases again without writing (to rebuild what it holds in memory), skips the lines already
 * written, and goes on. Items carry no import timestamp, so a resumed run ends with exactly the items an
 * uninterrupted one writes. Once done, a run with the same arguments and files writes nothing.
 */
public final class ImdbImport {
    /** The checkpoint's name among the table's import items. */
    static final String NAME = ImportCheckpoint.IMDB;
    /**
     * Items written (and a checkpoint saved) at a time, about: a chunk is full once its records come to this
     * many items ({@link CatalogImport#itemsOf}), so a kill loses about as much in any phase, whether its
     * records are credits (one item each) or movies (a movie and its search and list entries, 15 or more).
     */
    static final int CHUNK = 4_000;
    private static final Set<String> CAST_CATEGORIES = Set.of("actor", "actress", "self");
    /** Movies reconciled at a time, in parallel, between checkpoints. */
    private static final int RECONCILE_CHUNK = 256;
    private static final int RECONCILE_THREADS = 16;

    /** What to import: {@code --title-types}, {@code --include-adult}, {@code --min-votes}. */
    public record Options(Path dir, Set<String> titleTypes, boolean includeAdult, int minVotes, int maxWriteUnits) {
        public Options {
            titleTypes = Set.copyOf(titleTypes);
        }

        public Options(Path dir, Set<String> titleTypes, boolean includeAdult, int minVotes) {
            this(dir, titleTypes, includeAdult, minVotes, 0);
        }

        String arguments() {
            return "types=" + String.join(",", new java.util.TreeSet<>(titleTypes)) + ";adult=" + includeAdult
                    + ";minVotes=" + minVotes;
        }
    }

    /** What a run did. */
    public record Summary(boolean alreadyDone, long rowsRead, long movies, long people, long credits,
                          long itemsWritten, SkipCounts skips, long millis) {
    }

    /** A kept title's fields that credits copy. */
    private record TitleCopy(String title, Integer year) {
    }

    /** A director or writer of a kept title, in the order the files give. */
    private record CrewEntry(String personId, Role role) {
    }

    private final Options options;
    private final CatalogImport target;
    private final ImportProgress progress;
    private final SkipCounts skips = new SkipCounts();
    private final int chunkItems;
    /** This run's passes over the files, from where an earlier run of the same import stopped. */
    private ResumablePasses passes;

    /** Whether this import runs over a catalog an earlier one wrote (a newer IMDb release, other filters). */
    private boolean update;
    /** In an update with title.akas, the other titles (orderings) this import has for each kept title; null without it. */
    private Map<String, Set<Integer>> titleOrderings;
    /** In an update, the credits this import has for each kept title: any other is deleted. */
    private final Map<String, Set<CatalogImport.CreditKey>> creditsOf = new HashMap<>();
    private long movies;
    private long people;
    private long credits;

    /** Candidate titles (type and adult flag pass), and every title title.basics has, as bits. */
    private final IdSet candidates = new IdSet();
    private final IdSet known = new IdSet();
    private final Map<String, RatingRow> ratings = new HashMap<>();
    private final Map<String, TitleCopy> kept = new HashMap<>();
    private final IdSet referenced = new IdSet();
    private final Map<String, String> names = new HashMap<>();
    /**
     * Each referenced person's credits in each role (acted, directed, wrote), counted as the cast and crew
     * phases will write them, so the person item carries exact counts; and each kept title's cast as the
     * cast phase wrote it, for the movie item.
     */
    private final Map<String, int[]> creditCounts = new HashMap<>();
    private final Map<String, Integer> castOf = new HashMap<>();
    /** Each kept title's first-billed cast as the cast phase wrote it, copied onto its movie item. */
    private final Map<String, List<BilledCast>> firstCastOf = new HashMap<>();
    /** Each referenced person's most voted kept title: their rank in search. */
    private final Map<String, KnownFor> knownFor = new HashMap<>();
    private final Map<String, List<CrewEntry>> crew = new TreeMap<>();

    public ImdbImport(Options options, CatalogImport target, Consumer<String> out, boolean terminal) {
        this(options, target, out, terminal, CHUNK);
    }

    ImdbImport(Options options, CatalogImport target, Consumer<String> out, boolean terminal, int chunkItems) {
        this.options = options;
        this.target = target;
        this.progress = new ImportProgress(out, terminal, target::itemsWritten);
        this.chunkItems = chunkItems;
    }

    public Summary run() {
        long started = System.nanoTime();
        Path basics = required(TitleBasicsParser.FILE_NAME);
        Path principals = required(TitlePrincipalsParser.FILE_NAME);
        Path nameBasics = required(NameBasicsParser.FILE_NAME);
        Optional<Path> ratingsFile = optional(TitleRatingsParser.FILE_NAME);
        Optional<Path> crewFile = optional(TitleCrewParser.FILE_NAME);
        Optional<Path> akasFile = optional(TitleAkasParser.FILE_NAME);
        if (options.minVotes() > 0 && ratingsFile.isEmpty()) {
            throw new IllegalArgumentException("--min-votes needs " + TitleRatingsParser.FILE_NAME + " in " + options.dir());
        }
        List<Path> files = new ArrayList<>(List.of(basics, principals, nameBasics));
        ratingsFile.ifPresent(files::add);
        crewFile.ifPresent(files::add);
        akasFile.ifPresent(files::add);
        String runArguments = arguments(files, ImdbImport::stamp);
        Optional<ImportCheckpoint> saved = target.checkpoint(NAME);
        // A checkpoint saved by a version that stamped files by modification time is this import too, if
        // the files are as they were then: an upgrade neither restarts nor rewrites an import.
        boolean same = saved.isPresent() && (saved.get().arguments().equals(runArguments)
                || saved.get().arguments().equals(arguments(files, ImdbImport::stampByTime)));
        update = saved.isPresent() && (!same || saved.get().update());
        ImportCheckpoint resumeFrom = null;
        if (same) {
            if (saved.get().done()) {
                progress.line("Already imported with these arguments and files; nothing to write");
                return new Summary(true, 0, 0, 0, 0, 0, skips, (System.nanoTime() - started) / 1_000_000);
            }
            resumeFrom = saved.get();
            progress.line("Resuming at phase " + resumeFrom.phase() + ", after line " + resumeFrom.line());
        }
        passes = new ResumablePasses(target, progress, skips, chunkItems, runArguments, update, resumeFrom);
        titles(basics);
        ratingsFile.ifPresent(this::ratings);
        keep(basics);
        referenced(principals, crewFile);
        people(nameBasics);
        cast(principals);
        crew();
        akasFile.ifPresent(this::akas);
        movies(basics);
        if (update) {
            reconcile();
        }
        passes.save("done", 0, true);
        long millis = (System.nanoTime() - started) / 1_000_000;
        long rowsRead = passes.rowsRead();
        Summary summary = new Summary(false, rowsRead, movies, people, credits, target.itemsWritten(), skips, millis);
        progress.line(String.format("Imported %,d movies, %,d people, %,d credits: %,d rows read, %,d items written"
                        + " in %,d ms; %,d rows skipped%s", movies, people, credits, rowsRead, target.itemsWritten(),
                millis, skips.total(), skips.total() == 0 ? "" : ":\n" + skips.summary()));
        return summary;
    }

    // ---- phases

    private void titles(Path basics) {
        passes.read(basics, new TitleBasicsParser(), "titles", false, (row, line) -> {
            known.add(row.id());
            if (options.titleTypes().contains(row.type()) && (!row.adult() || options.includeAdult())) {
                candidates.add(row.id());
            }
        });
    }

    private void ratings(Path file) {
        passes.read(file, new TitleRatingsParser(), "ratings", false, (row, line) -> {
            if (candidates.contains(row.titleId())) {
                ratings.put(row.titleId(), row);
            }
        });
    }

    /** The titles kept: candidates that pass --min-votes, with the title and year their credits copy. */
    private void keep(Path basics) {
        passes.read(basics, new TitleBasicsParser(), "kept", false, (row, line) -> {
            RatingRow rating = ratings.get(row.id());
            if (candidates.contains(row.id())
                    && (options.minVotes() == 0 || rating != null && rating.numVotes() >= options.minVotes())) {
                kept.put(row.id(), new TitleCopy(row.primaryTitle(), row.startYear()));
            }
        });
        candidates.clear();
    }

    /**
     * The titles each kept title is known by (title.akas), before the movie items, with the search entries
     * that find a movie by them. A title's rows come together in the file, as IMDb publishes it: each
     * title's are written as one record, when the next title's first row (or the end) is read.
     */
    private void akas(Path file) {
        titleOrderings = new HashMap<>();
        List<AkaRow> group = new ArrayList<>();
        passes.read(file, new TitleAkasParser(), "akas", (row, line) -> {
            List<? extends Record> done = null;
            if (!group.isEmpty() && !group.get(0).titleId().equals(row.titleId())) {
                done = titlesOf(group);
                group.clear();
            }
            if (kept.containsKey(row.titleId())) {
                group.add(row);
            }
            return done;
        }, () -> titlesOf(group));
    }

    /** A kept title's titles as one record, with its own title, year and votes for their search entries. */
    private List<? extends Record> titlesOf(List<AkaRow> rows) {
        if (rows.isEmpty()) {
            return null;
        }
        MovieId movie = MovieId.of(rows.get(0).titleId());
        if (update) {
            titleOrderings.put(movie.value(), rows.stream().map(AkaRow::ordering).collect(java.util.stream.Collectors.toSet()));
        }
        TitleCopy copy = kept.get(movie.value());
        RatingRow rating = ratings.get(movie.value());
        return List.of(new MovieTitle.OfMovie(movie, copy.title(), copy.year(), rating == null ? null : rating.numVotes(),
                rows.stream().map(row -> new MovieTitle(movie, row.ordering(), row.title(), row.region(), row.language(),
                        row.types(), row.attributes(), row.original())).toList()));
    }

    /**
     * The movie items, last: a movie appears (to {@code movie(id)}, which reads its item) only once its
     * people and every credit are written, never half-written.
     */
    private void movies(Path basics) {
        passes.read(basics, new TitleBasicsParser(), "movies", true, (row, line) -> {
            if (!kept.containsKey(row.id())) {
                return null;
            }
            RatingRow rating = ratings.get(row.id());
            movies++;
            return List.of(new Movie(MovieId.of(row.id()), row.primaryTitle(), row.startYear(), null, row.genres(),
                    row.runtimeMinutes(), rating == null ? null : rating.averageRating(),
                    rating == null ? null : rating.numVotes(), castOf.getOrDefault(row.id(), 0),
                    firstCastOf.getOrDefault(row.id(), List.of())));
        });
        ratings.clear();
        castOf.clear();
        firstCastOf.clear();
    }

    private void count(String personId, Role role) {
        creditCounts.computeIfAbsent(personId, id -> new int[Role.values().length])[role.ordinal()]++;
    }

    private void referenced(Path principals, Optional<Path> crewFile) {
        Map<String, Map<String, CrewEntry>> fromPrincipals = new HashMap<>();
        String[] lastTitle = {null};
        Set<String> castInTitle = new HashSet<>();
        passes.read(principals, new TitlePrincipalsParser(), "referenced", false, (row, line) -> {
            if (!kept.containsKey(row.titleId())) {
                if (!known.contains(row.titleId())) {
                    skips.add(new Skip(TitlePrincipalsParser.FILE_NAME, line, SkipReason.UNKNOWN_TITLE, row.titleId()));
                }
                return;
            }
            referenced.add(row.personId());
            known(row.personId(), row.titleId());
            if (CAST_CATEGORIES.contains(row.category())) {
                if (!row.titleId().equals(lastTitle[0])) {
                    lastTitle[0] = row.titleId();
                    castInTitle.clear();
                }
                if (castInTitle.add(row.personId())) {
                    count(row.personId(), Role.CAST);
                }
            }
            Role role = crewRole(row.category());
            if (role != null) {
                fromPrincipals.computeIfAbsent(row.titleId(), id -> new TreeMap<>())
                        .put(String.format("%06d", row.ordering()), new CrewEntry(row.personId(), role));
            }
        });
        crewFile.ifPresent(file -> passes.read(file, new TitleCrewParser(), "referenced", false, (row, line) -> {
            if (!kept.containsKey(row.titleId())) {
                if (!known.contains(row.titleId())) {
                    skips.add(new Skip(TitleCrewParser.FILE_NAME, line, SkipReason.UNKNOWN_TITLE, row.titleId()));
                }
                return;
            }
            List<CrewEntry> entries = crew.computeIfAbsent(row.titleId(), id -> new ArrayList<>());
            row.directors().forEach(person -> entries.add(new CrewEntry(person, Role.DIRECTOR)));
            row.writers().forEach(person -> entries.add(new CrewEntry(person, Role.WRITER)));
            row.directors().forEach(referenced::add);
            row.writers().forEach(referenced::add);
            row.directors().forEach(person -> known(person, row.titleId()));
            row.writers().forEach(person -> known(person, row.titleId()));
        }));
        known.clear();
        // title.crew's order first (it lists every director and writer), then those only principals name.
        fromPrincipals.forEach((title, byOrdering) -> {
            List<CrewEntry> entries = crew.computeIfAbsent(title, id -> new ArrayList<>());
            byOrdering.values().forEach(entries::add);
        });
        // Each title's crew as the crew phase writes it: a person once per role.
        crew.values().forEach(entries -> {
            Set<String> seen = new HashSet<>();
            entries.forEach(member -> {
                if (seen.add(member.role() + member.personId())) {
                    count(member.personId(), member.role());
                }
            });
        });
    }

    /** Notes that {@code personId} is credited on kept title {@code titleId}, which may be their best known. */
    private void known(String personId, String titleId) {
        TitleCopy copy = kept.get(titleId);
        RatingRow rating = ratings.get(titleId);
        if (copy != null && rating != null) {
            knownFor.merge(personId, new KnownFor(MovieId.of(titleId), copy.title(), copy.year(), rating.numVotes()),
                    KnownFor::better);
        }
    }

    private void people(Path nameBasics) {
        passes.read(nameBasics, new NameBasicsParser(), "people", true, (row, line) -> {
            if (!referenced.contains(row.id())) {
                return null;
            }
            names.put(row.id(), row.name());
            people++;
            int[] counts = creditCounts.getOrDefault(row.id(), new int[Role.values().length]);
            return List.of(new RankedPerson(new Person(PersonId.of(row.id()), row.name(), row.birthYear(),
                    row.deathYear(), row.professions(), counts[Role.CAST.ordinal()], counts[Role.DIRECTOR.ordinal()],
                    counts[Role.WRITER.ordinal()]), knownFor.get(row.id())));
        });
        referenced.clear();
        knownFor.clear();
    }

    private void cast(Path principals) {
        Set<String> seen = new HashSet<>();
        String[] title = {null};
        passes.read(principals, new TitlePrincipalsParser(), "cast", true, (row, line) -> {
            TitleCopy copy = kept.get(row.titleId());
            if (copy == null || !CAST_CATEGORIES.contains(row.category())) {
                return null;
            }
            if (!names.containsKey(row.personId())) {
                skips.add(new Skip(TitlePrincipalsParser.FILE_NAME, line, SkipReason.UNKNOWN_PERSON, row.personId()));
                return null;
            }
            if (!row.titleId().equals(title[0])) {
                title[0] = row.titleId();
                seen.clear();
            }
            if (!seen.add(row.personId())) {
                // A second cast row of the same person in the same title: the first (best billed) stays.
                skips.add(new Skip(TitlePrincipalsParser.FILE_NAME, line, SkipReason.DUPLICATE,
                        row.titleId() + " " + row.personId()));
                return null;
            }
            credits++;
            castOf.merge(row.titleId(), 1, Integer::sum);
            remember(row.titleId(), row.personId(), Role.CAST);
            Credit credit = new Credit(MovieId.of(row.titleId()), PersonId.of(row.personId()), Role.CAST, copy.title(),
                    copy.year(), names.get(row.personId()), row.characters(), row.ordering());
            firstCastOf.merge(row.titleId(), List.of(BilledCast.of(credit)), (first, more) -> BilledCast.firstBilled(
                    java.util.stream.Stream.concat(first.stream(), more.stream()).toList()));
            return List.of(credit);
        });
    }

    private void crew() {
        progress.phase("crew", null);
        long done = passes.resumeLine("crew");
        long index = 0;
        ResumablePasses.Chunk chunk = passes.chunk();
        for (Map.Entry<String, List<CrewEntry>> entry : crew.entrySet()) {
            index++;
            TitleCopy copy = kept.get(entry.getKey());
            Map<Role, Integer> positions = new HashMap<>();
            Set<String> seen = new HashSet<>();
            for (CrewEntry member : entry.getValue()) {
                if (!seen.add(member.role() + member.personId())) {
                    continue; // named by both title.crew and title.principals
                }
                if (!names.containsKey(member.personId())) {
                    skips.add(new Skip(TitleCrewParser.FILE_NAME, 0, SkipReason.UNKNOWN_PERSON,
                            entry.getKey() + " " + member.personId()));
                    continue;
                }
                int position = positions.merge(member.role(), 1, Integer::sum);
                credits++;
                remember(entry.getKey(), member.personId(), member.role());
                if (index > done) {
                    chunk.add(new Credit(MovieId.of(entry.getKey()), PersonId.of(member.personId()), member.role(),
                            copy.title(), copy.year(), names.get(member.personId()), List.of(), position));
                }
            }
            if (chunk.full()) {
                passes.flush(chunk, "crew", index);
            }
            progress.tick(index, -1);
        }
        passes.flush(chunk, "crew", index);
        passes.settle(0);
        creditCounts.clear();
    }

    private void remember(String titleId, String personId, Role role) {
        if (update) {
            creditsOf.computeIfAbsent(titleId, id -> new HashSet<>())
                    .add(new CatalogImport.CreditKey(PersonId.of(personId), role));
        }
    }

    /**
     * An update's last phase: every kept movie's collection is read once (one Query), the credits the new
     * files no longer have are deleted, and its monthly totals copy the new title; their counts stay.
     * Then every kept person's search entries of a name they no longer have are deleted.
     */
    private void reconcile() {
        progress.phase("reconcile", null);
        long done = passes.resumeLine("reconcile");
        // Every kept title, then every kept person (whose search entries a rename leaves behind).
        List<String> ids = new ArrayList<>(new java.util.TreeSet<>(kept.keySet()));
        ids.addAll(new java.util.TreeSet<>(names.keySet()));
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(RECONCILE_THREADS);
        try {
            for (int from = 0; from < ids.size(); from += RECONCILE_CHUNK) {
                int to = Math.min(ids.size(), from + RECONCILE_CHUNK);
                if (to <= done) {
                    continue;
                }
                List<java.util.concurrent.Future<Integer>> running = new ArrayList<>();
                for (String id : ids.subList(from, to)) {
                    running.add(pool.submit(() -> kept.containsKey(id)
                            ? target.reconcile(MovieId.of(id), creditsOf.getOrDefault(id, Set.of()), kept.get(id).title(),
                                    titleOrderings == null ? null : titleOrderings.getOrDefault(id, Set.of()))
                            : target.reconcilePerson(PersonId.of(id), names.get(id))));
                }
                for (java.util.concurrent.Future<Integer> result : running) {
                    result.get();
                }
                passes.save("reconcile", to, false);
                progress.tick(to, -1);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Import interrupted; run it again to go on", e);
        } catch (java.util.concurrent.ExecutionException e) {
            throw e.getCause() instanceof RuntimeException runtime ? runtime : new IllegalStateException(e.getCause());
        } finally {
            pool.shutdownNow();
        }
    }


    private static Role crewRole(String category) {
        return switch (category) {
            case "director" -> Role.DIRECTOR;
            case "writer" -> Role.WRITER;
            default -> null;
        };
    }

    private Path required(String name) {
        Path file = options.dir().resolve(name);
        if (!Files.isReadable(file)) {
            throw new IllegalArgumentException("Missing or unreadable " + name + " in " + options.dir());
        }
        return file;
    }

    private Optional<Path> optional(String name) {
        Path file = options.dir().resolve(name);
        return Files.isReadable(file) ? Optional.of(file) : Optional.empty();
    }

    /**
     * A file's identity for the checkpoint, by content: its size and its last 8 bytes, which in a gzip file
     * are the CRC-32 and the length of what it holds. A newer IMDb release is another import; the same files
     * touched, copied or generated again are the same one (an earlier stamp took the modification time, so a
     * touched file made the next run rewrite and reconcile everything).
     */
    private static String stamp(Path file) {
        try (SeekableByteChannel channel = Files.newByteChannel(file)) {
            long size = channel.size();
            ByteBuffer trailer = ByteBuffer.allocate((int) Math.min(8, size));
            channel.position(size - trailer.capacity());
            while (trailer.hasRemaining() && channel.read(trailer) >= 0) {
                // read the whole trailer
            }
            return file.getFileName() + ":" + size + ":" + HexFormat.of().formatHex(trailer.array()) + ";";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The stamp of versions before the one above, which checkpoints saved by them carry. */
    private static String stampByTime(Path file) {
        try {
            return file.getFileName() + ":" + Files.size(file) + ":" + Files.getLastModifiedTime(file).toMillis() + ";";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private String arguments(List<Path> files, Function<Path, String> stamp) {
        StringBuilder arguments = new StringBuilder(options.arguments()).append(";files=");
        files.forEach(file -> arguments.append(stamp.apply(file)));
        return arguments.toString();
    }

    static Map<String, Long> countsOf(SkipCounts skips) {
        Map<String, Long> counts = new LinkedHashMap<>();
        for (SkipReason reason : SkipReason.values()) {
            counts.put(reason.name(), skips.count(reason));
        }
        return counts;
    }
}

