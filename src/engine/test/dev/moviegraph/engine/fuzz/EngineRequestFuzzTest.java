package dev.moviegraph.engine.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.code_intelligence.jazzer.api.BugDetectors;
import com.code_intelligence.jazzer.junit.DictionaryFile;
import com.code_intelligence.jazzer.junit.FuzzTest;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.moviegraph.engine.Engine;
import dev.moviegraph.engine.EngineOptions;

import java.io.IOException;
import java.net.http.HttpTimeoutException;
import java.util.Set;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;

/**
 * Hostile requests over DynamoDB's protocol, to one in-memory engine for the whole class, with a small table
 * ({@link FuzzFixture}). Whatever the body and whichever of the engine's operations it goes to, the answer is 200
 * or a 400 naming one of DynamoDB's exception types, within a time bound: never a 500 (InternalServerError, what
 * the engine answers when an operation throws anything but its ApiException), never a hang. An input is the
 * operation's name on a first line, then the body ({@link FuzzRequest}). {@code mvn test} replays the kept inputs
 * in EngineRequestFuzzTestInputs/request/; JAZZER_FUZZ=1 fuzzes (src/bench/fuzz/run.sh).
 */
class EngineRequestFuzzTest {
    /** DynamoDB's exception types a 400 may name (the part after '#' of __type). */
    private static final Set<String> CLIENT_ERRORS = Set.of("ValidationException", "SerializationException",
            "UnknownOperationException", "ResourceNotFoundException", "ResourceInUseException",
            "ConditionalCheckFailedException", "TransactionCanceledException", "TransactionConflictException",
            "TransactionInProgressException", "IdempotentParameterMismatchException",
            "ProvisionedThroughputExceededException", "ThrottlingException", "RequestLimitExceeded",
            "LimitExceededException", "ItemCollectionSizeLimitExceededException", "DuplicateItemException",
            "ExpiredIteratorException", "TrimmedDataAccessException",
            // ListTagsOfResource on the ARN of a table the account does not have, as DynamoDB answers it
            "AccessDeniedException");
    private static final ObjectMapper JSON = new ObjectMapper();

    private static Engine engine;
    private static FuzzFixture fixture;

    @BeforeAll
    static void start() {
        engine = Engine.start(EngineOptions.inMemory());
        fixture = new FuzzFixture(engine.endpoint());
        fixture.reset();
    }

    /**
     * Jazzer's server-side request forgery detector would report the client's connections to the engine: told at
     * each input that loopback is expected (it can be told only inside the fuzz test, and there is no detector to
     * tell when inputs are only replayed).
     */
    @SuppressWarnings("resource") // the allowance stays for the whole run
    private static void allowLoopback() {
        try {
            BugDetectors.allowNetworkConnections((host, port) -> host.equals("localhost") || host.startsWith("127.")
                    || host.equals("::1") || host.equals("[::1]"));
        } catch (IllegalStateException noDetectors) {
            // replaying without Jazzer's instrumentation: nothing to tell
        }
    }

    @AfterAll
    static void stop() {
        if (engine != null) {
            engine.close();
        }
    }

    @Timeout(30)
    @DictionaryFile(resourcePath = "requests.dict")
    @FuzzTest(maxDuration = "3m")
    void request(byte[] data) throws IOException, InterruptedException {
        allowLoopback();
        FuzzRequest request = FuzzRequest.parse(data);
        FuzzFixture.Answer answer;
        try {
            answer = fixture.send(request.target(), fixture.substitute(request.body()));
        } catch (HttpTimeoutException e) {
            fail(request.target() + " took longer than " + FuzzFixture.TIME_BOUND + ": " + request.bodyText());
            return;
        }
        fixture.afterRequest(request.operation(), answer.status());
        if (answer.status() == 200) {
            return;
        }
        assertEquals(400, answer.status(), () -> request.target() + " answered " + answer.status() + " "
                + answer.body() + " to " + request.bodyText());
        JsonNode error = JSON.readTree(answer.body());
        String type = error.path("__type").asText();
        String name = type.substring(type.indexOf('#') + 1);
        assertTrue(CLIENT_ERRORS.contains(name), () -> request.target() + " answered an unknown error type "
                + type + " to " + request.bodyText());
    }
}
