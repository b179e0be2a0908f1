package dev.moviegraph.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.Main;
import dev.moviegraph.dynamo.client.DynamoClients;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * {@code moviegraph.jar engine}: the engine alone, as an operator runs it. In processes of their own
 * ({@code java dev.moviegraph.Main engine ...}, this JVM's classpath) started in a fresh working directory:
 * it says where it listens, serves DynamoDB's protocol, keeps its {@code --data-dir} across a stop and a
 * start, and writes nothing beside the operator (DynamoDB Local, before it, left an installation id file in
 * the working directory whenever its telemetry was on). A wrong argument is one line and exit status 2, a
 * port already taken one line and 1, never a stack trace (checked on {@link EngineCommand#run} itself, and
 * once through the jar's entry point).
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class EngineCommandTest {
    private static final Pattern LISTENING = Pattern.compile("engine listening on (http://127\\.0\\.0\\.1:(\\d+))");

    @Test
    void itListensWhereItSaysKeepsItsDataFolderAndWritesNothingIntoTheWorkingDirectory(
            @TempDir Path workingDir, @TempDir Path dataDir) throws Exception {
        try (Running engine = Running.start(workingDir, "--port", "0", "--data-dir", dataDir.toString())) {
            try (DynamoDbAsyncClient client = DynamoClients.create(engine.endpoint(), List.of())) {
                client.createTable(CreateTableRequest.builder().tableName("kept")
                        .attributeDefinitions(AttributeDefinition.builder().attributeName("pk")
                                .attributeType(ScalarAttributeType.S).build())
                        .keySchema(KeySchemaElement.builder().attributeName("pk").keyType(KeyType.HASH).build())
                        .billingMode(BillingMode.PAY_PER_REQUEST).build()).join();
                client.putItem(PutItemRequest.builder().tableName("kept").item(Map.of("pk", AttributeValue.fromS("a"),
                        "says", AttributeValue.fromS("kept across a restart"))).build()).join();
            }
            engine.stop();
        }
        try (Running again = Running.start(workingDir, "--port", "0", "--data-dir", dataDir.toString());
             DynamoDbAsyncClient client = DynamoClients.create(again.endpoint(), List.of())) {
            var item = client.getItem(GetItemRequest.builder().tableName("kept").key(Map.of("pk", AttributeValue.fromS("a")))
                    .consistentRead(true).build()).join().item();
            assertEquals("kept across a restart", item.get("says").s(), "the item is in the data folder: " + item);
            again.stop();
        }
        try (var files = Files.list(workingDir)) {
            assertEquals(List.of(), files.toList(), "the working directory stays empty");
        }
    }

    @Test
    void inMemoryOnTheDefaultHostItAnswersDynamoDbsProtocol(@TempDir Path workingDir) throws Exception {
        try (Running engine = Running.start(workingDir, "--port", "0");
             DynamoDbAsyncClient client = DynamoClients.create(engine.endpoint(), List.of())) {
            assertEquals("engine listening on " + engine.endpoint(), engine.line());
            assertEquals(List.of("engine data: in memory, gone when it stops"), engine.before());
            assertEquals(List.of(), client.listTables().join().tableNames(), "a new engine has no table");
        }
    }

    @Test
    void aWrongArgumentIsOneLineAndExitStatusTwo(@TempDir Path workingDir) throws Exception {
        Path file = Files.writeString(workingDir.resolve("a-file"), "not a folder");
        for (List<String> args : List.of(List.of("--port", "eighty"), List.of("--port", "70000"), List.of("--port"),
                List.of("--verbose"), List.of("--data-dir", file.toString()), List.of("--port", "1", "--port", "2"))) {
            Finished run = Finished.inProcess(args);
            assertEquals(2, run.status(), args + ": " + run.output());
            assertEquals(1, run.output().size(), args + ": one line: " + run.output());
            assertTrue(run.output().get(0).startsWith("engine: "), args + ": " + run.output());
            assertTrue(run.output().get(0).contains("usage: moviegraph.jar engine"), args + ": " + run.output());
        }
        // And so from the jar's entry point, as an operator runs it.
        Finished run = Finished.run(workingDir, List.of("--port", "eighty"));
        assertEquals(2, run.status(), run.output().toString());
        assertEquals(List.of("engine: --port must be a number from 0 (a free port) to 65535, not 'eighty'; "
                + EngineCommand.USAGE), run.output());
    }

    @Test
    void aPortAlreadyTakenIsOneLineAndExitStatusOne() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Finished run = Finished.inProcess(List.of("--port", Integer.toString(taken.getLocalPort())));
            assertEquals(1, run.status(), run.output().toString());
            assertEquals(1, run.output().size(), "one line: " + run.output());
            assertTrue(run.output().get(0).startsWith("engine did not start: "), run.output().toString());
            assertFalse(run.output().get(0).contains("\tat "), run.output().toString());
        }
    }

    @Test
    void theArgumentsAreReadAsDocumented() throws Exception {
        EngineCommand.Options defaults = EngineCommand.parse(List.of());
        assertEquals(new EngineCommand.Options("127.0.0.1", 8000, null), defaults);
        EngineCommand.Options given = EngineCommand.parse(List.of("--port=8123", "--host", "localhost", "--data-dir", "d"));
        assertEquals(8123, given.port());
        assertEquals("localhost", given.host());
        assertEquals(Path.of("d"), given.dataDir());
        assertNull(EngineCommand.parse(List.of("--port", "0")).dataDir());
        assertThrows(EngineCommand.BadArgument.class, () -> EngineCommand.parse(List.of("--host", "")));
        assertThrows(EngineCommand.BadArgument.class, () -> EngineCommand.parse(List.of("extra")));
    }

    private static ProcessBuilder command(Path workingDir, List<String> args) {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"),
                Main.class.getName(), "engine"));
        command.addAll(args);
        return new ProcessBuilder(command).directory(workingDir.toFile()).redirectErrorStream(true);
    }

    /** A command that ends by itself: its exit status and every line it printed. */
    private record Finished(int status, List<String> output) {
        /** {@link EngineCommand#run} here, for arguments it refuses or a start that fails (it returns then). */
        static Finished inProcess(List<String> args) throws InterruptedException {
            ByteArrayOutputStream printed = new ByteArrayOutputStream();
            PrintStream stream = new PrintStream(printed, true, StandardCharsets.UTF_8);
            int status = EngineCommand.run(args, stream, stream);
            return new Finished(status, printed.toString(StandardCharsets.UTF_8).lines().filter(line -> !line.isBlank())
                    .toList());
        }

        static Finished run(Path workingDir, List<String> args) throws IOException, InterruptedException {
            Process process = command(workingDir, args).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(process.waitFor(60, TimeUnit.SECONDS), "it ends: " + output);
            return new Finished(process.exitValue(), output.lines().filter(line -> !line.isBlank()).toList());
        }
    }

    /** An engine process until it is stopped (SIGTERM) or closed (killed). */
    private static final class Running implements AutoCloseable {
        private final Process process;
        private final String line;
        private final List<String> before;
        private final URI endpoint;

        private Running(Process process, String line, List<String> before, URI endpoint) {
            this.process = process;
            this.line = line;
            this.before = before;
            this.endpoint = endpoint;
        }

        static Running start(Path workingDir, String... args) throws IOException {
            Process process = command(workingDir, List.of(args)).start();
            BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            List<String> seen = new ArrayList<>();
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                Matcher listening = LISTENING.matcher(line);
                if (listening.matches()) {
                    return new Running(process, line, List.copyOf(seen), URI.create(listening.group(1)));
                }
                seen.add(line);
            }
            process.destroyForcibly();
            throw new AssertionError("no 'engine listening on http://127.0.0.1:PORT' line: " + seen);
        }

        URI endpoint() {
            return endpoint;
        }

        String line() {
            return line;
        }

        /** What it printed before it listened. */
        List<String> before() {
            return before;
        }

        /** SIGTERM, as an operator stops it: it closes cleanly. */
        void stop() throws InterruptedException {
            process.destroy();
            assertTrue(process.waitFor(60, TimeUnit.SECONDS), "it stops on SIGTERM");
        }

        @Override
        public void close() {
            process.destroyForcibly();
        }
    }
}
