package dev.moviegraph.dynamo.model;

import dev.moviegraph.catalog.Award;
import dev.moviegraph.catalog.Credit;
import dev.moviegraph.catalog.KnownFor;
import dev.moviegraph.catalog.Movie;
import dev.moviegraph.catalog.MovieId;
import dev.moviegraph.catalog.MovieList;
import dev.moviegraph.catalog.MovieTitle;
import dev.moviegraph.catalog.Person;
import dev.moviegraph.catalog.RankedPerson;
import dev.moviegraph.catalog.SearchHit;
import dev.moviegraph.catalog.SearchKind;
import dev.moviegraph.catalog.SearchText;
import dev.moviegraph.dynamo.model.TableModel.ListEntry;
import dev.moviegraph.dynamo.model.TableModel.SearchEntry;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The entries that make a movie or a person findable, derived from the item alone (and, for a person,
 * their best-known title): a search entry per indexed prefix of the title or name
 * ({@link SearchText#prefixes}), ranked by {@link #rank}; and for a movie, a list entry per
 * {@link MovieList} it belongs to. Writers put these beside the item and delete those the item no
 * longer has.
 */
public final class SearchEntries {
    private static final long MAX_VOTES = 9_999_999_999L;

    private SearchEntries() {
    }

    /**
     * The rank key, which sorts best first: popularity band (each band a factor of two in votes, more
     * first), then the folded name's length (shorter first: within a band an exact match, the shortest
     * name that has the words, ranks above a longer one), then votes (more first), then the id, so ties
     * have one order.
     */
    static String rank(String name, long votes, String id) {
        long clamped = Math.max(0, Math.min(votes, MAX_VOTES));
        int band = clamped == 0 ? 0 : 64 - Long.numberOfLeadingZeros(clamped);
        int length = Math.min(999, SearchText.fold(name).length());
        return String.format("%02d%03d%010d#%s", 99 - band, length, MAX_VOTES - clamped, id);
    }

    /**
     * The items a record becomes, written together: a movie or a person with its search entries (and a
     * movie with its list entries), a credit, an award. Imports and loaders write these; the writer's
     * mutations derive the same entries.
     */
    public static List<Map<String, AttributeValue>> itemsOf(Record record) {
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        if (record instanceof Movie movie) {
            items.add(TableModel.MOVIE.encode(movie));
            items.addAll(of(movie));
        } else if (record instanceof RankedPerson ranked) {
            items.add(TableModel.PERSON.encode(ranked.person()));
            items.addAll(of(ranked.person(), ranked.knownFor()));
        } else if (record instanceof Person person) {
            items.add(TableModel.PERSON.encode(person));
            items.addAll(of(person, null));
        } else if (record instanceof Credit credit) {
            items.add(TableModel.credits(credit.role()).encode(credit));
        } else if (record instanceof Award award) {
            items.add(TableModel.awards(award).encode(award));
        } else if (record instanceof MovieTitle.OfMovie titles) {
            titles.titles().forEach(title -> items.add(TableModel.MOVIE_TITLE.encode(title)));
            items.addAll(of(titles));
        } else {
            throw new IllegalArgumentException("An import writes movies, people, credits, awards and titles, not "
                    + record.getClass().getSimpleName());
        }
        return items;
    }

    /** A movie's search entries and list entries. */
    public static List<Map<String, AttributeValue>> of(Movie movie) {
        String words = SearchText.wordList(movie.title());
        long votes = movie.numVotes() == null ? 0 : movie.numVotes();
        String rank = rank(movie.title(), votes, movie.id().value());
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        for (String prefix : SearchText.prefixes(movie.title())) {
            items.add(TableModel.MOVIE_WORD.encode(new SearchEntry(movie.id().value(), prefix, movie.title(),
                    movie.year(), words, rank, null, null, null, null)));
        }
        String popular = String.format("%010d#%s", MAX_VOTES - Math.min(votes, MAX_VOTES), movie.id().value());
        for (MovieList list : lists(movie)) {
            String order = list.topRated()
                    ? String.format("%03d", 100 - Math.round(movie.averageRating() * 10)) + popular : popular;
            items.add(TableModel.MOVIE_LIST.encode(new ListEntry(movie.id().value(), list.name(), movie.title(),
                    movie.year(), order, movie.averageRating(), movie.numVotes(), true)));
        }
        return items;
    }

    /**
     * The search entries of a movie's other titles: one per prefix of their words that the movie's own title
     * lacks (those find it already), showing the first title that has it (the original, then in IMDb's
     * order) and ranked as it; its word list holds the words of every title that has the prefix, so a
     * search of several words finds the movie by any one of those titles.
     */
    public static List<Map<String, AttributeValue>> of(MovieTitle.OfMovie titles) {
        Set<String> own = SearchText.prefixes(titles.movieTitle());
        long votes = titles.numVotes() == null ? 0 : titles.numVotes();
        String id = titles.movieId().value();
        Map<String, SearchEntry> entries = new LinkedHashMap<>();
        titles.titles().stream()
                .sorted(Comparator.comparing((MovieTitle title) -> !title.original()).thenComparing(MovieTitle::ordering))
                .forEach(title -> {
                    String words = SearchText.wordList(title.title());
                    for (String prefix : SearchText.prefixes(title.title())) {
                        if (own.contains(prefix)) {
                            continue;
                        }
                        SearchEntry first = entries.get(prefix);
                        entries.put(prefix, first == null
                                ? new SearchEntry(id, prefix, title.title(), titles.year(), words,
                                        rank(title.title(), votes, id), null, null, null, null)
                                : first.words().contains(words) ? first
                                : new SearchEntry(id, prefix, first.name(), first.year(), first.words() + words, first.rank(),
                                        null, null, null, null));
                    }
                });
        return entries.values().stream().map(TableModel.TITLE_WORD::encode).toList();
    }

    /**
     * The lists a movie is in: each of its genres, its year, each genre with its year; and when it has
     * {@link MovieList#TOP_RATED_VOTES} votes or more, the top rated of all genres and of each of its own.
     */
    static Set<MovieList> lists(Movie movie) {
        Set<MovieList> lists = new LinkedHashSet<>();
        boolean rated = movie.averageRating() != null && movie.numVotes() != null
                && movie.numVotes() >= MovieList.TOP_RATED_VOTES;
        Integer year = movie.year() != null && movie.year() >= 1870 && movie.year() <= 2200 ? movie.year() : null;
        if (year != null) {
            lists.add(MovieList.browse(null, year));
        }
        if (rated) {
            lists.add(MovieList.topRated(null));
        }
        for (String genre : movie.genres()) {
            if (genre.isBlank() || genre.length() > 50) {
                continue;
            }
            lists.add(MovieList.browse(genre, null));
            if (year != null) {
                lists.add(MovieList.browse(genre, year));
            }
            if (rated) {
                lists.add(MovieList.topRated(genre));
            }
        }
        return lists;
    }

    /**
     * The movie an entry of a list stands for, with its rating when the entry copies it (an entry written
     * before entries carried the rating has no {@code ratingCopied}: its movie's rating is read by key).
     */
    public static SearchHit listed(Map<String, AttributeValue> item) {
        ListEntry entry = TableModel.MOVIE_LIST.decode(item);
        SearchHit.Rating rating = Boolean.TRUE.equals(entry.ratingCopied())
                ? new SearchHit.Rating(entry.averageRating(), entry.numVotes()) : null;
        return new SearchHit(SearchKind.MOVIE, entry.id(), entry.title(), entry.year(), null, rating);
    }

    public static List<Map<String, AttributeValue>> of(Person person, KnownFor knownFor) {
        String words = SearchText.wordList(person.name());
        String rank = rank(person.name(), knownFor == null ? 0 : knownFor.votes(), person.id().value());
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        for (String prefix : SearchText.prefixes(person.name())) {
            items.add(TableModel.PERSON_WORD.encode(new SearchEntry(person.id().value(), prefix, person.name(),
                    person.birthYear(), words, rank,
                    knownFor == null ? null : knownFor.movieId().value(), knownFor == null ? null : knownFor.title(),
                    knownFor == null ? null : knownFor.year(), knownFor == null ? null : knownFor.votes())));
        }
        return items;
    }

    /** The primary keys of the entries {@code title} (or a name) has, for an owner of this entity. */
    public static List<Map<String, AttributeValue>> keys(Entity<SearchEntry> entity, String id, String text) {
        String idAttribute = entity == TableModel.MOVIE_WORD ? "movieId" : "personId";
        Set<String> prefixes = SearchText.prefixes(text);
        List<Map<String, AttributeValue>> keys = new ArrayList<>(prefixes.size());
        prefixes.forEach(prefix -> keys.add(entity.key(Map.of(idAttribute, id, "prefix", prefix))));
        return keys;
    }

    /** The best-known title an entry of a person records, or null. */
    public static KnownFor knownFor(SearchEntry entry) {
        return entry.knownForId() == null ? null : new KnownFor(MovieId.of(entry.knownForId()), entry.knownForTitle(),
                entry.knownForYear(), entry.knownForVotes() == null ? 0 : entry.knownForVotes());
    }

    /** The result an entry (read from a search index) stands for. */
    public static SearchHit hit(Map<String, AttributeValue> item) {
        SearchEntry entry = (SearchEntry) TableModel.decode(item).orElseThrow();
        return TableModel.is(item, TableModel.PERSON_WORD)
                ? new SearchHit(SearchKind.PERSON, entry.id(), entry.name(), entry.year(), knownFor(entry))
                : new SearchHit(SearchKind.MOVIE, entry.id(), entry.name(), entry.year(), null);
    }
}
