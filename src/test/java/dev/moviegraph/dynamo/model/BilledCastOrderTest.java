package dev.moviegraph.dynamo.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.moviegraph.catalog.BilledCast;
import dev.moviegraph.catalog.Credit;
import dev.moviegraph.catalog.MovieId;
import dev.moviegraph.catalog.PersonId;
import dev.moviegraph.catalog.Role;
import dev.moviegraph.catalog.Writes;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

/**
 * The copy of a movie's first-billed cast is in the order of the credit-order index (lsi1): billing, the
 * uncredited last, then person id. Otherwise a page from the copy and a page from the index would disagree.
 */
class BilledCastOrderTest {
    private static final MovieId MOVIE = MovieId.of("tt0000001");

    @Test
    void creditOrderIsTheIndexOrder() {
        Random random = new Random(46);
        List<BilledCast> cast = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            int pick = random.nextInt(10);
            Integer billing = pick == 0 ? null : pick == 1 ? Writes.MAX_BILLING : 1 + random.nextInt(12);
            cast.add(new BilledCast(PersonId.of("nm" + (1_000_000 + random.nextInt(9_000_000))), "Name " + i,
                    List.of(), billing));
        }
        List<BilledCast> byIndex = new ArrayList<>(cast);
        byIndex.sort(Comparator.comparing(BilledCastOrderTest::indexKey));
        List<BilledCast> byOrder = new ArrayList<>(cast);
        byOrder.sort(BilledCast.CREDIT_ORDER);

        assertEquals(byIndex, byOrder);
        assertEquals(byIndex.subList(0, 5), BilledCast.firstBilled(cast));
    }

    private static String indexKey(BilledCast billed) {
        return TableModel.CAST.encode(new Credit(MOVIE, billed.personId(), Role.CAST, "t", 2000, billed.personName(),
                List.of(), billed.billing())).get(TableModel.LSI1_SK).s();
    }
}
