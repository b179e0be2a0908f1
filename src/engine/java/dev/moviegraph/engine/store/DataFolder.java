package dev.moviegraph.engine.store;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The journal's folder, held for one engine: {@link #take} creates it when missing and locks its
 * {@code engine.lock} (an OS file lock, so a second engine is refused), and the folder's journal files are
 * listed, made and synced here. {@link #release} lets go of it.
 */
final class DataFolder {
    private static final String LOCK_FILE = "engine.lock";

    private final Path dir;
    /** Held on the lock file's channel, open while the folder is held. */
    private final FileLock lock;

    /**
     * Takes the folder (creating it when missing) for this engine: {@link IllegalStateException} naming it when
     * it is not a writable directory or another engine has it.
     */
    static DataFolder take(Path dataDir) {
        Path dir = dataDir.toAbsolutePath();
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw new IllegalStateException("The data folder " + dir + " is not a directory");
        }
        try {
            Files.createDirectories(dir);
        } catch (FileAlreadyExistsException | NotDirectoryException e) {
            throw new IllegalStateException("The data folder " + dir + " cannot be created: " + e.getFile()
                    + " is not a directory", e);
        } catch (IOException | SecurityException e) {
            throw new IllegalStateException("The data folder " + dir + " cannot be created: " + e, e);
        }
        if (!Files.isWritable(dir)) {
            throw new IllegalStateException("The data folder " + dir + " is not writable");
        }
        Path lockFile = dir.resolve(LOCK_FILE);
        FileChannel channel;
        try {
            channel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.READ,
                    StandardOpenOption.WRITE);
        } catch (IOException | SecurityException e) {
            throw new IllegalStateException("The data folder " + dir + " is not writable: " + e, e);
        }
        FileLock lock;
        try {
            lock = channel.tryLock();
        } catch (OverlappingFileLockException e) {
            lock = null;
        } catch (IOException e) {
            closeQuietly(channel);
            throw new IllegalStateException("The data folder " + dir + " cannot be locked: " + e, e);
        }
        if (lock == null) {
            String holder = holder(channel);
            closeQuietly(channel);
            throw new IllegalStateException("The data folder " + dir + " is in use by another engine" + holder
                    + "; stop that one first or give this one another folder");
        }
        try {
            channel.truncate(0);
            channel.write(ByteBuffer.wrap(("pid " + ProcessHandle.current().pid() + "\n")
                    .getBytes(StandardCharsets.US_ASCII)), 0);
        } catch (IOException e) {
            // only informative
        }
        return new DataFolder(dir, lock);
    }

    private DataFolder(Path dir, FileLock lock) {
        this.dir = dir;
        this.lock = lock;
    }

    private static String holder(FileChannel channel) {
        try {
            ByteBuffer buffer = ByteBuffer.allocate(64);
            channel.read(buffer, 0);
            String text = new String(buffer.array(), 0, buffer.position(), StandardCharsets.US_ASCII).trim();
            return text.isEmpty() ? "" : " (" + text + (text.contains(Long.toString(ProcessHandle.current().pid()))
                    ? ", this same process" : "") + ")";
        } catch (IOException e) {
            return "";
        }
    }

    /** The folder, absolute. */
    Path dir() {
        return dir;
    }

    Path resolve(String fileName) {
        return dir.resolve(fileName);
    }

    void deleteLeftovers() throws IOException {
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*.tmp")) {
            for (Path file : files) {
                Files.deleteIfExists(file);
            }
        }
    }

    List<Long> generations(String kind) throws IOException {
        List<Long> found = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
            for (Path file : files) {
                long generation = LogFile.generationOf(file.getFileName().toString(), kind);
                if (generation >= 0) {
                    found.add(generation);
                }
            }
        }
        Collections.sort(found);
        return found;
    }

    /** A new segment file with its header; with {@code sync}, it and its name in the folder are synced too. */
    RandomAccessFile newSegment(long generation, boolean sync) throws IOException {
        Path path = dir.resolve(LogFile.segmentName(generation));
        if (Files.exists(path)) {
            throw new FileAlreadyExistsException(path.toString());
        }
        RandomAccessFile file = new RandomAccessFile(path.toFile(), "rw");
        file.write(LogFile.header(generation));
        if (sync) {
            file.getFD().sync();
            syncDirectory();
        }
        return file;
    }

    void syncDirectory() {
        try (FileChannel directory = FileChannel.open(dir, StandardOpenOption.READ)) {
            directory.force(true);
        } catch (IOException | UnsupportedOperationException e) {
            // not every platform can sync a directory; the rename is still atomic
        }
    }

    /** Lets go of the folder: another engine may take it now. */
    void release() {
        try {
            lock.release();
        } catch (IOException e) {
            // closing the channel releases it too
        }
        closeQuietly(lock.channel());
    }

    private static void closeQuietly(FileChannel channel) {
        try {
            channel.close();
        } catch (IOException e) {
            // nothing more to do
        }
    }
}
