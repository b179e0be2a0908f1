package dev.moviegraph.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.moviegraph.support.FakeDynamoEndpoint;
import dev.moviegraph.support.FakeDynamoEndpoint.Answer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A server that cannot start says why in one line on stderr, as an operator would read it, and exits 2
 * for its configuration or 1 for anything else; never an SDK stack trace. Each case is the real
 * {@code java dev.moviegraph.Main} in a JVM of its own, with an environment holding only what the case
 * sets: no region or credentials from the machine, the AWS config and credentials files pointing at
 * nothing, and the EC2 instance metadata service switched off (the SDK would otherwise wait for it).
 */
class StartupFailureTest {
    private static final String NO_REGION =
            "DYNAMODB_ENDPOINT=aws needs a region: set AWS_REGION (or a profile with a region)";

    @TempDir
    Path dir;

    @Test
    void awsWithoutARegionIsOneLineAndExit2() throws Exception {
        Result result = run(List.of(), Map.of("DYNAMODB_ENDPOINT", "aws"));

        assertEquals(2, result.exitCode(), result.toString());
        assertEquals(List.of(NO_REGION), result.stderr());
        assertEquals(List.of(), result.stdout());
    }

    @Test
    void theAggregatorWithoutARegionSaysTheSame() throws Exception {
        Result result = run(List.of("aggregate"), Map.of("DYNAMODB_ENDPOINT", "aws", "TOTALS", "stream"));

        assertEquals(2, result.exitCode(), result.toString());
        assertEquals(List.of(NO_REGION), result.stderr());
    }

    @Test
    void awsWithARegionButNoCredentialsNamesTheChainInOneLineAndExit2() throws Exception {
        Result result = run(List.of(), Map.of("DYNAMODB_ENDPOINT", "aws", "AWS_REGION", "eu-west-1"));

        assertEquals(2, result.exitCode(), result.toString());
        assertEquals(1, result.stderr().size(), result.toString());
        String line = result.stderr().get(0);
        assertTrue(line.startsWith("DYNAMODB_ENDPOINT=aws found no AWS credentials"), line);
        for (String link : List.of("AWS_ACCESS_KEY_ID", "AWS_PROFILE", "AWS_WEB_IDENTITY_TOKEN_FILE", "container",
                "instance role")) {
            assertTrue(line.contains(link), "names " + link + ": " + line);
        }
    }

    @Test
    void aMissingTableWithoutCreateTableIsOneLineAndExit1() throws Exception {
        try (FakeDynamoEndpoint dynamo = new FakeDynamoEndpoint().on("DescribeTable", attempt -> new Answer(400,
                "{\"__type\":\"com.amazonaws.dynamodb.v20120810#ResourceNotFoundException\","
                        + "\"message\":\"Requested resource not found: Table: moviegraph not found\"}"))) {
            Result result = run(List.of(), Map.of("DYNAMODB_ENDPOINT", dynamo.endpoint().toString(),
                    "CREATE_TABLE", "false"));

            assertEquals(1, result.exitCode(), result.toString());
            assertEquals(List.of("moviegraph did not start: Table moviegraph does not exist; create it or set "
                    + "CREATE_TABLE=true"), result.stderr());
        }
    }

    @Test
    void aDynamoDbRefusalIsOneLineWithAwsMessageAndExit1() throws Exception {
        String denied = "User: arn:aws:sts::123456789012:assumed-role/moviegraph/i-0 is not authorized to perform: "
                + "dynamodb:DescribeTable on resource: arn:aws:dynamodb:eu-west-1:123456789012:table/moviegraph";
        try (FakeDynamoEndpoint dynamo = new FakeDynamoEndpoint().on("DescribeTable", attempt -> new Answer(400,
                "{\"__type\":\"com.amazon.coral.service#AccessDeniedException\",\"Message\":\"" + denied + "\"}"))) {
            Result result = run(List.of(), Map.of("DYNAMODB_ENDPOINT", dynamo.endpoint().toString(),
                    "CREATE_TABLE", "false"));

            assertEquals(1, result.exitCode(), result.toString());
            assertEquals(1, result.stderr().size(), result.toString());
            assertTrue(result.stderr().get(0).startsWith("moviegraph did not start: " + denied), result.toString());
        }
    }

