package dev.moviegraph.catalog;

import java.text.Normalizer;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * How titles, names and search queries are folded into words, and which prefixes of those words the
 * search index keeps. Folding makes "Amélie", "AMELIE" and "amelie" one word, "Mødrenes" "modrenes",
 * "Ōkami" "okami", "Schindler's" "schindlers" and "E.T." "et": diacritics go, letters that decompose to
 * no base letter (ø, æ, ß, ł...) are spelled out, apostrophes and dots inside a word are dropped, and any
 * other character that is not a letter or digit separates words. A hyphenated word is also kept joined
 * ("Spider-Man" is "spider", "man" and "spiderman"), so both spellings find it.
 */
public final class SearchText {
    /** The shortest prefix the index keeps, and so the shortest query. */
    public static final int MIN_PREFIX = 2;
    /** The longest prefix the index keeps: a longer query word reads that prefix's partition and narrows. */
    public static final int MAX_PREFIX = 8;
    /** Words of one title or name the index keeps prefixes of: a title of many words indexes its first ones. */
    public static final int MAX_WORDS = 12;

    private static final Pattern MARKS = Pattern.compile("\\p{M}+");
    private static final Pattern DROPPED = Pattern.compile("['’‘ʼ`´.]");

    private SearchText() {
    }

    /** The folded text: lower case, no diacritics, words separated by one space. */
    public static String fold(String text) {
        return String.join(" ", words(text));
    }

    /** The folded words of {@code text}, in order, without repeats; hyphenated words also joined. */
    public static List<String> words(String text) {
        String folded = spellOut(MARKS.matcher(Normalizer.normalize(text, Normalizer.Form.NFKD)).replaceAll("")
                .toLowerCase(java.util.Locale.ROOT));
        folded = DROPPED.matcher(folded).replaceAll("");
        Set<String> words = new LinkedHashSet<>();
        for (String chunk : folded.split("\\s+")) {
            List<String> parts = split(chunk);
            words.addAll(parts);
            if (parts.size() > 1 && chunk.contains("-")) {
                words.add(String.join("", parts));
            }
        }
        return List.copyOf(words);
    }

    /**
     * The prefixes the index keeps for {@code text}: for each of its first {@value #MAX_WORDS} words of
     * at least {@value #MIN_PREFIX} characters, every prefix of {@value #MIN_PREFIX} to {@value #MAX_PREFIX}
     * characters, without repeats.
     */
    public static Set<String> prefixes(String text) {
        Set<String> prefixes = new LinkedHashSet<>();
        List<String> words = words(text);
        for (String word : words.subList(0, Math.min(words.size(), MAX_WORDS))) {
            int length = word.codePointCount(0, word.length());
            for (int n = MIN_PREFIX; n <= Math.min(length, MAX_PREFIX); n++) {
                prefixes.add(word.substring(0, word.offsetByCodePoints(0, n)));
            }
        }
        return prefixes;
    }

    /** A word cut to the longest prefix the index keeps. */
    public static String indexedPrefix(String word) {
        return word.codePointCount(0, word.length()) <= MAX_PREFIX ? word
                : word.substring(0, word.offsetByCodePoints(0, MAX_PREFIX));
    }

    /** The words as one string with a space before each, so " " + a prefix matches the start of a word. */
    public static String wordList(String text) {
        StringBuilder list = new StringBuilder();
        words(text).forEach(word -> list.append(' ').append(word));
        return list.toString();
    }

    private static List<String> split(String chunk) {
        List<String> parts = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        chunk.codePoints().forEach(c -> {
            if (Character.isLetterOrDigit(c)) {
                word.appendCodePoint(c);
            } else if (word.length() > 0) {
                parts.add(word.toString());
                word.setLength(0);
            }
        });
        if (word.length() > 0) {
            parts.add(word.toString());
        }
        return parts;
    }

    /** Letters that NFKD leaves as they are, written as their usual Latin spelling. */
    private static String spellOut(String text) {
        StringBuilder out = new StringBuilder(text.length());
        text.codePoints().forEach(c -> {
            switch (c) {
                case 'ø' -> out.append('o');
                case 'æ' -> out.append("ae");
                case 'œ' -> out.append("oe");
                case 'ß' -> out.append("ss");
                case 'ł' -> out.append('l');
                case 'đ', 'ð' -> out.append('d');
                case 'þ' -> out.append("th");
                case 'ı' -> out.append('i');
                case 'ħ' -> out.append('h');
                default -> out.appendCodePoint(c);
            }
        });
        return out.toString();
    }
}
