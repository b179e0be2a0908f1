package dev.moviegraph.local;

import dev.moviegraph.catalog.Actor;
import dev.moviegraph.catalog.ActorId;
import dev.moviegraph.catalog.CastMember;
import dev.moviegraph.catalog.MonthlyStreams;
import dev.moviegraph.catalog.Movie;
import dev.moviegraph.catalog.MovieId;

import java.time.LocalDate;
import java.time.Year;
import java.time.YearMonth;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import java.util.function.Supplier;

/**
 * A made-up but plausible catalog for local runs, demos and tests. A few real movies come first with
 * their real data so that docs and tests can name them; the rest is generated from a seed alone, so the
 * same seed always yields the same catalog, item for item and in the same order.
 */
public final class SampleCatalog {
    public static final long DEFAULT_SEED = 20240501L;

    private static final YearMonth FIRST_MONTH = YearMonth.of(2023, 1);
    private static final int MONTH_COUNT = 24;
    private static final int MOVIE_COUNT = 520;
    private static final int ACTOR_COUNT = 2100;
    private static final MovieId SHAWSHANK = MovieId.of("tt0111161");
    private static final ActorId FREEMAN = ActorId.of("nm0000151");
    /** The month in which tt0111161 leads the chart, so top-N examples have a known answer. */
    private static final YearMonth SHAWSHANK_PEAK = YearMonth.of(2024, 5);

    private static final List<Anchor> ANCHORS = List.of(
            new Anchor(new Movie(SHAWSHANK, "The Shawshank Redemption", 1994, LocalDate.of(1994, 9, 23),
                    List.of("Drama"), 142), 42_000, List.of(
                    new Role("nm0000209", "Tim Robbins", 1958, "Andy Dufresne"),
                    new Role("nm0000151", "Morgan Freeman", 1937, "Ellis Boyd 'Red' Redding"),
                    new Role("nm0348409", "Bob Gunton", 1945, "Warden Norton"),
                    new Role("nm0006669", "William Sadler", 1950, "Heywood"))),
            new Anchor(new Movie(MovieId.of("tt0068646"), "The Godfather", 1972, LocalDate.of(1972, 3, 24),
                    List.of("Crime", "Drama"), 175), 27_000, List.of(
                    new Role("nm0000008", "Marlon Brando", 1924, "Don Vito Corleone"),
                    new Role("nm0000199", "Al Pacino", 1940, "Michael Corleone"),
                    new Role("nm0001001", "James Caan", 1940, "Sonny Corleone"))),
            new Anchor(new Movie(MovieId.of("tt0133093"), "The Matrix", 1999, LocalDate.of(1999, 3, 31),
                    List.of("Action", "Sci-Fi"), 136), 33_000, List.of(
                    new Role("nm0000206", "Keanu Reeves", 1964, "Neo"),
                    new Role("nm0000401", "Laurence Fishburne", 1961, "Morpheus"),
                    new Role("nm0005251", "Carrie-Anne Moss", 1967, "Trinity"),
                    new Role("nm0915989", "Hugo Weaving", 1960, "Agent Smith"))));

