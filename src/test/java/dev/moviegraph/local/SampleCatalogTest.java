package dev.moviegraph.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.catalog.Credit;
import dev.moviegraph.catalog.MonthlyStreams;
import dev.moviegraph.catalog.Movie;
import dev.moviegraph.catalog.MovieId;
import dev.moviegraph.catalog.Person;
import dev.moviegraph.catalog.PersonId;
import dev.moviegraph.catalog.Role;

import java.time.LocalDate;
import java.time.YearMonth;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

class SampleCatalogTest {
    // Generating takes a fraction of a second; sharing one instance keeps the suite quick.
    private static final SampleCatalog CATALOG = SampleCatalog.generate(SampleCatalog.DEFAULT_SEED);
    private static final MovieId SHAWSHANK = MovieId.of("tt0111161");

    @Test
    void sizesMeetTheMinimums() {
        assertEquals(520, CATALOG.movies().size());
        // The 2100 actors, and the anchors' six directors and writers who do not act.
        assertEquals(2100 + 6, CATALOG.people().size());
        assertTrue(CATALOG.cast().size() >= 5000, "cast " + CATALOG.cast().size());
        int movieMonths = CATALOG.movies().size() * CATALOG.months().size();
        double share = (double) CATALOG.totals().size() / movieMonths;
        assertTrue(share >= 0.35 && share <= 0.55, "share of movie-months with a total: " + share);
    }

    @Test
    void sameSeedGivesAnEqualCatalog() {
        SampleCatalog again = SampleCatalog.generate(SampleCatalog.DEFAULT_SEED);
        assertEquals(CATALOG.movies(), again.movies());
        assertEquals(CATALOG.people(), again.people());
        assertEquals(CATALOG.credits(), again.credits());
        assertEquals(CATALOG.totals(), again.totals());
    }

    @Test
    void differentSeedGivesADifferentCatalog() {
        SampleCatalog other = SampleCatalog.generate(SampleCatalog.DEFAULT_SEED + 1);
        assertNotEquals(CATALOG.movies(), other.movies());
        assertNotEquals(CATALOG.people(), other.people());
        assertNotEquals(CATALOG.credits(), other.credits());
        assertNotEquals(CATALOG.totals(), other.totals());
    }

    @Test
    void idsAreUniqueAndWellFormed() {
        Set<String> movieIds = new HashSet<>();
        for (Movie movie : CATALOG.movies()) {
            assertEquals(movie.id(), MovieId.of(movie.id().value()));
            assertTrue(movie.id().value().matches("tt\\d{7}"), movie.id().value());
            assertTrue(movieIds.add(movie.id().value()), "duplicate " + movie.id());
        }
        Set<String> personIds = new HashSet<>();
        for (Person person : CATALOG.people()) {
            assertEquals(person.id(), PersonId.of(person.id().value()));
            assertTrue(person.id().value().matches("nm\\d{7}"), person.id().value());
            assertTrue(personIds.add(person.id().value()), "duplicate " + person.id());
        }
    }

    @Test
    void everyCreditCopiesTheMovieAndPersonItReferences() {
        Map<MovieId, Movie> movies = byId(CATALOG.movies(), Movie::id);
        Map<PersonId, Person> people = byId(CATALOG.people(), Person::id);
        for (Credit member : CATALOG.credits()) {
            Movie movie = movies.get(member.movieId());
            Person person = people.get(member.personId());
            assertNotNull(movie, "unknown movie in " + member);
            assertNotNull(person, "unknown person in " + member);
            assertEquals(movie.title(), member.movieTitle());
            assertEquals(movie.year(), member.movieYear());
            assertEquals(person.name(), member.personName());
            if (member.role() == Role.CAST) {
                assertTrue(member.characters().size() >= 1 && member.characters().size() <= 2, member.toString());
            } else {
                assertEquals(List.of(), member.characters(), member.toString());
            }
        }
    }

