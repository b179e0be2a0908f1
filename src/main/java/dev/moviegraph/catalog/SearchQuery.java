package dev.moviegraph.catalog;

import java.util.ArrayList;
import java.util.List;

/**
 * A search as the index answers it: the prefix whose partition holds every match ({@code key}: the
 * query's longest word, cut to {@link SearchText#MAX_PREFIX}), and the words every match must also have
 * a word starting with ({@code narrowing}: the other words, one-letter ones included, and the key word
 * itself when it is longer than the index's prefixes). Words are folded as titles and names are.
 */
public record SearchQuery(String key, List<String> narrowing) {
    public static final int MAX_CHARS = 100;

    public SearchQuery {
        narrowing = List.copyOf(narrowing);
    }

    /** Parses what a user typed; too short, too long or wordless is an {@link InvalidInputException}. */
    public static SearchQuery parse(String query) {
        if (query.length() > MAX_CHARS) {
            throw new InvalidInputException("A search is at most " + MAX_CHARS + " characters, got " + query.length());
        }
        List<String> words = SearchText.words(query);
        int letters = words.stream().mapToInt(word -> word.codePointCount(0, word.length())).sum();
        if (letters < SearchText.MIN_PREFIX) {
            throw new InvalidInputException("A search needs at least " + SearchText.MIN_PREFIX
                    + " letters or digits (case, accents and punctuation do not count)");
        }
        String longest = null;
        for (String word : words) {
            if (longest == null || word.codePointCount(0, word.length()) > longest.codePointCount(0, longest.length())) {
                longest = word;
            }
        }
        if (longest.codePointCount(0, longest.length()) < SearchText.MIN_PREFIX) {
            throw new InvalidInputException("A search needs a word of at least " + SearchText.MIN_PREFIX
                    + " letters or digits; one-letter words only narrow it");
        }
        String key = SearchText.indexedPrefix(longest);
        List<String> narrowing = new ArrayList<>();
        for (String word : words) {
            // A word the key word starts with is matched by the key word's own match.
            if (!key.startsWith(word) && !narrowing.contains(word)) {
                narrowing.add(word);
            }
        }
        return new SearchQuery(key, narrowing);
    }
}
