package dev.moviegraph.imdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.catalog.CatalogImport;
import dev.moviegraph.catalog.ImportCheckpoint;
import dev.moviegraph.catalog.Movie;
import dev.moviegraph.catalog.MovieId;
import dev.moviegraph.catalog.PersonId;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills and resumes of the import in this JVM, over a target that keeps what it stores in memory and
 * stops working after a given number of records, as a killed process would: what each run writes is
 * what remained, plus at most what a kill can lose.
 */
class ImportResumeTest {
    private static final int MOVIES = 2_000;
    private static final int PEOPLE = 1_000;
    /** Items a chunk holds, about (it is full once its records come to this many items). */
    private static final int CHUNK = 100;
    /** The items of a wide movie record (a real movie is 15 or more: the movie, its search and list entries). */
    private static final int WIDE = 25;
    /** What a kill can lose: the chunk being filled and the ones in flight, each up to one record past full. */
    private static final int LAG = (ResumablePasses.IN_FLIGHT + 1) * (CHUNK + WIDE);

    @TempDir
    Path files;

    /** Whether the target counts a movie as {@link #WIDE} items (otherwise every record is one). */
    private boolean wideMovies;
    /** The table: records stored (a record stored twice is one) and the checkpoint. */
    private final Set<Record> stored = new HashSet<>();
    private final Map<String, ImportCheckpoint> checkpoints = new HashMap<>();

    @Test
    void aSecondKillEarlyInAResumeDoesNotSendTheNextRunBack() {
        ImdbFixture.writeGeneratedSet(files, MOVIES, PEOPLE);
        int whole = (int) run(Long.MAX_VALUE).itemsWritten();
        assertEquals(whole, stored.size());
        stored.clear();
        checkpoints.clear();

        // Killed in the cast (1,000 people, then 6,000 cast credits, 2,000 crew credits, 2,000 movies).
        assertThrows(IllegalStateException.class, () -> run(4_000));
        int rest = whole - stored.size();
        assertTrue(rest > 5_000, "killed in the cast: " + stored.size() + " of " + whole + " stored");
        // Killed again before the resumed phase stores anything new.
        assertThrows(IllegalStateException.class, () -> run(0));
        assertEquals("cast", checkpoints.get(ImdbImport.NAME).phase(), "the checkpoint did not move back");

        ImdbImport.Summary third = run(Long.MAX_VALUE);
        assertFalse(third.alreadyDone());
        assertTrue(third.itemsWritten() >= rest && third.itemsWritten() <= rest + LAG,
                "rest " + rest + ", lag " + LAG + ": the third run wrote " + third.itemsWritten());
        assertEquals(whole, stored.size());
    }

    @Test
    void aResumeInThePhaseOfWideRecordsWritesTheRestAndAtMostAFewChunksOfItems() {
        wideMovies = true;
        ImdbFixture.writeGeneratedSet(files, MOVIES, PEOPLE);
        long whole = run(Long.MAX_VALUE).itemsWritten();
        assertEquals(whole, items(stored));
        stored.clear();
        checkpoints.clear();

        // 9,000 items of people and credits, then 2,000 movies of 25 items: killed a third of the way in them.
        assertThrows(IllegalStateException.class, () -> run(9_000 + 2_000L * WIDE / 3));
        assertEquals("movies", checkpoints.get(ImdbImport.NAME).phase());
        long rest = whole - items(stored);

        ImdbImport.Summary resumed = run(Long.MAX_VALUE);
        // Chunks of 100 records would have been 2,500 items each: a resume could write 7,500 items again.
        assertTrue(resumed.itemsWritten() >= rest && resumed.itemsWritten() <= rest + LAG,
                "rest " + rest + ", lag " + LAG + ": the resumed run wrote " + resumed.itemsWritten() + " items");
        assertEquals(whole, items(stored));
    }

