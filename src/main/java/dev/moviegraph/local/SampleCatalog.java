package dev.moviegraph.local;

import dev.moviegraph.catalog.Award;
import dev.moviegraph.catalog.Credit;
import dev.moviegraph.catalog.MonthlyStreams;
import dev.moviegraph.catalog.Movie;
import dev.moviegraph.catalog.MovieId;
import dev.moviegraph.catalog.MovieTitle;
import dev.moviegraph.catalog.Person;
import dev.moviegraph.catalog.PersonId;
import dev.moviegraph.catalog.Role;

import java.time.LocalDate;
import java.time.Year;
import java.time.YearMonth;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
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
    private static final PersonId FREEMAN = PersonId.of("nm0000151");
    /** The month in which tt0111161 leads the chart, so top-N examples have a known answer. */
    private static final YearMonth SHAWSHANK_PEAK = YearMonth.of(2024, 5);

    /** IMDb's vote counts and ratings of the anchor films, as published in 2024. */
    private static final Map<String, Integer> REAL_VOTES = Map.of(
            "tt0111161", 2_900_000, "tt0068646", 2_000_000, "tt0133093", 2_100_000);
    private static final Map<String, Double> REAL_RATINGS = Map.of(
            "tt0111161", 9.3, "tt0068646", 9.2, "tt0133093", 8.7);

    private static final String OSCAR = "Academy Award";
    private static final List<Award> AWARDS = List.of(
            oscar("Best Picture", 1995, false, null, "tt0111161"),
            oscar("Best Actor", 1995, false, "nm0000151", "tt0111161"),
            oscar("Best Adapted Screenplay", 1995, false, "nm0001104", "tt0111161"),
            oscar("Best Cinematography", 1995, false, null, "tt0111161"),
            oscar("Best Original Score", 1995, false, null, "tt0111161"),
            oscar("Best Picture", 1973, true, null, "tt0068646"),
            oscar("Best Actor", 1973, true, "nm0000008", "tt0068646"),
            oscar("Best Adapted Screenplay", 1973, true, "nm0701374", "tt0068646"),
            oscar("Best Adapted Screenplay", 1973, true, "nm0000338", "tt0068646"),
            oscar("Best Supporting Actor", 1973, false, "nm0000199", "tt0068646"),
            oscar("Best Supporting Actor", 1973, false, "nm0001001", "tt0068646"),
            oscar("Best Director", 1973, false, "nm0000338", "tt0068646"),
            oscar("Best Film Editing", 2000, true, null, "tt0133093"),
            oscar("Best Sound", 2000, true, null, "tt0133093"),
            oscar("Best Sound Effects Editing", 2000, true, null, "tt0133093"),
            oscar("Best Visual Effects", 2000, true, null, "tt0133093"),
            oscar("Best Supporting Actor", 2005, true, "nm0000151", null),
            oscar("Best Actor", 1993, true, "nm0000199", null),
            oscar("Best Actor", 1955, true, "nm0000008", null),
            oscar("Best Director", 1975, true, "nm0000338", null),
            oscar("Best Supporting Actor", 2004, true, "nm0000209", null));

    private static Award oscar(String category, int year, boolean won, String personId, String movieId) {
        return new Award(OSCAR, category, year, won, personId == null ? null : PersonId.of(personId),
                movieId == null ? null : MovieId.of(movieId));
    }

    private static final List<Anchor> ANCHORS = List.of(
            new Anchor(new Movie(SHAWSHANK, "The Shawshank Redemption", 1994, LocalDate.of(1994, 9, 23),
                    List.of("Drama"), 142), 42_000, List.of(
                    new Part("nm0000209", "Tim Robbins", 1958, null, "Andy Dufresne"),
                    new Part("nm0000151", "Morgan Freeman", 1937, null, "Ellis Boyd 'Red' Redding"),
                    new Part("nm0348409", "Bob Gunton", 1945, null, "Warden Norton"),
                    new Part("nm0006669", "William Sadler", 1950, null, "Heywood")),
                    List.of(new Part("nm0001104", "Frank Darabont", 1959, null, null)),
                    List.of(new Part("nm0000175", "Stephen King", 1947, null, null),
                            new Part("nm0001104", "Frank Darabont", 1959, null, null))),
            new Anchor(new Movie(MovieId.of("tt0068646"), "The Godfather", 1972, LocalDate.of(1972, 3, 24),
                    List.of("Crime", "Drama"), 175), 27_000, List.of(
                    new Part("nm0000008", "Marlon Brando", 1924, 2004, "Don Vito Corleone"),
                    new Part("nm0000199", "Al Pacino", 1940, null, "Michael Corleone"),
                    new Part("nm0001001", "James Caan", 1940, 2022, "Sonny Corleone")),
                    List.of(new Part("nm0000338", "Francis Ford Coppola", 1939, null, null)),
                    List.of(new Part("nm0701374", "Mario Puzo", 1920, 1999, null),
                            new Part("nm0000338", "Francis Ford Coppola", 1939, null, null))),
            new Anchor(new Movie(MovieId.of("tt0133093"), "The Matrix", 1999, LocalDate.of(1999, 3, 31),
                    List.of("Action", "Sci-Fi"), 136), 33_000, List.of(
                    new Part("nm0000206", "Keanu Reeves", 1964, null, "Neo"),
                    new Part("nm0000401", "Laurence Fishburne", 1961, null, "Morpheus"),
                    new Part("nm0005251", "Carrie-Anne Moss", 1967, null, "Trinity"),
                    new Part("nm0915989", "Hugo Weaving", 1960, null, "Agent Smith")),
                    List.of(new Part("nm0905154", "Lana Wachowski", 1965, null, null),
                            new Part("nm0905152", "Lilly Wachowski", 1967, null, null)),
                    List.of(new Part("nm0905154", "Lana Wachowski", 1965, null, null),
                            new Part("nm0905152", "Lilly Wachowski", 1967, null, null))));

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
    private final List<Person> people;
    private final List<Credit> credits;
    private final List<MonthlyStreams> totals;

    private SampleCatalog(List<Movie> movies, List<Person> people, List<Credit> credits,
                          List<MonthlyStreams> totals) {
        this.movies = List.copyOf(movies);
        this.people = List.copyOf(people);
        this.credits = List.copyOf(credits);
        this.totals = List.copyOf(totals);
    }

    public static SampleCatalog generate(long seed) {
        return new Generator(new Random(seed)).run();
    }

    public List<Movie> movies() {
        return movies;
    }

    /** Everyone credited: actors, directors and writers (some are several). */
    public List<Person> people() {
        return people;
    }

    /** Every credit: the cast, then the crew (directors and writers). */
    public List<Credit> credits() {
        return credits;
    }

    public List<Credit> cast() {
        return credits.stream().filter(credit -> credit.role() == Role.CAST).toList();
    }

    public List<MonthlyStreams> totals() {
        return totals;
    }

    /**
     * Real Academy Award nominations and wins (by ceremony year) of the anchor films and their people,
     * including wins of the people for films the sample does not have (no movie).
     */
    public List<Award> awards() {
        return AWARDS;
    }

    /** The records beside movies, people, credits and totals: the awards, and the anchor films' other titles. */
    public List<Record> others() {
        List<Record> others = new ArrayList<>(AWARDS);
        others.addAll(titles());
        return others;
    }

    /**
     * Titles the anchor films are known by elsewhere (from IMDb's title.akas), the original among them, so
     * that examples and tests can find "Die Verurteilten".
     */
    public List<MovieTitle.OfMovie> titles() {
        Map<String, List<String[]>> known = new java.util.LinkedHashMap<>();
        // title, region, language, type ("original" marks the original title)
        known.put(SHAWSHANK.value(), List.of(new String[] {"The Shawshank Redemption", null, null, "original"},
                new String[] {"Die Verurteilten", "DE", null, "imdbDisplay"},
                new String[] {"Les évadés", "FR", null, "imdbDisplay"},
                new String[] {"Cadena perpetua", "ES", null, "imdbDisplay"},
                new String[] {"Le ali della libertà", "IT", null, "imdbDisplay"},
                new String[] {"Um Sonho de Liberdade", "BR", null, "imdbDisplay"},
                new String[] {"Sueño de fuga", "AR", null, "imdbDisplay"}));
        known.put("tt0068646", List.of(new String[] {"The Godfather", null, null, "original"},
                new String[] {"Der Pate", "DE", null, "imdbDisplay"},
                new String[] {"Le Parrain", "FR", null, "imdbDisplay"},
                new String[] {"Il padrino", "IT", null, "imdbDisplay"},
                new String[] {"El padrino", "ES", null, "imdbDisplay"}));
        known.put("tt0133093", List.of(new String[] {"The Matrix", null, null, "original"},
                new String[] {"Matrix", "DE", null, "imdbDisplay"},
                new String[] {"Matrix", "FR", null, "imdbDisplay"},
                new String[] {"Матрица", "RU", "ru", "imdbDisplay"}));
        List<MovieTitle.OfMovie> titles = new ArrayList<>();
        for (Movie movie : movies) {
            List<String[]> rows = known.get(movie.id().value());
            if (rows == null) {
                continue;
            }
            List<MovieTitle> ofMovie = new ArrayList<>();
            for (int i = 0; i < rows.size(); i++) {
                String[] row = rows.get(i);
                ofMovie.add(new MovieTitle(movie.id(), i + 1, row[0], row[1], row[2], List.of(row[3]), List.of(),
                        row[3].equals("original")));
            }
            titles.add(new MovieTitle.OfMovie(movie.id(), movie.title(), movie.year(), movie.numVotes(), ofMovie));
        }
        return titles;
    }

    public List<YearMonth> months() {
        List<YearMonth> months = new ArrayList<>(MONTH_COUNT);
        for (int i = 0; i < MONTH_COUNT; i++) {
            months.add(FIRST_MONTH.plusMonths(i));
        }
        return List.copyOf(months);
    }

    /** A real person in a real movie: the character they play, or null for the crew. */
    private record Part(String personId, String name, int birthYear, Integer deathYear, String character) {
        Person person() {
            return new Person(PersonId.of(personId), name, birthYear, deathYear);
        }
    }

    /** A real movie; {@code streams} is its typical monthly total, it streams every month. */
    private record Anchor(Movie movie, long streams, List<Part> roles, List<Part> directors, List<Part> writers) {
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
        private final List<Person> actors = new ArrayList<>();
        private final List<Credit> cast = new ArrayList<>();
        private final List<Credit> crew = new ArrayList<>();
        /** How many of {@link #actors} are anchor crew who play in no movie. */
        private int crewOnly;
        /** Typical monthly streams per movie, parallel to {@link #movies}. */
        private final List<Long> popularity = new ArrayList<>();

        Generator(Random random) {
            this.random = random;
        }

        /**
         * The movies with IMDb-like ratings: the anchors their real vote counts, the others votes that
         * follow their stream popularity (so search ranks the sample as users of it would expect). Drawn from
         * no random: every other part of the sample stays as it was.
         */
        private List<Movie> rated(List<Movie> drawn) {
            List<Movie> rated = new ArrayList<>(drawn.size());
            for (int i = 0; i < drawn.size(); i++) {
                Movie movie = drawn.get(i);
                Integer real = REAL_VOTES.get(movie.id().value());
                int votes = real != null ? real : (int) Math.min(1_500_000, 4 * popularity.get(i) + 7 * (i % 97));
                double rating = real != null ? REAL_RATINGS.get(movie.id().value())
                        : 5.0 + (Math.floorMod(movie.id().value().hashCode(), 40)) / 10.0;
                rated.add(new Movie(movie.id(), movie.title(), movie.year(), movie.releaseDate(), movie.genres(),
                        movie.runtimeMinutes(), rating, votes));
            }
            return rated;
        }

        SampleCatalog run() {
            addAnchors();
            Person freeman = actors.stream().filter(a -> a.id().equals(FREEMAN)).findFirst().orElseThrow();
            List<Person> pool = new ArrayList<>();
            // The anchors' directors and writers who do not act come on top: the actors stay as they were.
            while (actors.size() - crewOnly < ACTOR_COUNT) {
                Person actor = newActor();
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
            List<MonthlyStreams> totals = streams();
            // The crew is drawn from a random of its own, after everything else: adding it changed no
            // movie, person, cast member or total of the sample.
            new CrewDraw(new Random(random.nextLong())).draw(firstGenerated, pool);
            List<Credit> credits = new ArrayList<>(cast);
            credits.addAll(crew);
            return new SampleCatalog(rated(movies), actors, credits, totals);
        }

        /** Directors and writers of the generated movies, from the same people as the cast. */
        private final class CrewDraw {
            private final Random draw;

            CrewDraw(Random draw) {
                this.draw = draw;
            }

            void draw(int firstGenerated, List<Person> pool) {
                for (int i = firstGenerated; i < movies.size(); i++) {
                    Movie movie = movies.get(i);
                    List<Person> directors = new ArrayList<>();
                    // About one movie in twelve is directed by one of its own actors.
                    List<Credit> ownCast = cast.stream().filter(c -> c.movieId().equals(movie.id())).toList();
                    if (draw.nextInt(12) == 0) {
                        Credit star = ownCast.get(draw.nextInt(Math.min(3, ownCast.size())));
                        directors.add(actors.stream().filter(p -> p.id().equals(star.personId())).findFirst().orElseThrow());
                    }
                    int directorCount = draw.nextInt(10) == 0 ? 2 : 1;
                    while (directors.size() < directorCount) {
                        Person person = crewMember(pool, movie, directors);
                        directors.add(person);
                    }
                    List<Person> writers = new ArrayList<>();
                    if (draw.nextInt(5) < 2) {
                        writers.add(directors.get(0));
                    }
                    int writerCount = 1 + draw.nextInt(2);
                    while (writers.size() < writerCount) {
                        writers.add(crewMember(pool, movie, writers));
                    }
                    addCrew(movie, directors, Role.DIRECTOR);
                    addCrew(movie, writers, Role.WRITER);
                }
            }

            /** A person old enough to make the movie, not already in {@code taken}. */
            private Person crewMember(List<Person> pool, Movie movie, List<Person> taken) {
                while (true) {
                    Person person = pool.get(draw.nextInt(pool.size()));
                    int age = movie.year() - person.birthYear();
                    if (age >= 25 && age <= 85 && !taken.contains(person)) {
                        return person;
                    }
                }
            }
        }

        private void addCrew(Movie movie, List<Person> people, Role role) {
            for (int i = 0; i < people.size(); i++) {
                crew.add(new Credit(movie.id(), people.get(i).id(), role, movie.title(), movie.year(), people.get(i).name(),
                        List.of(), i + 1));
            }
        }

        private void addAnchors() {
            for (Anchor anchor : ANCHORS) {
                Movie movie = anchor.movie();
                movies.add(movie);
                popularity.add(anchor.streams());
                usedIds.add(movie.id().value());
                usedTitles.add(movie.title());
                int billing = 1;
                for (Part role : anchor.roles()) {
                    Person actor = role.person();
                    actors.add(actor);
                    usedIds.add(role.personId());
                    usedNames.add(role.name());
                    cast.add(member(movie, actor, List.of(role.character()), billing++));
                }
                for (List<Part> parts : List.of(anchor.directors(), anchor.writers())) {
                    for (Part part : parts) {
                        if (usedIds.add(part.personId())) {
                            actors.add(part.person());
                            usedNames.add(part.name());
                            crewOnly++;
                        }
                    }
                }
                addCrew(movie, anchor.directors().stream().map(Part::person).toList(), Role.DIRECTOR);
                addCrew(movie, anchor.writers().stream().map(Part::person).toList(), Role.WRITER);
            }
        }

        private Person newActor() {
            String name = mostlyUnique(usedNames, () -> pick(FIRST_NAMES) + " " + pick(LAST_NAMES));
            return new Person(PersonId.of(newId("nm")), name, 1930 + random.nextInt(76), null);
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

        private void castMovie(Movie movie, List<Person> pool, double[] fame, Person guest) {
            int size = 6 + random.nextInt(11);
            List<Person> chosen = new ArrayList<>(size);
            while (chosen.size() < (guest == null ? size : size - 1)) {
                Person actor = pool.get(zipfIndex(fame));
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
        private static boolean canPlayIn(Person actor, int movieYear) {
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

        private static Credit member(Movie movie, Person actor, List<String> characters, Integer billing) {
            return new Credit(movie.id(), actor.id(), Role.CAST, movie.title(), movie.year(), actor.name(), characters,
                    billing);
        }
    }
}
