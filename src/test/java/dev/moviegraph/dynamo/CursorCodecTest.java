package dev.moviegraph.dynamo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.catalog.InvalidInputException;
import dev.moviegraph.dynamo.CursorCodec.Kind;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** Cursors round-trip, and anything that was not issued by this codec for this very list is refused. */
class CursorCodecTest {
    private static final String SECRET = "test-secret-0123456789";
    private static final String MOVIE = TableLayout.MOVIE_PREFIX + "tt0111161";
    private static final String OTHER_MOVIE = TableLayout.MOVIE_PREFIX + "tt0068646";
    private static final String ACTOR = TableLayout.ACTOR_PREFIX + "nm0000209";
    private static final String OTHER_ACTOR = TableLayout.ACTOR_PREFIX + "nm0000151";

    private final CursorCodec codec = new CursorCodec(SECRET);

    /** The key of a cast item as LSI1 returns it: table key plus the index sort key, plus other attributes. */
    private static Map<String, AttributeValue> castItem(String moviePk, String actorPk, String billing) {
        return Map.of(
                TableLayout.PK, AttributeValue.fromS(moviePk),
                TableLayout.SK, AttributeValue.fromS(actorPk),
                TableLayout.LSI1_SK, AttributeValue.fromS(TableLayout.BILLING_PREFIX + billing + "#" + actorPk.substring(4)),
                TableLayout.TYPE, AttributeValue.fromS("cast"),
                "characters", AttributeValue.fromL(List.of(AttributeValue.fromS("Andy Dufresne"))));
    }

    private static Map<String, AttributeValue> castKey(String moviePk, String actorPk, String billing) {
        Map<String, AttributeValue> item = castItem(moviePk, actorPk, billing);
        return Map.of(TableLayout.PK, item.get(TableLayout.PK), TableLayout.SK, item.get(TableLayout.SK),
                TableLayout.LSI1_SK, item.get(TableLayout.LSI1_SK));
    }

    private static Map<String, AttributeValue> filmographyKey(String moviePk, String actorPk) {
        return Map.of(TableLayout.PK, AttributeValue.fromS(moviePk), TableLayout.SK, AttributeValue.fromS(actorPk));
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
        String cursor = codec.encode(Kind.CAST, castItem(MOVIE, ACTOR, "0001"));
        Map<String, AttributeValue> key = codec.decode(Kind.CAST, cursor, MOVIE);
        assertEquals(castKey(MOVIE, ACTOR, "0001"), key, "exactly the table key plus lsi1sk, nothing else");
    }

    @Test
    void filmographyCursorRoundTripsToTheExclusiveStartKeyOfTheInvertedIndex() {
        Map<String, AttributeValue> item = Map.of(
                TableLayout.PK, AttributeValue.fromS(MOVIE),
                TableLayout.SK, AttributeValue.fromS(ACTOR),
                TableLayout.LSI1_SK, AttributeValue.fromS("billing#0001#nm0000209"),
                TableLayout.TYPE, AttributeValue.fromS("cast"));
        String cursor = codec.encode(Kind.FILMOGRAPHY, item);
        Map<String, AttributeValue> key = codec.decode(Kind.FILMOGRAPHY, cursor, ACTOR);
        assertEquals(filmographyKey(MOVIE, ACTOR), key);
    }

    @Test
    void cursorsAreOpaqueUrlSafeAndDifferForDifferentKeys() {
        String first = codec.encode(Kind.CAST, castKey(MOVIE, ACTOR, "0001"));
        String second = codec.encode(Kind.CAST, castKey(MOVIE, OTHER_ACTOR, "0002"));
        assertNotEquals(first, second);
        for (String cursor : List.of(first, second)) {
            assertTrue(cursor.matches("[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+"), cursor);
            assertFalse(cursor.contains("tt0111161"), "the key is not visible as plain text: " + cursor);
        }
        assertEquals(first, codec.encode(Kind.CAST, castKey(MOVIE, ACTOR, "0001")), "encoding is deterministic");
    }

    @Test
    void anyInstanceWithTheSameSecretAcceptsTheCursor() {
        String cursor = codec.encode(Kind.CAST, castKey(MOVIE, ACTOR, "0001"));
        assertEquals(castKey(MOVIE, ACTOR, "0001"), new CursorCodec(SECRET).decode(Kind.CAST, cursor, MOVIE));
    }

    @Test
    void editedPayloadIsRefused() {
        String cursor = codec.encode(Kind.CAST, castKey(MOVIE, ACTOR, "0005"));
        String payload = payloadOf(cursor);
        assertTrue(payload.contains("billing#0005"), payload);
        // Skip ahead in the same list: same movie, a later billing, the original signature.
        String edited = withPayload(cursor, payload.replace("billing#0005", "billing#0050"));
        assertNotEquals(cursor, edited);
        assertRefusedAsInvalid(() -> codec.decode(Kind.CAST, edited, MOVIE));
    }

    @Test
    void payloadRetargetedAtAnotherMovieWithTheOriginalSignatureIsRefusedAsInvalid() {
        String cursor = codec.encode(Kind.CAST, castKey(MOVIE, ACTOR, "0001"));
        String edited = withPayload(cursor, payloadOf(cursor).replace(MOVIE, OTHER_MOVIE));
        assertRefusedAsInvalid(() -> codec.decode(Kind.CAST, edited, OTHER_MOVIE));
    }