    @Test
    void touchedFilesOfAFinishedImportAreTheSameImport() throws Exception {
        ImdbFixture.writeGeneratedSet(files, 200, 100);
        run(Long.MAX_VALUE);
        try (Stream<Path> list = Files.list(files)) {
            for (Path file : list.toList()) {
                Files.setLastModifiedTime(file, FileTime.from(Instant.now().plusSeconds(3_600)));
            }
        }
        ImdbImport.Summary again = run(Long.MAX_VALUE);
        assertTrue(again.alreadyDone(), "touched files are not a new release");
        assertEquals(0, again.itemsWritten());

        ImdbFixture.writeGeneratedSet(files, 201, 100); // one more movie: another release
        ImdbImport.Summary newer = run(Long.MAX_VALUE);
        assertFalse(newer.alreadyDone());
    }

    @Test
    void aCheckpointOfAnEarlierVersionStampedByModificationTimeIsStillThisImport() throws Exception {
        ImdbFixture.writeGeneratedSet(files, 200, 100);
        run(Long.MAX_VALUE);
        ImportCheckpoint saved = checkpoints.get(ImdbImport.NAME);
        // What versions before the content stamp saved: each file as name:size:modification time.
        Matcher stamp = Pattern.compile("([^;=:]+):(\\d+):[0-9a-f]+;").matcher(saved.arguments());
        StringBuilder earlier = new StringBuilder();
        while (stamp.find()) {
            long modified = Files.getLastModifiedTime(files.resolve(stamp.group(1))).toMillis();
            stamp.appendReplacement(earlier, stamp.group(1) + ":" + stamp.group(2) + ":" + modified + ";");
        }
        stamp.appendTail(earlier);
        assertFalse(earlier.toString().equals(saved.arguments()), "the stamps were rewritten: " + earlier);
        checkpoints.put(ImdbImport.NAME, new ImportCheckpoint(saved.name(), earlier.toString(), saved.phase(),
                saved.line(), saved.done(), saved.update()));

        ImdbImport.Summary again = run(Long.MAX_VALUE);

        assertTrue(again.alreadyDone(), "an upgrade does not turn a finished import into a new one");
        assertEquals(0, again.itemsWritten());
    }

    /** One run of the import that stops working after {@code items} items, as a kill would stop it. */
    private ImdbImport.Summary run(long items) {
        return new ImdbImport(new ImdbImport.Options(files, Set.of("movie"), false, 0), new Memory(items), line -> { },
                false, CHUNK).run();
    }

    private long items(Set<Record> records) {
        return records.stream().mapToLong(new Memory(0)::itemsOf).sum();
    }

    /**
     * Stores records in {@link #stored}, in order; after {@code left} items every write and save fails, the
     * chunk being written then stored up to that item (as a chunk's first batches are, when a process dies).
     */
    private final class Memory implements CatalogImport {
        private long left;
        private long written;

        Memory(long left) {
            this.left = left;
        }

        @Override
        public int itemsOf(Record record) {
            return wideMovies && record instanceof Movie ? WIDE : 1;
        }

        @Override
        public void write(List<? extends Record> records) {
            for (Record record : records) {
                int items = itemsOf(record);
                if (left < items) {
                    left = -1;
                    throw new IllegalStateException("killed");
                }
                left -= items;
                stored.add(record);
                written += items;
            }
        }

        @Override
        public Optional<ImportCheckpoint> checkpoint(String name) {
            return Optional.ofNullable(checkpoints.get(name));
        }

        @Override
        public void save(ImportCheckpoint checkpoint) {
            if (left < 0) {
                throw new IllegalStateException("killed");
            }
            checkpoints.put(checkpoint.name(), checkpoint);
        }

        @Override
        public int reconcile(MovieId movie, Set<CreditKey> credits, String title, Set<Integer> titles) {
            return 0;
        }

        @Override
        public int reconcilePerson(PersonId person, String name) {
            return 0;
        }

        @Override
        public long itemsWritten() {
            return written;
        }
    }
}
