package dev.moviegraph.http;

import dev.moviegraph.graphql.GraphQLAnswer;
import dev.moviegraph.graphql.budget.ClientBudgets;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.function.DoubleConsumer;

import io.javalin.http.Context;

/**
 * The writer of answers in parts over HTTP ({@code @defer}): {@code multipart/mixed} as Apollo's clients,
 * urql, GraphiQL and Relay's fetchers read it ({@code deferSpec=20220824}, the incremental delivery draft's
 * boundary "-"): the first payload as soon as what was not deferred is done, then one part per deferred
 * result as it comes, each written with the delimiter after it (a reader knows a part is whole only when
 * the next delimiter comes) and flushed at once ({@link ResponseStream}), and the close delimiter after the
 * last, which is always sent, an error in it or not. Never kept by a cache, never given an ETag.
 */
final class MultipartAnswers {
    static final String CONTENT_TYPE = MediaTypes.MULTIPART + "; boundary=\"-\"; deferSpec=20220824";
    /** The delimiter: a part is whole once the next one has come, so each part is written with the one after it. */
    static final String DELIMITER = "\r\n---";
    /** Each part: its headers, a blank line, the JSON, the delimiter. */
    static final String HEAD = "\r\nContent-Type: application/json; charset=utf-8\r\n\r\n";
    /** After the last part's delimiter: the close delimiter's "--". */
    static final String CLOSE = "--\r\n";

    private final JsonAnswers json;
    private final CacheHeaders caching;

    MultipartAnswers(JsonAnswers json, CacheHeaders caching) {
        this.json = json;
        this.caching = caching;
    }

    /**
     * Writes {@code answer} (one with {@link GraphQLAnswer#later later parts}); {@code charge} is given the
     * read units its later parts consumed. Completes when the response is over.
     */
    CompletableFuture<Void> write(Context ctx, GraphQLAnswer answer, DoubleConsumer charge) {
        ResponseStream stream;
        try {
            stream = ResponseStream.open(ctx.res(), CONTENT_TYPE, caching.vary());
        } catch (IOException e) {
            answer.later().cancel();
            return CompletableFuture.completedFuture(null);
        }
        double first = ClientBudgets.consumed(answer.body());
        stream.send(DELIMITER + HEAD + json.text(answer.body()) + DELIMITER);
        stream.onGone(answer.later()::cancel);
        answer.later().start((payload, last) -> {
            if (!last) {
                stream.send(HEAD + json.text(payload) + DELIMITER);
                return;
            }
            charge.accept(Math.max(0, ClientBudgets.consumed(payload) - first));
            stream.end(HEAD + json.text(payload) + DELIMITER + CLOSE);
        });
        return stream.done();
    }
}
