package dev.moviegraph.dynamo.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.catalog.AccessPattern;
import dev.moviegraph.catalog.Credit;
import dev.moviegraph.catalog.ItemRef;
import dev.moviegraph.catalog.Movie;
import dev.moviegraph.catalog.MovieId;
import dev.moviegraph.catalog.Person;
import dev.moviegraph.catalog.PersonId;
import dev.moviegraph.catalog.Role;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The table model is the one place of every key prefix and attribute name: keys, decoding, the access
 * pattern descriptions and the tables of docs/design/model.md all follow from it. Run with -Ddocs.update=true
 * to rewrite those generated tables after changing the model.
 */
class TableModelTest {
    private static final Path DESIGN = Path.of("docs", "design", "model.md");
    private static final Movie MATRIX = new Movie(MovieId.of("tt0133093"), "The Matrix", 1999,
            LocalDate.of(1999, 3, 31), List.of("Action", "Sci-Fi"), 136);

    @Test
    void everyEntityRoundTripsThroughItsItem() {
        Person person = new Person(PersonId.of("nm0000206"), "Keanu Reeves", 1964, null);
        Credit cast = new Credit(MATRIX.id(), person.id(), Role.CAST, MATRIX.title(), 1999, person.name(), List.of("Neo"), 1);
        Credit director = new Credit(MATRIX.id(), PersonId.of("nm0905154"), Role.DIRECTOR, MATRIX.title(), null,
                "Lana Wachowski", List.of(), 1);
        assertEquals(MATRIX, TableModel.decode(TableModel.MOVIE.encode(MATRIX)).orElseThrow());
        assertEquals(person, TableModel.decode(TableModel.PERSON.encode(person)).orElseThrow());
        assertEquals(cast, TableModel.decode(TableModel.CAST.encode(cast)).orElseThrow());
        assertEquals(director, TableModel.decode(TableModel.DIRECTOR.encode(director)).orElseThrow());
    }

    @Test
    void keysAreRenderedFromTheDeclaredTemplates() {
        Map<String, AttributeValue> movie = TableModel.MOVIE.encode(MATRIX);
        assertEquals("mov#tt0133093", movie.get(TableModel.PK).s());
        assertEquals(TableModel.movieKey(MATRIX.id()), TableModel.key(new ItemRef.MovieRef(MATRIX.id())));
        Credit unknownYear = new Credit(MATRIX.id(), PersonId.of("nm0905154"), Role.WRITER, "The Matrix", null,
                "Lana Wachowski", List.of(), 2);
        Map<String, AttributeValue> writer = TableModel.WRITER.encode(unknownYear);
        assertEquals("wri#nm0905154", writer.get(TableModel.SK).s());
        assertEquals("crew#wri#0002#nm0905154", writer.get(TableModel.LSI1_SK).s());
        assertEquals("per#nm0905154", writer.get(TableModel.GSI3_PK).s());
        assertEquals("wri#9999#The Matrix#tt0133093", writer.get(TableModel.GSI3_SK).s(), "unknown years sort last");
        Credit known = new Credit(MATRIX.id(), PersonId.of("nm0905154"), Role.WRITER, "The Matrix", 1999,
                "Lana Wachowski", List.of(), 2);
        assertEquals("wri#8000#The Matrix#tt0133093", TableModel.WRITER.encode(known).get(TableModel.GSI3_SK).s(),
                "9999 - year, so later years sort first");
        assertFalse(writer.containsKey("characters"), "crew items hold no characters");
    }

    @Test
    void aPersistedQueryIsKeyedByItsHashAndExpiresThroughANumberForTimeToLive() {
        String hash = "8e3dab6ffe11e881a33ae5da3899ba395dc88591ba7bd200ea7609035a2a4dd9";
        TableModel.PersistedQuery query = new TableModel.PersistedQuery(hash, "{ __typename }", 1_900_000_000L);

        Map<String, AttributeValue> item = TableModel.PERSISTED_QUERY.encode(query);

        assertEquals("pq#" + hash, item.get(TableModel.PK).s());
        assertEquals("pq#" + hash, item.get(TableModel.SK).s());
        // DynamoDB's time to live only reads a Number attribute holding epoch seconds
        assertEquals("1900000000", item.get(TableModel.EXPIRES_AT).n());
        assertEquals(query, TableModel.decode(item).orElseThrow());
    }

    /**
     * A prefix and an attribute name changed in a declaration change the item's keys, its attributes and its
     * row of the docs table together, because all three are derived from the declaration.
     */
    @Test
    void aChangedPrefixOrAttributeNameChangesKeysAndDocsTogether() {
        Entity<Movie> renamed = Entity.of("movie", Movie.class).store("id", "filmId")
                .key(TableModel.PK, "film#{filmId}").key(TableModel.SK, "film#{filmId}");
        Map<String, AttributeValue> item = renamed.encode(MATRIX);
        assertEquals("film#tt0133093", item.get(TableModel.PK).s());
        assertEquals("tt0133093", item.get("filmId").s());
        assertFalse(item.containsKey("movieId"));
        assertEquals(MATRIX, renamed.decode(item));
        String row = ModelDocs.itemsTable(List.of(renamed));
        assertTrue(row.contains("`film#{filmId}`") && row.contains("`filmId`"), row);
        assertFalse(ModelDocs.itemsTable().contains("film#"), "the real model is untouched");
    }

    @Test
    void everyAccessPatternDescribesTheTemplatesItQueriesWith() {
        for (Access access : Access.values()) {
            AccessPattern pattern = access.describe();
            // A key format such as {term:seq} is part of a template; a ":value" outside one is a placeholder left.
            assertFalse(pattern.keyTemplate().replaceAll("\\{[^}]*}", "").contains(":"),
                    access + " left a placeholder: " + pattern.keyTemplate());
        }
        for (AccessPattern pattern : TableModel.accessPatterns()) {
            assertFalse(pattern.keyTemplate().replaceAll("\\{[^}]*}", "").contains(":"),
                    pattern.name() + " left a placeholder: " + pattern.keyTemplate());
        }
    }

    @Test
    void designDocTablesAreTheModels() throws IOException {
        String design = Files.readString(DESIGN, StandardCharsets.UTF_8);
        String updated = replace(replace(design, "items", ModelDocs.itemsTable()), "patterns", ModelDocs.patternsTable());
        if (Boolean.getBoolean("docs.update")) {
            Files.writeString(DESIGN, updated, StandardCharsets.UTF_8);
            design = updated;
        }
        assertEquals(updated, design, DESIGN + "'s tables differ from the table model; run "
                + "mvn -B test -Dtest=TableModelTest -Ddocs.update=true");
    }

    private static String replace(String text, String name, String table) {
        String start = "<!-- " + name + ": generated from the table model -->\n";
        String end = "<!-- end -->";
        int from = text.indexOf(start);
        int to = text.indexOf(end, from);
        assertTrue(from >= 0 && to > from, DESIGN + " has no generated " + name + " table");
        return text.substring(0, from + start.length()) + table + text.substring(to);
    }
}