    private static final List<String> GENRES = List.of("Action", "Adventure", "Animation", "Comedy", "Crime",
            "Documentary", "Drama", "Family", "Fantasy", "Horror", "Mystery", "Romance", "Sci-Fi", "Thriller", "War");
    private static final List<String> ADJECTIVES = List.of("Silent", "Midnight", "Glass", "Crimson", "Hollow",
            "Broken", "Golden", "Frozen", "Burning", "Hidden", "Forgotten", "Electric", "Iron", "Velvet", "Scarlet",
            "Distant", "Shattered", "Wild", "Quiet", "Final", "Lost", "Savage", "Endless", "Paper", "Neon", "Black",
            "Silver", "Secret", "Wicked", "Restless", "Northern", "Bitter");
    private static final List<String> NOUNS = List.of("Harbor", "Protocol", "Kingdom", "Horizon", "Empire",
            "Witness", "Garden", "Frontier", "River", "Signal", "Promise", "Circus", "Orchard", "Lantern", "Station",
            "Covenant", "Tide", "Mirror", "Dominion", "Cartel", "Symphony", "Voyage", "Summer", "Winter", "Hunter",
            "Heist", "Orbit", "Ledger", "Sanctuary", "Verdict", "Crossing", "Inheritance", "Carnival", "Outpost",
            "Paradise", "Prophecy", "Reckoning", "Shadow", "Echo", "Storm");
    private static final List<String> PLACES = List.of("Vienna", "Marseille", "Tangier", "Santa Fe", "Red Hollow",
            "Blackwater", "Eden Falls", "Lisbon", "Kowloon", "Port Arthur", "Mercy Creek", "Havana", "the North",
            "the Deep", "Saint-Clair", "Dust Bowl");
    private static final List<String> SEQUELS = List.of(" II", " III", ": Part Two", ": Reloaded");
    private static final List<String> FIRST_NAMES = List.of("James", "Mary", "John", "Patricia", "Robert",
            "Jennifer", "Michael", "Linda", "David", "Elizabeth", "William", "Susan", "Richard", "Jessica", "Joseph",
            "Sarah", "Thomas", "Karen", "Charles", "Nancy", "Daniel", "Lisa", "Matthew", "Margaret", "Anthony",
            "Sandra", "Mark", "Ashley", "Paul", "Emily", "Steven", "Michelle", "Andrew", "Amanda", "Kenneth",
            "Melissa", "Joshua", "Rebecca", "Kevin", "Laura", "Brian", "Helen", "George", "Anna", "Edward", "Ruth",
            "Ryan", "Julia", "Jacob", "Grace", "Nicholas", "Olivia", "Samuel", "Chloe", "Benjamin", "Isabel",
            "Elias", "Mara", "Jonah", "Iris", "Felix", "Nora", "Oscar", "Vera", "Hugo", "Clara", "Victor", "Lena",
            "Marcus", "Sofia", "Adrian", "Maya", "Tobias", "Ingrid", "Rafael", "Yuki", "Omar", "Priya", "Dmitri",
            "Amara");
    private static final List<String> LAST_NAMES = List.of("Smith", "Johnson", "Williams", "Brown", "Jones",
            "Garcia", "Miller", "Davis", "Rodriguez", "Martinez", "Hernandez", "Lopez", "Wilson", "Anderson",
            "Taylor", "Moore", "Jackson", "Martin", "Lee", "Thompson", "White", "Harris", "Clark", "Lewis",
            "Walker", "Hall", "Allen", "Young", "King", "Wright", "Scott", "Green", "Baker", "Adams", "Nelson",
            "Hill", "Campbell", "Mitchell", "Carter", "Roberts", "Quinn", "Crane", "Vance", "Hale", "Mercer",
            "Sloane", "Whitaker", "Ashford", "Delgado", "Novak", "Okafor", "Lindqvist", "Moreau", "Costa",
            "Brennan", "Castellano", "Fischer", "Kowalski", "Tanaka", "Nakamura", "Petrov", "Haddad", "Sato",
            "Oyelaran", "Reyes", "Holt", "Fairbanks", "Whitlock", "Donovan", "Abernathy", "Kessler", "Calloway",
            "Romano", "Sinclair", "Blackwood", "Everett", "Lowe", "Marsh", "Rourke", "Thorne");
    private static final List<String> RANKS = List.of("Detective", "Captain", "Dr.", "Agent", "Sergeant",
            "Professor", "Sister", "Father", "Mayor", "Officer", "Judge", "Lieutenant");
    private static final List<String> BIT_PARTS = List.of("Bartender", "Nurse", "Taxi Driver", "Reporter",
            "Security Guard", "Waitress", "Old Man", "Girl on Train", "Receptionist", "Pilot", "Priest",
            "Shopkeeper", "Man in Elevator", "Dock Worker", "News Anchor", "Hotel Clerk");

    private final List<Movie> movies;
    private final List<Actor> actors;
    private final List<CastMember> cast;
    private final List<MonthlyStreams> totals;

    private SampleCatalog(List<Movie> movies, List<Actor> actors, List<CastMember> cast,
                          List<MonthlyStreams> totals) {
        this.movies = List.copyOf(movies);
        this.actors = List.copyOf(actors);
        this.cast = List.copyOf(cast);
        this.totals = List.copyOf(totals);
    }

