package dev.moviegraph.dynamo;

import dev.moviegraph.catalog.Movie;
import dev.moviegraph.catalog.MovieId;
import dev.moviegraph.dynamo.admin.DynamoCatalogImport;
import dev.moviegraph.dynamo.model.TableModel;
import dev.moviegraph.dynamo.read.ItemWeights;
import dev.moviegraph.dynamo.write.StreamWrites;

import java.time.YearMonth;
import java.util.Map;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Update;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/** Items as the table model writes them, for tests outside this package that script a fake DynamoDB. */
public final class TestItems {
    private TestItems() {
    }

    public static Map<String, AttributeValue> movie(Movie movie) {
        return TableModel.MOVIE.encode(movie);
    }

    /** A movie's item and its search and list entries, as the import writes them. */
    public static java.util.List<Map<String, AttributeValue>> movieWithEntries(Movie movie) {
        return DynamoCatalogImport.encode(movie);
    }

    /**
     * An item as a version before list entries copied the rating wrote it: a list entry loses its copy of
     * the rating and the marker that it has one; any other item is returned as it is.
     */
    public static Map<String, AttributeValue> withoutRatingCopy(Map<String, AttributeValue> item) {
        if (!TableModel.is(item, TableModel.MOVIE_LIST)) {
            return item;
        }
        Map<String, AttributeValue> old = new java.util.HashMap<>(item);
        for (String field : java.util.List.of("averageRating", "numVotes", "ratingCopied")) {
            old.remove(TableModel.MOVIE_LIST.attribute(field));
        }
        return old;
    }

    /** The table's layout item, recording this model's layout. */
    public static Map<String, AttributeValue> currentLayout() {
        return TableModel.META.encode(new TableModel.Meta(TableModel.LAYOUT, TableModel.LAYOUT_VERSION, null));
    }

    /** The key value that names the layout item in a request. */
    public static String layoutKey() {
        return TableModel.metaKey(TableModel.LAYOUT).get(TableModel.PK).s();
    }

    /** An UpdateItem adding {@code count} streams to a movie's total, as a service other than the gateway would. */
    public static UpdateItemRequest addStreams(String table, MovieId movie, YearMonth month, String title, long count) {
        Update update = StreamWrites.totalIncrement(table, movie, month, title, count);
        return UpdateItemRequest.builder().tableName(table).key(update.key()).updateExpression(update.updateExpression())
                .expressionAttributeNames(update.expressionAttributeNames())
                .expressionAttributeValues(update.expressionAttributeValues()).build();
    }

    /** The key value that names the item-sizes item (read at start-up for the estimates). */
    public static String itemSizesKey() {
        return TableModel.metaKey(ItemWeights.NAME).get(TableModel.PK).s();
    }
}
