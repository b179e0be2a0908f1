package dev.moviegraph.catalog;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.RecordComponent;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/**
 * A planning run answers with stand-ins built from record types: a component it had no value for used to
 * be planned as null (and the run logged an internal error nobody saw). Every type it builds is checked
 * at start-up; one it cannot make is refused there, naming the record and the component.
 */
class StandInsTest {
    /** A domain record as it would be if someone gave movies a runtime as a Duration. */
    record MovieWithRuntime(MovieId id, String title, java.time.Duration runtime) {
    }

    /** Instants stand in too (a watchlist entry's addedAt): one fixed instant, so plans are the same each run. */
    record MovieWithAddedAt(MovieId id, String title, Instant addedAt) {
    }

    @Test
    void aRecordWithAComponentTypeStandInsCannotMakeIsRefusedNamingTheRecordAndTheComponent() {
        IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> StandIns.requireBuildable(MovieWithRuntime.class));

        assertTrue(refused.getMessage().contains("MovieWithRuntime.runtime"), refused.getMessage());
        assertTrue(refused.getMessage().contains("Duration"), refused.getMessage());
        assertDoesNotThrow(() -> StandIns.requireBuildable(MovieWithAddedAt.class));
    }

    @Test
    void everyRecordThePlannerBuildsCanBeStoodInFor() {
        assertDoesNotThrow(() -> StandIns.requireBuildable());
    }

    @Test
    void theCheckCoversEveryReferencedItemAndEveryListsItems() {
        List<Class<? extends Record>> referenced = StandIns.referencedTypes();

        assertEquals(ItemRef.class.getPermittedSubclasses().length, referenced.size());
        assertTrue(referenced.containsAll(List.of(Movie.class, Person.class, MonthlyStreams.class)), referenced.toString());
    }

    @Test
    void noComponentOfAStandInIsNull() {
        StandIns standIns = new StandIns();
        List<Record> built = List.of(
                standIns.item(new ItemRef.MovieRef(MovieId.of("tt0111161"))),
                standIns.item(new ItemRef.PersonRef(PersonId.of("nm0000151"))),
                standIns.item(new ItemRef.TotalRef(MovieId.of("tt0111161"), java.time.YearMonth.of(2024, 5))));
        for (Record record : built) {
            Map<String, Object> values = Records.components(record);
            for (RecordComponent component : record.getClass().getRecordComponents()) {
                assertNotNull(values.get(component.getName()), record.getClass().getSimpleName() + "." + component.getName());
            }
        }
    }
}
