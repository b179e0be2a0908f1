package dev.moviegraph.imdb;

/** Why a line of an IMDb file was left out; the importer counts skips by reason and carries on. */
public enum SkipReason {
    /** More or fewer tab-separated fields than the header has (an empty line is one field). */
    WRONG_COLUMN_COUNT,
    /** A number that is not plain ASCII digits, or outside its plausible range. */
    BAD_NUMBER,
    /** Bytes that are not UTF-8; the line is reported, never decoded with replacement characters. */
    INVALID_UTF8,
    /** A characters column that is not a JSON array of strings. */
    BAD_CHARACTERS_JSON,
    /** A title id not like tt0111161 or a person id not like nm0000151. */
    BAD_ID,
    /** A column every kept row needs (a title's type and primary title, a person's name) is {@code \N} or empty. */
    MISSING_REQUIRED,
    /** A line longer than the reader's limit: dropped unread so that one broken line cannot exhaust memory. */
    LINE_TOO_LONG,
    /** A principal or crew row naming a title that title.basics does not have (of any type). */
    UNKNOWN_TITLE,
    /** A principal or crew entry naming a person that name.basics does not have: the credit is left out. */
    UNKNOWN_PERSON,
    /** A second cast row of the same person in the same title: the first, best billed, is kept. */
    DUPLICATE
}
