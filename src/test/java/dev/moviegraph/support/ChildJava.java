package dev.moviegraph.support;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The command line of a JVM a test starts as a process of its own (an engine, a gateway, Zipkin, an import to
 * kill): this JVM's java with C1 alone and the serial collector. Such a JVM lives for one test, so starting it
 * is most of its work; so started it takes about half the CPU (a gateway's start 15 s of CPU on a busy 2-core
 * machine, 7 s so; Zipkin's 18 s, 7 s), which the other test JVM has for itself. Nothing a test checks
 * depends on the JIT or the collector.
 */
public final class ChildJava {
    private ChildJava() {
    }

    /** {@code java -XX:TieredStopAtLevel=1 -XX:+UseSerialGC} followed by {@code arguments}. */
    public static List<String> command(String... arguments) {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"));
        command.addAll(List.of(arguments));
        return command;
    }
}