    @Test
    void noActorAppearsTwiceInOneMovie() {
        Set<String> pairs = new HashSet<>();
        for (Credit member : CATALOG.cast()) {
            assertTrue(pairs.add(member.movieId() + "/" + member.personId()), "twice: " + member);
        }
    }

    @Test
    void billingCountsUpFromOneWithUncreditedAfterTheBilled() {
        Map<MovieId, List<Credit>> byMovie = CATALOG.cast().stream()
                .collect(Collectors.groupingBy(Credit::movieId));
        for (Movie movie : CATALOG.movies()) {
            List<Credit> members = byMovie.get(movie.id());
            assertNotNull(members, "no cast for " + movie.id());
            int expected = 1;
            boolean uncreditedSeen = false;
            for (Credit member : members) {
                if (member.position() == null) {
                    uncreditedSeen = true;
                } else {
                    assertTrue(!uncreditedSeen, "billed after uncredited in " + movie.id());
                    assertEquals(expected++, member.position(), movie.id().value());
                }
            }
        }
    }

    @Test
    void moviesHavePlausibleDetails() {
        Set<String> genres = new HashSet<>();
        for (Movie movie : CATALOG.movies()) {
            assertTrue(movie.year() >= 1960 && movie.year() <= 2024, movie.toString());
            assertEquals(movie.year().intValue(), movie.releaseDate().getYear(), movie.toString());
            assertTrue(movie.genres().size() >= 1 && movie.genres().size() <= 3, movie.toString());
            assertEquals(movie.genres().size(), new HashSet<>(movie.genres()).size(), movie.toString());
            genres.addAll(movie.genres());
            if (movie.runtimeMinutes() != null) {
                assertTrue(movie.runtimeMinutes() >= 78 && movie.runtimeMinutes() <= 195, movie.toString());
            }
        }
        assertTrue(genres.size() <= 15, genres.toString());
    }

    @Test
    void anchorMoviesCarryTheirRealData() {
        Map<MovieId, Movie> movies = byId(CATALOG.movies(), Movie::id);
        assertEquals(new Movie(SHAWSHANK, "The Shawshank Redemption", 1994, LocalDate.of(1994, 9, 23),
                List.of("Drama"), 142, 9.3, 2_900_000), movies.get(SHAWSHANK));
        assertEquals(new Movie(MovieId.of("tt0068646"), "The Godfather", 1972, LocalDate.of(1972, 3, 24),
                List.of("Crime", "Drama"), 175, 9.2, 2_000_000), movies.get(MovieId.of("tt0068646")));
        assertEquals(new Movie(MovieId.of("tt0133093"), "The Matrix", 1999, LocalDate.of(1999, 3, 31),
                List.of("Action", "Sci-Fi"), 136, 8.7, 2_100_000), movies.get(MovieId.of("tt0133093")));
        assertEquals(SHAWSHANK, CATALOG.movies().get(0).id(), "anchors come first");
    }

    @Test
    void anchorCastIsBilledAsInTheOriginal() {
        assertEquals(List.of(
                "1 nm0000209 Tim Robbins 1958 [Andy Dufresne]",
                "2 nm0000151 Morgan Freeman 1937 [Ellis Boyd 'Red' Redding]",
                "3 nm0348409 Bob Gunton 1945 [Warden Norton]",
                "4 nm0006669 William Sadler 1950 [Heywood]"), castOf("tt0111161"));
        assertEquals(List.of(
                "1 nm0000008 Marlon Brando 1924 [Don Vito Corleone]",
                "2 nm0000199 Al Pacino 1940 [Michael Corleone]",
                "3 nm0001001 James Caan 1940 [Sonny Corleone]"), castOf("tt0068646"));
        assertEquals(List.of(
                "1 nm0000206 Keanu Reeves 1964 [Neo]",
                "2 nm0000401 Laurence Fishburne 1961 [Morpheus]",
                "3 nm0005251 Carrie-Anne Moss 1967 [Trinity]",
                "4 nm0915989 Hugo Weaving 1960 [Agent Smith]"), castOf("tt0133093"));
    }

