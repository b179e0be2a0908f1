package dev.moviegraph.dynamo.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.catalog.Credit;
import dev.moviegraph.catalog.InvalidInputException;
import dev.moviegraph.catalog.MovieId;
import dev.moviegraph.catalog.Part;
import dev.moviegraph.catalog.PersonId;
import dev.moviegraph.catalog.Role;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** Cursors round-trip, and anything that was not issued by this codec for this very list is refused. */
class CursorCodecTest {
    private static final String SECRET = "test-secret-0123456789";
    private static final String MOVIE_ID = "tt0111161";
    private static final String OTHER_MOVIE_ID = "tt0068646";
    private static final String PERSON_ID = "nm0000209";
    private static final String OTHER_PERSON_ID = "nm0000151";
    /** A cast list's partition: the movie's item collection. */
    private static final String MOVIE = TableModel.render(TableModel.MOVIE, TableModel.PK, Map.of("movieId", MovieId.of(MOVIE_ID)));
    private static final String OTHER_MOVIE = TableModel.render(TableModel.MOVIE, TableModel.PK, Map.of("movieId", MovieId.of(OTHER_MOVIE_ID)));
    /** A filmography's partition: the person's partition of GSI3. */
    private static final String ACTOR = TableModel.render(TableModel.PERSON, TableModel.GSI3_PK, Map.of("personId", PersonId.of(PERSON_ID)));
    private static final String OTHER_ACTOR = TableModel.render(TableModel.PERSON, TableModel.GSI3_PK, Map.of("personId", PersonId.of(OTHER_PERSON_ID)));

    private final CursorCodec codec = new CursorCodec(SECRET);

    /** A whole cast item as the table model writes it: every key attribute, plus other attributes. */
    private static Map<String, AttributeValue> castItem(String movieId, String personId, int billing, String title) {
        return TableModel.CAST.encode(new Credit(MovieId.of(movieId), PersonId.of(personId), Role.CAST, title, 1994,
                "Tim Robbins", List.of("Andy Dufresne"), billing));
    }

    private static Map<String, AttributeValue> only(Map<String, AttributeValue> item, Index index) {
        Map<String, AttributeValue> key = new LinkedHashMap<>();
        index.cursorAttributes().forEach(attribute -> key.put(attribute, item.get(attribute)));
        return Map.copyOf(key);
    }

    /** The key of a cast item as LSI1 returns it: the table key plus the index sort key. */
    private static Map<String, AttributeValue> castKey(String movieId, String personId, int billing) {
        return only(castItem(movieId, personId, billing, "The Shawshank Redemption"), Index.LSI1);
    }

    /** The key of an acting credit as GSI3 returns it: the index key plus the table key. */
    private static Map<String, AttributeValue> filmographyKey(String movieTitle, String personId) {
        return only(castItem(MOVIE_ID, personId, 1, movieTitle), Index.GSI3);
    }

    private static Map<String, AttributeValue> filmographyKey(String personId) {
        return filmographyKey("The Shawshank Redemption", personId);
    }

    private static void assertRefusedAsInvalid(Runnable decode) {
        InvalidInputException e = assertThrows(InvalidInputException.class, decode::run);
        assertTrue(e.getMessage().startsWith("Invalid cursor"), e.getMessage());
    }

    private static String payloadOf(String cursor) {
        return new String(Base64.getUrlDecoder().decode(cursor.substring(0, cursor.indexOf('.'))), StandardCharsets.UTF_8);
    }

