package dev.moviegraph.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * One {@code npm ci} at a time into a folder, across the test JVMs: with {@code -Dsurefire.forkCount=2}
 * Surefire runs test classes in two forks, and two installs into one {@code node_modules} (each deleting
 * it first) would break each other, and a script run while the other fork reinstalls. The lock is a file
 * under {@code target/}.
 */
public final class NpmInstall {
    private NpmInstall() {
    }

    /** Runs {@code install} (check, then install if needed) holding the lock of {@code dir}. */
    public static void locked(Path dir, Runnable install) {
        Path lockFile = Path.of("target", "npm-install-" + dir.toString().replaceAll("[^A-Za-z0-9]+", "-") + ".lock");
        try {
            Files.createDirectories(lockFile.getParent());
            try (FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                 FileLock lock = channel.lock()) {
                install.run();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot lock " + lockFile, e);
        }
    }
}