    @Test
    void morganFreemanAlsoPlaysInAGeneratedMovie() {
        assertTrue(moviesPerActor().get(PersonId.of("nm0000151")) > 1);
    }

    @Test
    void someActorHasMoreThanTwentyFiveMovies() {
        long most = moviesPerActor().values().stream().mapToLong(Long::longValue).max().orElse(0);
        assertTrue(most > 25, "longest filmography: " + most);
    }

    @Test
    void shawshankStreamsEveryMonthAndTopsMay2024() {
        List<MonthlyStreams> shawshank = CATALOG.totals().stream()
                .filter(t -> t.movieId().equals(SHAWSHANK)).toList();
        assertEquals(24, shawshank.size());
        assertEquals(CATALOG.months(), shawshank.stream().map(MonthlyStreams::month).sorted().toList());

        List<MonthlyStreams> may = CATALOG.totals().stream()
                .filter(t -> t.month().equals(YearMonth.of(2024, 5)))
                .sorted(Comparator.comparingLong(MonthlyStreams::streams).reversed())
                .toList();
        assertEquals(SHAWSHANK, may.get(0).movieId());
        assertTrue(may.get(0).streams() > may.get(1).streams() * 6 / 5, "not clearly ahead: " + may.subList(0, 2));
    }

    @Test
    void totalsArePositiveUntiedAndNamedAfterTheirMovie() {
        Map<MovieId, Movie> movies = byId(CATALOG.movies(), Movie::id);
        Set<YearMonth> months = new HashSet<>(CATALOG.months());
        Set<String> seen = new HashSet<>();
        Set<String> streamsPerMonth = new HashSet<>();
        for (MonthlyStreams total : CATALOG.totals()) {
            assertEquals(movies.get(total.movieId()).title(), total.movieTitle());
            assertTrue(months.contains(total.month()), total.toString());
            assertTrue(total.streams() >= 1, total.toString());
            assertTrue(seen.add(total.movieId() + "/" + total.month()), "twice: " + total);
            assertTrue(streamsPerMonth.add(total.month() + "/" + total.streams()), "tie: " + total);
        }
        assertTrue(CATALOG.totals().stream().anyMatch(t -> t.streams() >= 100_000), "no hits");
    }

    @Test
    void monthsAreTwentyFourConsecutiveMonthsOfTwentyTwentyThreeAndFour() {
        List<YearMonth> months = CATALOG.months();
        assertEquals(24, months.size());
        assertEquals(YearMonth.of(2023, 1), months.get(0));
        for (int i = 1; i < months.size(); i++) {
            assertEquals(months.get(i - 1).plusMonths(1), months.get(i));
        }
        assertEquals(YearMonth.of(2024, 12), months.get(23));
    }

    @Test
    void uncreditedEntriesAreRareButPresent() {
        long uncredited = CATALOG.cast().stream().filter(m -> m.position() == null).count();
        assertTrue(uncredited > 0 && uncredited < CATALOG.cast().size() / 10, "uncredited: " + uncredited);
    }

    private static List<String> castOf(String movieId) {
        Map<PersonId, Person> actors = byId(CATALOG.people(), Person::id);
        return CATALOG.cast().stream()
                .filter(m -> m.movieId().equals(MovieId.of(movieId)))
                .map(m -> m.position() + " " + m.personId() + " " + m.personName() + " "
                        + actors.get(m.personId()).birthYear() + " " + m.characters())
                .toList();
    }

    private static Map<PersonId, Long> moviesPerActor() {
        return CATALOG.cast().stream().collect(Collectors.groupingBy(Credit::personId, Collectors.counting()));
    }

    private static <K, V> Map<K, V> byId(List<V> values, Function<V, K> id) {
        Map<K, V> map = new HashMap<>();
        for (V value : values) {
            map.put(id.apply(value), value);
        }
        return map;
    }
}
