package dev.moviegraph.local;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The DynamoDB Local database file with the sample catalog already loaded, made at build time by
 * {@code cli.BuildSampleSnapshot} and shipped in the jar. It holds the table named {@link #TABLE_NAME}.
 */
public final class SampleSnapshot {
    /** The file DynamoDB Local uses with -sharedDb. */
    public static final String FILE_NAME = "shared-local-instance.db";
    public static final String TABLE_NAME = "moviegraph";
    private static final String RESOURCE = "/sample-snapshot/" + FILE_NAME;

    private SampleSnapshot() {
    }

    /**
     * Copies the snapshot into {@code dataDir} unless a database is already there. Returns false when
     * the jar has no snapshot (a build that skipped it), so the caller loads the sample the slow way.
     */
    public static boolean seed(Path dataDir) {
        Path target = dataDir.resolve(FILE_NAME);
        if (Files.exists(target)) {
            return true;
        }
        try (InputStream in = SampleSnapshot.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                return false;
            }
            Files.createDirectories(dataDir);
            Files.copy(in, target);
            return true;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot copy the sample snapshot to " + dataDir, e);
        }
    }
}