    public static SampleCatalog generate(long seed) {
        return new Generator(new Random(seed)).run();
    }

    public List<Movie> movies() {
        return movies;
    }

    public List<Actor> actors() {
        return actors;
    }

    public List<CastMember> cast() {
        return cast;
    }

    public List<MonthlyStreams> totals() {
        return totals;
    }

    public List<YearMonth> months() {
        List<YearMonth> months = new ArrayList<>(MONTH_COUNT);
        for (int i = 0; i < MONTH_COUNT; i++) {
            months.add(FIRST_MONTH.plusMonths(i));
        }
        return List.copyOf(months);
    }

    private record Role(String actorId, String name, int birthYear, String character) {
    }

    /** A real movie; {@code streams} is its typical monthly total, it streams every month. */
    private record Anchor(Movie movie, long streams, List<Role> roles) {
    }

    /**
     * Holds the draw state of one generation. The hash sets only answer "already used?" and are never
     * iterated, so nothing in the output depends on hash order.
     */
    private static final class Generator {
        private final Random random;
        private final Set<String> usedIds = new HashSet<>();
        private final Set<String> usedTitles = new HashSet<>();
        private final Set<String> usedNames = new HashSet<>();
        private final List<Movie> movies = new ArrayList<>();
        private final List<Actor> actors = new ArrayList<>();
        private final List<CastMember> cast = new ArrayList<>();
        /** Typical monthly streams per movie, parallel to {@link #movies}. */
        private final List<Long> popularity = new ArrayList<>();

        Generator(Random random) {
            this.random = random;
        }

        SampleCatalog run() {
            addAnchors();
            Actor freeman = actors.stream().filter(a -> a.id().equals(FREEMAN)).findFirst().orElseThrow();
            List<Actor> pool = new ArrayList<>();
            while (actors.size() < ACTOR_COUNT) {
                Actor actor = newActor();
                actors.add(actor);
                pool.add(actor);
            }
            // Shuffled so that fame does not follow creation order. The Zipf weights give a few actors long
            // filmographies (material for paging) and most one or two movies; about a fifth get none.
            Collections.shuffle(pool, random);
            double[] fame = zipfCumulative(pool.size());
            int firstGenerated = movies.size();
            while (movies.size() < MOVIE_COUNT) {
                Movie movie = newMovie();
                movies.add(movie);
                popularity.add(drawPopularity(movie));
            }
            Set<Integer> freemanMovies = pickGuestMovies(firstGenerated, freeman.birthYear());
            for (int i = firstGenerated; i < movies.size(); i++) {
                castMovie(movies.get(i), pool, fame, freemanMovies.contains(i) ? freeman : null);
            }
            return new SampleCatalog(movies, actors, cast, streams());
        }

        private void addAnchors() {
            for (Anchor anchor : ANCHORS) {
                Movie movie = anchor.movie();
                movies.add(movie);
                popularity.add(anchor.streams());
                usedIds.add(movie.id().value());
                usedTitles.add(movie.title());
                int billing = 1;
                for (Role role : anchor.roles()) {
                    Actor actor = new Actor(ActorId.of(role.actorId()), role.name(), role.birthYear());
                    actors.add(actor);
                    usedIds.add(role.actorId());
                    usedNames.add(role.name());
                    cast.add(member(movie, actor, List.of(role.character()), billing++));
                }
            }
        }

        private Actor newActor() {
            String name = mostlyUnique(usedNames, () -> pick(FIRST_NAMES) + " " + pick(LAST_NAMES));
            return new Actor(ActorId.of(newId("nm")), name, 1930 + random.nextInt(76));
        }

        private Movie newMovie() {
            // Skewed towards recent years, as real catalogs are.
            int year = 2024 - (int) Math.floor(65 * Math.pow(random.nextDouble(), 1.6));
            LocalDate release = LocalDate.ofYearDay(year, 1 + random.nextInt(Year.of(year).length()));
            Integer runtime = random.nextInt(50) == 0 ? null
                    : (int) Math.max(78, Math.min(195, Math.round(108 + 20 * random.nextGaussian())));
            return new Movie(MovieId.of(newId("tt")), mostlyUnique(usedTitles, this::title), year, release, genres(),
                    runtime);
        }

