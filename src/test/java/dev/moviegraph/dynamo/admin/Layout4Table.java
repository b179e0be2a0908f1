package dev.moviegraph.dynamo.admin;

import dev.moviegraph.catalog.MonthlyStreams;
import dev.moviegraph.catalog.Movie;
import dev.moviegraph.catalog.MovieId;
import dev.moviegraph.dynamo.TestItems;
import dev.moviegraph.dynamo.client.Batches;
import dev.moviegraph.dynamo.model.Index;
import dev.moviegraph.dynamo.model.TableDefinition;
import dev.moviegraph.dynamo.model.TableModel;
import dev.moviegraph.dynamo.model.TopShards;

import java.time.YearMonth;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * A small table as gateways of layout 4 left it: the table definition with layout 4's top index (gsi7) and
 * no gsi8, movies with list entries that do not copy the rating, totals ranked in gsi7 ({@code gsi7pk},
 * {@code trank}) and without a gsi8 key, a floor item per month, and the layout item "4". Months:
 * {@link #BUSY} with a total of every movie (more than a top list keeps, many ties), {@link #QUIET} with
 * the first 60 movies, {@link #FEW} with 5.
 */
public final class Layout4Table {
    public static final YearMonth BUSY = YearMonth.of(2024, 1);
    public static final YearMonth QUIET = YearMonth.of(2024, 2);
    public static final YearMonth FEW = YearMonth.of(2024, 3);
    public static final int MOVIES = 260;

    private Layout4Table() {
    }

    public static MovieId movie(int i) {
        return MovieId.of(String.format("tt97%05d", i));
    }

    public static String title(int i) {
        return "Layout Four " + i;
    }

    /** Creates the table as layout 4 defined it and writes the items; returns them. */
    public static List<Map<String, AttributeValue>> create(DynamoDbAsyncClient client, String table) {
        CreateTableRequest current = TableDefinition.createTableRequest(table);
        List<GlobalSecondaryIndex> globals = new ArrayList<>(current.globalSecondaryIndexes().stream()
                .filter(index -> !index.indexName().equals(Index.GSI8.indexName())).toList());
        globals.add(TableDefinition.globalIndex(Index.GSI7));
        List<AttributeDefinition> attributes = new ArrayList<>(current.attributeDefinitions().stream()
                .filter(attribute -> !attribute.attributeName().equals(TableModel.GSI8_PK)).toList());
        attributes.add(AttributeDefinition.builder().attributeName(LayoutMigration.Layout4.GSI7_PK)
                .attributeType(ScalarAttributeType.S).build());
        attributes.add(AttributeDefinition.builder().attributeName(LayoutMigration.Layout4.TOP_RANK)
                .attributeType(ScalarAttributeType.N).build());
        client.createTable(current.toBuilder().globalSecondaryIndexes(globals).attributeDefinitions(attributes)
                .overrideConfiguration(dev.moviegraph.support.Layout1Table.PATIENT).build()).join();

        List<Map<String, AttributeValue>> items = new ArrayList<>();
        for (int i = 0; i < MOVIES; i++) {
            Movie movie = new Movie(movie(i), title(i), 2000 + i % 3, null, List.of("Drama"), 100, 5.0 + i % 50 / 10.0,
                    1_000 + i, 0);
            for (Map<String, AttributeValue> item : DynamoCatalogImport.encode(movie)) {
                if (TableModel.is(item, TableModel.MOVIE) || TableModel.is(item, TableModel.MOVIE_LIST)) {
                    items.add(TestItems.withoutRatingCopy(item));
                }
            }
            items.add(total(i, BUSY, 1 + (i * 7_919L) % 40));
            if (i < 60) {
                items.add(total(i, QUIET, 1 + i % 5));
            }
            if (i < 5) {
                items.add(total(i, FEW, 10 + i));
            }
        }
        for (YearMonth month : List.of(BUSY, QUIET, FEW)) {
            String key = LayoutMigration.Layout4.FLOOR_PREFIX + month;
            items.add(Map.of(TableModel.PK, AttributeValue.fromS(key), TableModel.SK, AttributeValue.fromS(key),
                    "type", AttributeValue.fromS("topFloor"), "month", AttributeValue.fromS(month.toString()),
                    "floor", AttributeValue.fromN(month == BUSY ? "20" : "0")));
        }
        items.add(TableModel.META.encode(new TableModel.Meta(TableModel.LAYOUT, 4, null)));
        new Batches(client, table).putAll(items, 4).join();
        return items;
    }

    /** A total as layout 4 wrote it: ranked in gsi7, no gsi8 key. */
    private static Map<String, AttributeValue> total(int i, YearMonth month, long streams) {
        MonthlyStreams total = new MonthlyStreams(movie(i), title(i), month, streams);
        Map<String, AttributeValue> item = new HashMap<>(TableModel.TOTAL.encode(total));
        item.remove(TableModel.GSI8_PK);
        item.put(LayoutMigration.Layout4.GSI7_PK, AttributeValue.fromS(LayoutMigration.Layout4.partition(total)));
        item.put(LayoutMigration.Layout4.TOP_RANK, AttributeValue.fromN(
                TopShards.fraction(total.movieId()).add(java.math.BigDecimal.valueOf(streams)).toPlainString()));
        return item;
    }

    /**
     * What a gateway of layout 4 writes for {@code count} streams of a movie in a month (creating the total when
     * it is new): {@code ranked}, the total moves in gsi7 (its key and rank set from its own streams); otherwise
     * it leaves gsi7 (a total below the month's floor). Never a gsi8 key, never the top list.
     */
    public static void count(DynamoDbAsyncClient client, String table, int movie, YearMonth month, long count, boolean ranked) {
        MonthlyStreams total = new MonthlyStreams(movie(movie), title(movie), month, count);
        Map<String, String> names = new HashMap<>(Map.of("#type", "type", "#movie", "movieId", "#month", "month",
                "#title", "movieTitle", "#streams", TableModel.STREAMS, "#top", LayoutMigration.Layout4.GSI7_PK));
        Map<String, AttributeValue> values = new HashMap<>(Map.of(":type", AttributeValue.fromS("total"),
                ":movie", AttributeValue.fromS(total.movieId().value()), ":month", AttributeValue.fromS(month.toString()),
                ":title", AttributeValue.fromS(total.movieTitle()), ":count", AttributeValue.fromN(Long.toString(count))));
        String sets = "SET #type = :type, #movie = :movie, #month = :month, #title = if_not_exists(#title, :title)";
        String expression;
        if (ranked) {
            names.put("#rank", LayoutMigration.Layout4.TOP_RANK);
            values.put(":top", AttributeValue.fromS(LayoutMigration.Layout4.partition(total)));
            values.put(":zero", AttributeValue.fromN("0"));
            values.put(":ranked", AttributeValue.fromN(
                    TopShards.fraction(total.movieId()).add(java.math.BigDecimal.valueOf(count)).toPlainString()));
            expression = sets + ", #top = :top, #rank = if_not_exists(#streams, :zero) + :ranked ADD #streams :count";
        } else {
            expression = sets + " ADD #streams :count REMOVE #top";
        }
        client.updateItem(update -> update.tableName(table).key(TableModel.totalKey(total.movieId(), month))
                .updateExpression(expression).expressionAttributeNames(names).expressionAttributeValues(values)).join();
    }
}
