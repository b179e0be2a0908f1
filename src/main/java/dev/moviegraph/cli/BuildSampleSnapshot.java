package dev.moviegraph.cli;

import dev.moviegraph.dynamo.admin.BulkLoader;
import dev.moviegraph.dynamo.admin.TableAdmin;
import dev.moviegraph.dynamo.client.DynamoClients;
import dev.moviegraph.local.EmbeddedDynamo;
import dev.moviegraph.local.SampleLoader;
import dev.moviegraph.local.SampleSnapshot;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;

/**
 * Build step (see pom.xml): loads the sample catalog into a DynamoDB Local database file once, at build
 * time, so the embedded server starts from a copy of that file in seconds instead of writing fourteen
 * thousand items through DynamoDB Local's API at every start.
 *
 * <p>Usage: {@code BuildSampleSnapshot <classes-directory>}; writes {@code sample-snapshot/} in it. The
 * file is rebuilt only when the classes that shape it (sample, layout, codec) are newer than it.
 */
public final class BuildSampleSnapshot {
    private static final List<String> SHAPING_PACKAGES = List.of("dev/moviegraph/local", "dev/moviegraph/dynamo",
            "dev/moviegraph/catalog");

    private BuildSampleSnapshot() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            System.err.println("usage: BuildSampleSnapshot <classes-directory>");
            System.exit(2);
        }
        Path classes = Path.of(args[0]);
        Path target = classes.resolve("sample-snapshot").resolve(SampleSnapshot.FILE_NAME);
        if (Files.exists(target) && Files.getLastModifiedTime(target).compareTo(newestClass(classes)) > 0) {
            System.out.println("Sample snapshot is up to date: " + target.getFileName());
            return;
        }
        // Build in memory when the machine has a tmpfs, then copy.
        Path work = EmbeddedDynamo.scratchDirectory("moviegraph-snapshot");
        try {
            try (EmbeddedDynamo dynamo = EmbeddedDynamo.persistent(work, false);
                 DynamoDbAsyncClient client = DynamoClients.create(dynamo.endpoint(), List.of())) {
                TableAdmin admin = new TableAdmin(client, SampleSnapshot.TABLE_NAME);
                admin.ensureTableWithoutStream();
                admin.requireLayout();
                new SampleLoader(new BulkLoader(client, SampleSnapshot.TABLE_NAME)).loadIfMissing();
                // The stream starts after the load: the sample's 13,980 inserts would only make the file
                // twice as big and give the stream aggregator records to skip at every start.
                admin.ensureStream(true);
            }
            Files.createDirectories(target.getParent());
            Files.copy(work.resolve(SampleSnapshot.FILE_NAME), target, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            try (Stream<Path> files = Files.walk(work)) {
                files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
        System.out.println("Sample snapshot written: " + Files.size(target) / 1024 + " KiB");
        // DynamoDB Local leaves a non-daemon stream job thread sleeping after stop; do not wait for it.
        System.exit(0);
    }

    private static FileTime newestClass(Path classes) throws IOException {
        FileTime newest = FileTime.fromMillis(0);
        for (String folder : SHAPING_PACKAGES) {
            Path dir = classes.resolve(folder);
            if (!Files.isDirectory(dir)) {
                continue;
            }
            try (Stream<Path> files = Files.walk(dir)) {
                for (Path file : files.filter(Files::isRegularFile).toList()) {
                    FileTime time = Files.getLastModifiedTime(file);
                    if (time.compareTo(newest) > 0) {
                        newest = time;
                    }
                }
            }
        }
        return newest;
    }
}
