package dev.moviegraph.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

class SearchTextTest {

    @Test
    void foldingDropsCaseDiacriticsApostrophesAndDots() {
        assertEquals("amelie", SearchText.fold("Amélie"));
        assertEquals("leon the professional", SearchText.fold("Léon: The Professional"));
        assertEquals("okami", SearchText.fold("Ōkami"));
        assertEquals("modrenes", SearchText.fold("Mødrenes"));
        assertEquals("schindlers list", SearchText.fold("Schindler's List"));
        assertEquals("schindlers list", SearchText.fold("Schindler’s  LIST"));
        assertEquals("et the extra terrestrial extraterrestrial", SearchText.fold("E.T. the Extra-Terrestrial"));
        assertEquals("strasse", SearchText.fold("Straße"));
        assertEquals("aeon flux", SearchText.fold("Æon Flux"));
    }

    @Test
    void otherPunctuationSeparatesWordsAndRepeatsCountOnce() {
        assertEquals(List.of("mission", "impossible", "dead", "reckoning", "part", "one"),
                SearchText.words("Mission: Impossible – Dead Reckoning Part One"));
        assertEquals(List.of("new", "york"), SearchText.words("New York, New York"));
        assertEquals(List.of("otto", "e", "mezzo", "1963"), SearchText.words("Otto e mezzo (1963)"));
    }

    @Test
    void prefixesAreTwoToEightCharactersOfEveryWordOfTwoOrMore() {
        Set<String> prefixes = SearchText.prefixes("The Godfather Part II");
        assertEquals(Set.of("th", "the", "go", "god", "godf", "godfa", "godfat", "godfath", "godfathe",
                "pa", "par", "part", "ii"), prefixes);
        assertTrue(SearchText.prefixes("A Beautiful Mind").stream().noneMatch(prefix -> prefix.equals("a")),
                "one-letter words are not indexed");
    }

    @Test
    void aLongTitleIndexesItsFirstWordsOnly() {
        String title = "one two three four five six seven eight nine ten eleven twelve thirteen fourteen";
        Set<String> prefixes = SearchText.prefixes(title);
        assertTrue(prefixes.contains("twelve"));
        assertTrue(prefixes.stream().noneMatch(prefix -> prefix.startsWith("thirt") || prefix.startsWith("fourt")));
    }

    @Test
    void aQueryIsKeyedByItsLongestWordAndNarrowedByTheOthers() {
        SearchQuery godfather = SearchQuery.parse("Godfather II");
        assertEquals("godfathe", godfather.key());
        assertEquals(List.of("godfather", "ii"), godfather.narrowing(), "the cut key word narrows too");
        SearchQuery either = SearchQuery.parse("ii godfather");
        assertEquals(godfather.key(), either.key());
        assertEquals(Set.copyOf(godfather.narrowing()), Set.copyOf(either.narrowing()));
        SearchQuery matrix = SearchQuery.parse("the matrix");
        assertEquals("matrix", matrix.key());
        assertEquals(List.of("the"), matrix.narrowing());
        assertEquals(List.of(), SearchQuery.parse("matr").narrowing());
        assertEquals(List.of("a"), SearchQuery.parse("a beauty").narrowing(), "a one-letter word narrows");
        assertEquals(List.of(), SearchQuery.parse("mat matrix").narrowing(), "a word the key starts with adds nothing");
    }

    @Test
    void tooShortTooLongOrWordlessQueriesAreRefusedWithAClearMessage() {
        assertTrue(assertThrows(InvalidInputException.class, () -> SearchQuery.parse("a")).getMessage()
                .contains("at least 2"));
        assertThrows(InvalidInputException.class, () -> SearchQuery.parse(" . ' "));
        assertThrows(InvalidInputException.class, () -> SearchQuery.parse("Ö!"));
        assertTrue(assertThrows(InvalidInputException.class, () -> SearchQuery.parse("a b")).getMessage()
                .contains("one-letter words only narrow"));
        assertTrue(assertThrows(InvalidInputException.class, () -> SearchQuery.parse("x".repeat(101))).getMessage()
                .contains("at most 100"));
        assertEquals("xx", SearchQuery.parse("X.X").key());
    }
}