    private static String withPayload(String cursor, String payload) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(payload.getBytes(StandardCharsets.UTF_8))
                + cursor.substring(cursor.indexOf('.'));
    }

    @Test
    void castCursorRoundTripsToTheExclusiveStartKeyOfTheIndex() {
        Map<String, AttributeValue> item = castItem(MOVIE_ID, PERSON_ID, 1, "The Shawshank Redemption");
        String cursor = codec.encode(Part.CAST, Index.LSI1, item);
        Map<String, AttributeValue> key = codec.decode(Part.CAST, Index.LSI1, cursor, MOVIE);
        assertEquals(Map.of(TableModel.PK, item.get(TableModel.PK), TableModel.SK, item.get(TableModel.SK),
                TableModel.LSI1_SK, item.get(TableModel.LSI1_SK)), key, "exactly the table key plus lsi1sk, nothing else");
    }

    @Test
    void filmographyCursorRoundTripsToTheExclusiveStartKeyOfTheInvertedIndex() {
        Map<String, AttributeValue> item = castItem(MOVIE_ID, PERSON_ID, 1, "The Shawshank Redemption");
        String cursor = codec.encode(Part.ACTED, Index.GSI3, item);
        Map<String, AttributeValue> key = codec.decode(Part.ACTED, Index.GSI3, cursor, ACTOR);
        assertEquals(Map.of(TableModel.GSI3_PK, item.get(TableModel.GSI3_PK), TableModel.GSI3_SK, item.get(TableModel.GSI3_SK),
                TableModel.PK, item.get(TableModel.PK), TableModel.SK, item.get(TableModel.SK)), key,
                "exactly the index key plus the table key, nothing else");
    }

    @Test
    void cursorsAreOpaqueUrlSafeAndDifferForDifferentKeys() {
        String first = codec.encode(Part.CAST, Index.LSI1, castKey(MOVIE_ID, PERSON_ID, 1));
        String second = codec.encode(Part.CAST, Index.LSI1, castKey(MOVIE_ID, OTHER_PERSON_ID, 2));
        assertNotEquals(first, second);
        for (String cursor : List.of(first, second)) {
            assertTrue(cursor.matches("[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+"), cursor);
            assertFalse(cursor.contains("tt0111161"), "the key is not visible as plain text: " + cursor);
        }
        assertEquals(first, codec.encode(Part.CAST, Index.LSI1, castKey(MOVIE_ID, PERSON_ID, 1)), "encoding is deterministic");
    }

    @Test
    void anyInstanceWithTheSameSecretAcceptsTheCursor() {
        String cursor = codec.encode(Part.CAST, Index.LSI1, castKey(MOVIE_ID, PERSON_ID, 1));
        assertEquals(castKey(MOVIE_ID, PERSON_ID, 1), new CursorCodec(SECRET).decode(Part.CAST, Index.LSI1, cursor, MOVIE));
    }

    @Test
    void editedPayloadIsRefused() {
        String cursor = codec.encode(Part.CAST, Index.LSI1, castKey(MOVIE_ID, PERSON_ID, 5));
        String payload = payloadOf(cursor);
        assertTrue(payload.contains("cast#0005"), payload);
        // Skip ahead in the same list: same movie, a later billing, the original signature.
        String edited = withPayload(cursor, payload.replace("cast#0005", "cast#0050"));
        assertNotEquals(cursor, edited);
        assertRefusedAsInvalid(() -> codec.decode(Part.CAST, Index.LSI1, edited, MOVIE));
    }

    @Test
    void payloadRetargetedAtAnotherMovieWithTheOriginalSignatureIsRefusedAsInvalid() {
        String cursor = codec.encode(Part.CAST, Index.LSI1, castKey(MOVIE_ID, PERSON_ID, 1));
        String edited = withPayload(cursor, payloadOf(cursor).replace(MOVIE, OTHER_MOVIE));
        assertRefusedAsInvalid(() -> codec.decode(Part.CAST, Index.LSI1, edited, OTHER_MOVIE));
    }

    @Test
    void editedSignatureIsRefused() {
        String cursor = codec.encode(Part.CAST, Index.LSI1, castKey(MOVIE_ID, PERSON_ID, 1));
        int dot = cursor.indexOf('.');
        byte[] signature = Base64.getUrlDecoder().decode(cursor.substring(dot + 1));
        signature[0] ^= 1;
        String edited = cursor.substring(0, dot + 1) + Base64.getUrlEncoder().withoutPadding().encodeToString(signature);
        assertNotEquals(cursor, edited);
        assertRefusedAsInvalid(() -> codec.decode(Part.CAST, Index.LSI1, edited, MOVIE));
    }

    @Test
    void truncatedOrMissingSignatureIsRefused() {
        String cursor = codec.encode(Part.CAST, Index.LSI1, castKey(MOVIE_ID, PERSON_ID, 1));
        int dot = cursor.indexOf('.');
        assertRefusedAsInvalid(() -> codec.decode(Part.CAST, Index.LSI1, cursor.substring(0, dot + 1), MOVIE));
        assertRefusedAsInvalid(() -> codec.decode(Part.CAST, Index.LSI1, cursor.substring(0, cursor.length() - 4), MOVIE));
        assertRefusedAsInvalid(() -> codec.decode(Part.CAST, Index.LSI1, cursor.substring(0, dot), MOVIE));
    }

    @Test
    void cursorSignedWithAnotherSecretIsRefused() {
        String foreign = new CursorCodec("another-secret-0123456789").encode(Part.CAST, Index.LSI1, castKey(MOVIE_ID, PERSON_ID, 1));
        String own = codec.encode(Part.CAST, Index.LSI1, castKey(MOVIE_ID, PERSON_ID, 1));
        assertEquals(payloadOf(own), payloadOf(foreign), "same key, only the signature differs");
        assertRefusedAsInvalid(() -> codec.decode(Part.CAST, Index.LSI1, foreign, MOVIE));
    }

    @Test
    void castCursorOfAnotherMovieIsRefusedAsAnotherList() {
        String cursor = codec.encode(Part.CAST, Index.LSI1, castKey(MOVIE_ID, PERSON_ID, 1));
        InvalidInputException e = assertThrows(InvalidInputException.class,
                () -> codec.decode(Part.CAST, Index.LSI1, cursor, OTHER_MOVIE));
        assertTrue(e.getMessage().startsWith("Invalid cursor"), e.getMessage());
        assertTrue(e.getMessage().contains("another list"), e.getMessage());
    }

    @Test
    void filmographyCursorOfAnotherActorIsRefusedAsAnotherList() {
        String cursor = codec.encode(Part.ACTED, Index.GSI3, filmographyKey(PERSON_ID));
        InvalidInputException e = assertThrows(InvalidInputException.class,
                () -> codec.decode(Part.ACTED, Index.GSI3, cursor, OTHER_ACTOR));
        assertTrue(e.getMessage().contains("another list"), e.getMessage());
        // The movie is not the partition of a filmography: passing it is just as wrong.
        assertThrows(InvalidInputException.class, () -> codec.decode(Part.ACTED, Index.GSI3, cursor, MOVIE));
    }

    @Test
    void castCursorDecodedAsFilmographyIsRefused() {
        String cast = codec.encode(Part.CAST, Index.LSI1, castKey(MOVIE_ID, PERSON_ID, 1));
        assertRefusedAsInvalid(() -> codec.decode(Part.ACTED, Index.GSI3, cast, ACTOR));
        assertRefusedAsInvalid(() -> codec.decode(Part.ACTED, Index.GSI3, cast, MOVIE));
    }

    @Test
    void filmographyCursorDecodedAsCastIsRefused() {
        String filmography = codec.encode(Part.ACTED, Index.GSI3, filmographyKey(PERSON_ID));
        assertRefusedAsInvalid(() -> codec.decode(Part.CAST, Index.LSI1, filmography, MOVIE));
        assertRefusedAsInvalid(() -> codec.decode(Part.CAST, Index.LSI1, filmography, ACTOR));
        // Same person, same index, another role's list.
        assertRefusedAsInvalid(() -> codec.decode(Part.DIRECTED, Index.GSI3, filmography, ACTOR));
    }

    @Test
    void garbageStringsAreRefusedAsInvalid() {
        for (String garbage : List.of("", ".", "nodot", "!!!.???", "abc.d$f", "%%%%", "a.b.c", "....")) {
            assertRefusedAsInvalid(() -> codec.decode(Part.CAST, Index.LSI1, garbage, MOVIE));
            assertRefusedAsInvalid(() -> codec.decode(Part.ACTED, Index.GSI3, garbage, ACTOR));
        }
    }

    @Test
    void oversizedCursorIsRefusedAsInvalid() {
        String huge = "A".repeat(2500) + "." + "B".repeat(2499);
        assertEquals(5000, huge.length());
        assertRefusedAsInvalid(() -> codec.decode(Part.CAST, Index.LSI1, huge, MOVIE));
        // Even a validly signed one: the limit is checked before anything else.
        Map<String, AttributeValue> hugeKey = new java.util.HashMap<>(filmographyKey(PERSON_ID));
        hugeKey.put("gsi3sk", AttributeValue.fromS("act#" + "x".repeat(2000)));
        String signedHuge = codec.encode(Part.ACTED, Index.GSI3, hugeKey);
        assertTrue(signedHuge.length() > 1024, "length " + signedHuge.length());
        assertRefusedAsInvalid(() -> codec.decode(Part.ACTED, Index.GSI3, signedHuge, ACTOR));
    }

    @Test
    void keysWithNonAsciiCharactersRoundTrip() {
        Map<String, AttributeValue> key = filmographyKey("Les Évadés ✓", PERSON_ID);
        String cursor = codec.encode(Part.ACTED, Index.GSI3, key);
        assertEquals(key, codec.decode(Part.ACTED, Index.GSI3, cursor, ACTOR));
    }
}
