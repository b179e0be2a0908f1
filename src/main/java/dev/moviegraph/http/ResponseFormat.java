package dev.moviegraph.http;

/**
 * What a request's Accept header asks for ({@link MediaTypes}): the JSON type of an answer in one piece
 * (also of a refusal before an event stream starts), whether parts may follow ({@code @defer}: multipart,
 * or the events of a stream), and whether the answer is an event stream (GraphQL over SSE).
 */
record ResponseFormat(String responseType, boolean inParts, boolean eventStream) {
    /** Null when no answer the client accepts can be given (406). */
    static ResponseFormat of(String accept) {
        if (MediaTypes.prefersEventStream(accept)) {
            return new ResponseFormat(MediaTypes.JSON, true, true);
        }
        String type = MediaTypes.negotiate(accept);
        boolean multipart = MediaTypes.acceptsMultipart(accept);
        return type == null && !multipart ? null
                : new ResponseFormat(type == null ? MediaTypes.JSON : type, multipart, false);
    }
}
