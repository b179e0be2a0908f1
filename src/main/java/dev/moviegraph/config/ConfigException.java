package dev.moviegraph.config;

import java.util.List;

/**
 * The environment does not describe a server that can start; the message lists every problem, or is
 * the one problem on a line of its own (what DYNAMODB_ENDPOINT=aws found missing, say).
 */
public final class ConfigException extends RuntimeException {
    private final List<String> problems;

    public ConfigException(List<String> problems) {
        super("Invalid configuration:\n  - " + String.join("\n  - ", problems));
        this.problems = List.copyOf(problems);
    }

    /** A single problem, which is the whole message: one line, nothing around it. */
    public ConfigException(String problem) {
        super(problem);
        this.problems = List.of(problem);
    }

    public List<String> problems() {
        return problems;
    }
}
