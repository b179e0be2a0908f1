package dev.moviegraph.catalog;

import java.time.YearMonth;

/**
 * Something that can be fetched by its key alone. Fetches of any mix of these at one level of a query
 * are answered together (one batch read), whatever their types. A reference names the item's type and
 * holds the fields of that type that make up its key, under the same names, so a store derives the key
 * from its table model alone and a new kind needs no code in the store.
 */
public sealed interface ItemRef<T extends Record> {
    /** The type of the item this reference fetches. */
    Class<T> type();

    record MovieRef(MovieId id) implements ItemRef<Movie> {
        @Override
        public Class<Movie> type() {
            return Movie.class;
        }
    }

    record PersonRef(PersonId id) implements ItemRef<Person> {
        @Override
        public Class<Person> type() {
            return Person.class;
        }
    }

    record TotalRef(MovieId movieId, YearMonth month) implements ItemRef<MonthlyStreams> {
        @Override
        public Class<MonthlyStreams> type() {
            return MonthlyStreams.class;
        }
    }

    /** A month's top list: one item, whatever its length. */
    record TopListRef(YearMonth month) implements ItemRef<TopList> {
        @Override
        public Class<TopList> type() {
            return TopList.class;
        }
    }
}