    @Test
    void aBadTrustedDocumentsManifestIsOneLineNamingTheFileAndExit2() throws Exception {
        Path missing = dir.resolve("missing.json");
        Path notJson = Files.writeString(dir.resolve("not-json.json"), "{\"abc\": ");
        Path badDocument = Files.writeString(dir.resolve("bad-document.json"),
                "{\"format\": \"apollo-persisted-query-manifest\", \"version\": 1, \"operations\": ["
                        + "{\"id\": \"q1\", \"name\": \"Q\", \"type\": \"query\", \"body\": \"query Q { movie(\"}]}");
        Path relayNotText = Files.writeString(dir.resolve("relay.json"), "{\"abc\": 1}");
        Map<Path, String> problems = Map.of(
                missing, "there is no such file",
                notJson, "not a JSON manifest",
                badDocument, "document 'q1' is not valid GraphQL",
                relayNotText, "'abc' must map to the document's text");
        for (Map.Entry<Path, String> bad : problems.entrySet()) {
            Result result = run(List.of(), Map.of("TRUSTED_DOCUMENTS", bad.getKey().toString()));

            assertEquals(2, result.exitCode(), result.toString());
            assertEquals(1, result.stderr().size(), result.toString());
            String line = result.stderr().get(0);
            assertTrue(line.startsWith("TRUSTED_DOCUMENTS=" + bad.getKey() + ": " + bad.getValue()), line);
        }
    }

    @Test
    void theBenchmarkCommandOfAProductionClasspathSaysHowToBuildOneWithThemAndExit2() throws Exception {
        // The production classes alone, as in target/moviegraph.jar: not the tests' (which hold src/bench/java).
        String production = java.util.Arrays.stream(System.getProperty("java.class.path").split(java.io.File.pathSeparator))
                .filter(entry -> !entry.endsWith("test-classes"))
                .collect(java.util.stream.Collectors.joining(java.io.File.pathSeparator));

        Result result = run(production, List.of("benchmark", "load"), Map.of());

        assertEquals(2, result.exitCode(), result.toString());
        assertEquals(List.of("benchmark: this jar is built without the benchmarks;"
                + " build one with them: mvn -Pbench -DskipTests package"), result.stderr());
    }

    private record Result(int exitCode, List<String> stdout, List<String> stderr) {
        Result {
            // Never a stack trace, whatever else the case checks.
            for (String line : stderr) {
                assertFalse(line.contains("at software.amazon") || line.startsWith("\tat ")
                        || line.startsWith("Exception in thread"), "a stack frame on stderr:\n" + String.join("\n", stderr));
            }
        }

        @Override
        public String toString() {
            return "exit " + exitCode + "\nstderr:\n" + String.join("\n", stderr) + "\nstdout:\n"
                    + String.join("\n", stdout);
        }
    }

    private Result run(List<String> args, Map<String, String> env) throws IOException, InterruptedException {
        return run(System.getProperty("java.class.path"), args, env);
    }

    private Result run(String classpath, List<String> args, Map<String, String> env)
            throws IOException, InterruptedException {
        Path home = Files.createDirectories(dir.resolve("home"));
        Path out = dir.resolve("stdout.txt");
        Path err = dir.resolve("stderr.txt");
        // A JVM that lives a second or two: C1 alone and one GC thread start it on less CPU (nothing checked here
        // depends on the JIT or the collector).
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", classpath,
                "dev.moviegraph.Main"));
        command.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile())
                .redirectOutput(out.toFile()).redirectError(err.toFile());
        Map<String, String> environment = builder.environment();
        environment.keySet().removeIf(key -> !key.equals("PATH"));
        environment.put("HOME", home.toString());
        environment.put("AWS_CONFIG_FILE", dir.resolve("no-such-dir").resolve("config").toString());
        environment.put("AWS_SHARED_CREDENTIALS_FILE", dir.resolve("no-such-dir").resolve("credentials").toString());
        environment.put("AWS_EC2_METADATA_DISABLED", "true");
        environment.put("PORT", "0");
        environment.putAll(env);
        Process process = builder.start();
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
            fail("still running after 120 s\n" + Files.readString(err));
        }
        return new Result(process.exitValue(), Files.readAllLines(out), Files.readAllLines(err));
    }
}
