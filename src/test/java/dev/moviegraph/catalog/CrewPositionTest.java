package dev.moviegraph.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Test;

/** Where a crew credit goes: its own place when credited again, else after the last one, never past the cap. */
class CrewPositionTest {
    private static final MovieId MOVIE = MovieId.of("tt0111161");

    private static Credit director(String person, Integer position) {
        return new Credit(MOVIE, PersonId.of(person), Role.DIRECTOR, "T", 1994, "N", List.of(), position);
    }

    @Test
    void aNewCrewCreditGoesAfterTheLastOne() {
        assertEquals(1, Credit.crewPosition(List.of(), PersonId.of("nm0000001")));
        assertEquals(4, Credit.crewPosition(List.of(director("nm0000002", 3), director("nm0000003", 1)),
                PersonId.of("nm0000001")));
    }

    @Test
    void aCrewCreditCreditedAgainKeepsItsPlace() {
        assertEquals(1, Credit.crewPosition(List.of(director("nm0000002", 3), director("nm0000001", 1)),
                PersonId.of("nm0000001")));
    }

    @Test
    void thePlaceNeverPassesTheLargestBilling() {
        assertEquals(Writes.MAX_BILLING, Credit.crewPosition(List.of(director("nm0000002", Writes.MAX_BILLING)),
                PersonId.of("nm0000001")));
    }
}