        private String newId(String prefix) {
            String id;
            do {
                id = prefix + String.format(Locale.ROOT, "%07d", 1 + random.nextInt(9_999_999));
            } while (!usedIds.add(id));
            return id;
        }

        /** Re-draws a few times to avoid a repeat, then accepts one: titles and names need not be unique. */
        private String mostlyUnique(Set<String> used, Supplier<String> draw) {
            String value = draw.get();
            for (int tries = 0; tries < 20 && used.contains(value); tries++) {
                value = draw.get();
            }
            used.add(value);
            return value;
        }

        private String title() {
            String adjective = pick(ADJECTIVES);
            String noun = pick(NOUNS);
            String title = switch (random.nextInt(10)) {
                case 0, 1, 2 -> "The " + adjective + " " + noun;
                case 3, 4 -> adjective + " " + noun;
                case 5 -> "Return of the " + adjective + " " + noun;
                case 6 -> "The " + noun + " of " + pick(PLACES);
                case 7 -> "The Last " + noun;
                case 8 -> noun + " at " + pick(PLACES);
                default -> "Beyond the " + adjective + " " + noun;
            };
            return random.nextInt(25) == 0 ? title + pick(SEQUELS) : title;
        }

        private List<String> genres() {
            int count = 1 + random.nextInt(3);
            List<String> shuffled = new ArrayList<>(GENRES);
            Collections.shuffle(shuffled, random);
            List<String> chosen = new ArrayList<>(shuffled.subList(0, count));
            chosen.sort((a, b) -> GENRES.indexOf(a) - GENRES.indexOf(b));
            return chosen;
        }

        /** Morgan Freeman also plays in one or two generated movies made when he was of working age. */
        private Set<Integer> pickGuestMovies(int firstGenerated, int birthYear) {
            List<Integer> eligible = new ArrayList<>();
            for (int i = firstGenerated; i < movies.size(); i++) {
                int year = movies.get(i).year();
                if (year >= birthYear + 30 && year <= birthYear + 85) {
                    eligible.add(i);
                }
            }
            Collections.shuffle(eligible, random);
            return new HashSet<>(eligible.subList(0, Math.min(eligible.size(), 1 + random.nextInt(2))));
        }

        private void castMovie(Movie movie, List<Actor> pool, double[] fame, Actor guest) {
            int size = 6 + random.nextInt(11);
            List<Actor> chosen = new ArrayList<>(size);
            while (chosen.size() < (guest == null ? size : size - 1)) {
                Actor actor = pool.get(zipfIndex(fame));
                if (!chosen.contains(actor) && canPlayIn(actor, movie.year())) {
                    chosen.add(actor);
                }
            }
            if (guest != null) {
                chosen.add(1, guest);
            }
            int uncredited = 0;
            for (int i = 1; i < size; i++) {
                uncredited += random.nextInt(20) == 0 ? 1 : 0;
            }
            int credited = size - uncredited;
            for (int i = 0; i < size; i++) {
                boolean billed = i < credited;
                List<String> characters = billed ? characters() : List.of(pick(BIT_PARTS));
                cast.add(member(movie, chosen.get(i), characters, billed ? i + 1 : null));
            }
        }

        /** Keeps toddlers and centenarians off the cast lists. */
        private static boolean canPlayIn(Actor actor, int movieYear) {
            int age = movieYear - actor.birthYear();
            return age >= 6 && age <= 85;
        }

        private List<String> characters() {
            String first = pick(FIRST_NAMES);
            String full = first + " " + pick(LAST_NAMES);
            if (random.nextInt(16) == 0) {
                return List.of(full, "Young " + first);
            }
            return List.of(switch (random.nextInt(10)) {
                case 0, 1, 2, 3 -> full;
                case 4, 5 -> pick(RANKS) + " " + full;
                case 6 -> pick(RANKS) + " " + full.substring(first.length() + 1);
                case 7 -> "Young " + first;
                case 8 -> first;
                default -> pick(BIT_PARTS);
            });
        }