    @Test
    void editedSignatureIsRefused() {
        String cursor = codec.encode(Kind.CAST, castKey(MOVIE, ACTOR, "0001"));
        int dot = cursor.indexOf('.');
        byte[] signature = Base64.getUrlDecoder().decode(cursor.substring(dot + 1));
        signature[0] ^= 1;
        String edited = cursor.substring(0, dot + 1) + Base64.getUrlEncoder().withoutPadding().encodeToString(signature);
        assertNotEquals(cursor, edited);
        assertRefusedAsInvalid(() -> codec.decode(Kind.CAST, edited, MOVIE));
    }

    @Test
    void truncatedOrMissingSignatureIsRefused() {
        String cursor = codec.encode(Kind.CAST, castKey(MOVIE, ACTOR, "0001"));
        int dot = cursor.indexOf('.');
        assertRefusedAsInvalid(() -> codec.decode(Kind.CAST, cursor.substring(0, dot + 1), MOVIE));
        assertRefusedAsInvalid(() -> codec.decode(Kind.CAST, cursor.substring(0, cursor.length() - 4), MOVIE));
        assertRefusedAsInvalid(() -> codec.decode(Kind.CAST, cursor.substring(0, dot), MOVIE));
    }

    @Test
    void cursorSignedWithAnotherSecretIsRefused() {
        String foreign = new CursorCodec("another-secret-0123456789").encode(Kind.CAST, castKey(MOVIE, ACTOR, "0001"));
        String own = codec.encode(Kind.CAST, castKey(MOVIE, ACTOR, "0001"));
        assertEquals(payloadOf(own), payloadOf(foreign), "same key, only the signature differs");
        assertRefusedAsInvalid(() -> codec.decode(Kind.CAST, foreign, MOVIE));
    }

    @Test
    void castCursorOfAnotherMovieIsRefusedAsAnotherList() {
        String cursor = codec.encode(Kind.CAST, castKey(MOVIE, ACTOR, "0001"));
        InvalidInputException e = assertThrows(InvalidInputException.class,
                () -> codec.decode(Kind.CAST, cursor, OTHER_MOVIE));
        assertTrue(e.getMessage().startsWith("Invalid cursor"), e.getMessage());
        assertTrue(e.getMessage().contains("another list"), e.getMessage());
    }

    @Test
    void filmographyCursorOfAnotherActorIsRefusedAsAnotherList() {
        String cursor = codec.encode(Kind.FILMOGRAPHY, filmographyKey(MOVIE, ACTOR));
        InvalidInputException e = assertThrows(InvalidInputException.class,
                () -> codec.decode(Kind.FILMOGRAPHY, cursor, OTHER_ACTOR));
        assertTrue(e.getMessage().contains("another list"), e.getMessage());
        // The movie is not the partition of a filmography: passing it is just as wrong.
        assertThrows(InvalidInputException.class, () -> codec.decode(Kind.FILMOGRAPHY, cursor, MOVIE));
    }

    @Test
    void castCursorDecodedAsFilmographyIsRefused() {
        String cast = codec.encode(Kind.CAST, castKey(MOVIE, ACTOR, "0001"));
        assertRefusedAsInvalid(() -> codec.decode(Kind.FILMOGRAPHY, cast, ACTOR));
        assertRefusedAsInvalid(() -> codec.decode(Kind.FILMOGRAPHY, cast, MOVIE));
    }

    @Test
    void filmographyCursorDecodedAsCastIsRefused() {
        String filmography = codec.encode(Kind.FILMOGRAPHY, filmographyKey(MOVIE, ACTOR));
        assertRefusedAsInvalid(() -> codec.decode(Kind.CAST, filmography, MOVIE));
        assertRefusedAsInvalid(() -> codec.decode(Kind.CAST, filmography, ACTOR));
    }

    @Test
    void garbageStringsAreRefusedAsInvalid() {
        for (String garbage : List.of("", ".", "nodot", "!!!.???", "abc.d$f", "%%%%", "a.b.c", "....")) {
            assertRefusedAsInvalid(() -> codec.decode(Kind.CAST, garbage, MOVIE));
            assertRefusedAsInvalid(() -> codec.decode(Kind.FILMOGRAPHY, garbage, ACTOR));
        }
    }

    @Test
    void oversizedCursorIsRefusedAsInvalid() {
        String huge = "A".repeat(2500) + "." + "B".repeat(2499);
        assertEquals(5000, huge.length());
        assertRefusedAsInvalid(() -> codec.decode(Kind.CAST, huge, MOVIE));
        // Even a validly signed one: the limit is checked before anything else.
        String longKey = "x".repeat(2000);
        String signedHuge = codec.encode(Kind.FILMOGRAPHY, filmographyKey(MOVIE + longKey, ACTOR));
        assertTrue(signedHuge.length() > 1024, "length " + signedHuge.length());
        assertRefusedAsInvalid(() -> codec.decode(Kind.FILMOGRAPHY, signedHuge, ACTOR));
    }

    @Test
    void keysWithNonAsciiCharactersRoundTrip() {
        Map<String, AttributeValue> key = filmographyKey(MOVIE + "é✓", ACTOR);
        String cursor = codec.encode(Kind.FILMOGRAPHY, key);
        assertEquals(key, codec.decode(Kind.FILMOGRAPHY, cursor, ACTOR));
    }
}
