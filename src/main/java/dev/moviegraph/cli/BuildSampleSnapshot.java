package dev.moviegraph.cli;

import dev.moviegraph.local.EmbeddedDynamo;

import java.nio.file.Path;

/**
 * Run by the build (exec-maven-plugin, process-classes): the engine's data folder with the sample loaded,
 * written into the classes so the jar carries it and the embedded default starts from a copy in a fraction
 * of a second instead of writing the sample's items at every start.
 */
public final class BuildSampleSnapshot {
    private BuildSampleSnapshot() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0], "sample-engine");
        long start = System.nanoTime();
        EmbeddedDynamo.buildSampleSnapshot(dir);
        System.out.printf("sample snapshot written to %s in %d ms%n", dir, (System.nanoTime() - start) / 1_000_000);
        System.exit(0);
    }
}
