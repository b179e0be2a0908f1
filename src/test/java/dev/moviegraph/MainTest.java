package dev.moviegraph;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.util.concurrent.CompletionException;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.exception.SdkClientException;

/** Main's one line for a start that failed: what an operator reads instead of a stack trace. */
class MainTest {

    @Test
    void anSdkFailureThroughAFutureIsItsMessageWithoutTheWrapper() {
        SdkClientException sdk = SdkClientException.builder()
                .message("Unable to execute HTTP request: Connection refused: /127.0.0.1:1")
                .cause(new ConnectException("Connection refused: /127.0.0.1:1"))
                .build();

        assertEquals("Unable to execute HTTP request: Connection refused: /127.0.0.1:1",
                Main.oneLine(new CompletionException(sdk)));
    }

    @Test
    void causesAddWhatTheMessageAboveDoesNotSay() {
        UncheckedIOException failure = new UncheckedIOException("Cannot create DYNAMODB_DATA_DIR /data",
                new IOException("Permission denied"));

        assertEquals("Cannot create DYNAMODB_DATA_DIR /data: Permission denied", Main.oneLine(failure));
    }

    @Test
    void aMessageOnSeveralLinesBecomesOneAndNoMessageIsTheClassName() {
        assertEquals("schema.graphqls does not match: Movie.sequel is bound to nothing",
                Main.oneLine(new IllegalStateException("schema.graphqls does not match:\n  Movie.sequel is bound to nothing\n")));
        assertEquals("NullPointerException", Main.oneLine(new NullPointerException()));
    }
}