        /**
         * Pareto-distributed, so most movies draw hundreds to a few thousand streams a month and a handful
         * draw hundreds of thousands.
         */
        private long drawPopularity(Movie movie) {
            double base = 150 * Math.pow(1 - random.nextDouble(), -1 / 0.85);
            double recency = movie.year() >= 2022 ? 2.5 : 1;
            return Math.round(Math.min(400_000, base * recency));
        }

        private List<MonthlyStreams> streams() {
            int anchors = ANCHORS.size();
            long[][] byMovie = new long[movies.size()][MONTH_COUNT];
            List<Set<Long>> taken = new ArrayList<>();
            for (int m = 0; m < MONTH_COUNT; m++) {
                taken.add(new HashSet<>());
            }
            // The leader of the peak month is set last, once every rival's total there is known.
            for (int i = 1; i < movies.size(); i++) {
                fillMonths(i, i < anchors, byMovie[i], taken);
            }
            fillMonths(0, true, byMovie[0], taken);
            int peak = (int) FIRST_MONTH.until(SHAWSHANK_PEAK, ChronoUnit.MONTHS);
            long rival = 0;
            for (int i = 1; i < movies.size(); i++) {
                rival = Math.max(rival, byMovie[i][peak]);
            }
            taken.get(peak).remove(byMovie[0][peak]);
            byMovie[0][peak] = distinct(Math.max(byMovie[0][peak], rival * 5 / 4 + 5_000), taken.get(peak));

            List<MonthlyStreams> totals = new ArrayList<>();
            for (int i = 0; i < movies.size(); i++) {
                Movie movie = movies.get(i);
                for (int m = 0; m < MONTH_COUNT; m++) {
                    if (byMovie[i][m] > 0) {
                        totals.add(new MonthlyStreams(movie.id(), movie.title(), FIRST_MONTH.plusMonths(m),
                                byMovie[i][m]));
                    }
                }
            }
            return totals;
        }

        /** Fills one movie's months; 0 means no total that month. */
        private void fillMonths(int index, boolean always, long[] months, List<Set<Long>> taken) {
            Movie movie = movies.get(index);
            long typical = popularity.get(index);
            YearMonth released = YearMonth.from(movie.releaseDate());
            // Well-known movies stream in more months than obscure ones.
            double activity = always ? 1 : Math.min(0.95, 0.32 + 0.09 * Math.log(typical / 100.0 + 1));
            for (int m = 0; m < MONTH_COUNT; m++) {
                YearMonth month = FIRST_MONTH.plusMonths(m);
                if (month.isBefore(released) || random.nextDouble() >= activity) {
                    continue;
                }
                double value = typical * season(month) * launchBoost(released, month)
                        * Math.exp(0.35 * random.nextGaussian());
                months[m] = distinct(Math.max(1, Math.round(value)), taken.get(m));
            }
        }

        /** Winter holidays stream more than summer. */
        private static double season(YearMonth month) {
            return 1 + 0.15 * Math.cos(2 * Math.PI * (month.getMonthValue() - 1) / 12.0);
        }

        private static double launchBoost(YearMonth released, YearMonth month) {
            long since = released.until(month, ChronoUnit.MONTHS);
            return since == 0 ? 4 : since == 1 ? 2.5 : since == 2 ? 1.6 : 1;
        }

        /** Nudges a total up until no other movie has it that month, so top-N order is unambiguous. */
        private static long distinct(long value, Set<Long> taken) {
            while (!taken.add(value)) {
                value++;
            }
            return value;
        }

        private static double[] zipfCumulative(int size) {
            double[] cumulative = new double[size];
            double sum = 0;
            for (int k = 0; k < size; k++) {
                sum += Math.pow(k + 10, -0.8);
                cumulative[k] = sum;
            }
            return cumulative;
        }

        private int zipfIndex(double[] cumulative) {
            double target = random.nextDouble() * cumulative[cumulative.length - 1];
            int found = Arrays.binarySearch(cumulative, target);
            return Math.min(cumulative.length - 1, found >= 0 ? found : -found - 1);
        }

        private String pick(List<String> values) {
            return values.get(random.nextInt(values.size()));
        }

        private static CastMember member(Movie movie, Actor actor, List<String> characters, Integer billing) {
            return new CastMember(movie.id(), actor.id(), movie.title(), movie.year(), actor.name(), characters,
                    billing);
        }
    }
}
