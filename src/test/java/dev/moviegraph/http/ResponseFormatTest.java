package dev.moviegraph.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** What each client's Accept header gets: one JSON answer, parts, or an event stream. */
class ResponseFormatTest {
    @Test
    void apolloAndUrqlTakePartsAndJson() {
        assertEquals(new ResponseFormat(MediaTypes.JSON, true, false),
                ResponseFormat.of("multipart/mixed;deferSpec=20220824,application/json"));
        assertEquals(new ResponseFormat(MediaTypes.GRAPHQL_RESPONSE, true, false), ResponseFormat.of(
                "multipart/mixed, application/graphql-response+json, application/graphql+json, application/json"));
    }

    @Test
    void aClientWithoutMultipartGetsOnePiece() {
        assertEquals(new ResponseFormat(MediaTypes.JSON, false, false), ResponseFormat.of("application/json"));
        assertEquals(new ResponseFormat(MediaTypes.JSON, false, false), ResponseFormat.of(null));
        assertEquals(new ResponseFormat(MediaTypes.JSON, false, false),
                ResponseFormat.of("multipart/mixed;q=0, application/json"));
    }

    @Test
    void graphqlSseAsksForAnEventStreamAlone() {
        assertEquals(new ResponseFormat(MediaTypes.JSON, true, true), ResponseFormat.of("text/event-stream"));
        // Listed first at the same rank, or ranked higher: the stream; ranked lower or after: JSON.
        assertEquals(true, ResponseFormat.of("text/event-stream, application/json").eventStream());
        assertEquals(false, ResponseFormat.of("application/json, text/event-stream").eventStream());
        assertEquals(true, ResponseFormat.of("application/json;q=0.5, text/event-stream").eventStream());
        assertEquals(false, ResponseFormat.of("text/event-stream;q=0.1, application/json").eventStream());
    }

    @Test
    void nothingAcceptableIs406() {
        assertNull(ResponseFormat.of("text/html"));
        assertNull(ResponseFormat.of("text/event-stream;q=0"));
    }
}
