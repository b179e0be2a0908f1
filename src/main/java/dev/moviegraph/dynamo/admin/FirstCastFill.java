package dev.moviegraph.dynamo.admin;

import dev.moviegraph.catalog.CallContext;
import dev.moviegraph.dynamo.model.Condition;
import dev.moviegraph.dynamo.model.Expression;
import dev.moviegraph.dynamo.model.TableModel;
import dev.moviegraph.dynamo.read.ItemWeights;
import dev.moviegraph.dynamo.write.CastCopies;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;

/**
 * Gives every movie item the copy of its first-billed cast it lacks ({@code Movie.firstCast}): a table
 * written before copies were kept serves correctly without them (a movie without a copy is read from its
 * credits, a Query each), and {@code moviegraph.jar migrate} fills them so that shapes that list movies with
 * their casts read a batch. Parallel segment Scans of the movie items (an admin command, never a request
 * path), then a consistent Query of each uncopied movie's first credits and a conditional write of its copy
 * ({@link CastCopies#fill}), safe beside servers that write casts meanwhile. Running it again fills nothing.
 */
public final class FirstCastFill {
    private static final int SEGMENTS = 4;

    private final DynamoDbAsyncClient client;
    private final String table;
    private final Consumer<String> progress;
    private final CastCopies copies;

    public FirstCastFill(DynamoDbAsyncClient client, String table, Consumer<String> progress) {
        this.client = client;
        this.table = table;
        this.progress = progress;
        this.copies = new CastCopies(client, table, new ItemWeights(client, table).load());
    }

    /** What a run did: the movie items it read, and those whose copy it wrote. */
    public record Summary(long movies, long filled) {
    }

    public Summary run() {
        AtomicLong movies = new AtomicLong();
        AtomicLong filled = new AtomicLong();
        List<CompletableFuture<Void>> segments = new ArrayList<>();
        for (int segment = 0; segment < SEGMENTS; segment++) {
            int which = segment;
            segments.add(CompletableFuture.runAsync(() -> scan(which, movies, filled)));
        }
        CompletableFuture.allOf(segments.toArray(CompletableFuture[]::new)).join();
        Summary summary = new Summary(movies.get(), filled.get());
        progress.accept(String.format("First-billed cast copied onto %,d of %,d movies (the others had it)",
                summary.filled(), summary.movies()));
        return summary;
    }

    private void scan(int segment, AtomicLong movies, AtomicLong filled) {
        Expression movie = Expression.of(Condition.equal(TableModel.TYPE, AttributeValue.fromS(TableModel.MOVIE.type())));
        Map<String, AttributeValue> from = null;
        do {
            ScanRequest.Builder scan = ScanRequest.builder().tableName(table).segment(segment).totalSegments(SEGMENTS)
                    .filterExpression(movie.condition()).expressionAttributeNames(movie.names())
                    .expressionAttributeValues(movie.values());
            if (from != null) {
                scan.exclusiveStartKey(from);
            }
            ScanResponse page = client.scan(scan.build()).join();
            for (Map<String, AttributeValue> item : page.items()) {
                movies.incrementAndGet();
                if (copies.fill(CallContext.NONE, item)) {
                    filled.incrementAndGet();
                }
            }
            from = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
        } while (from != null);
    }
}
