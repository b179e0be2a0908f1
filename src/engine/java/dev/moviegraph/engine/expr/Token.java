package dev.moviegraph.engine.expr;

/** One token of an expression, with its place in the source text (for the "near" part of syntax errors). */
record Token(Kind kind, String text, int start, int end) {
    enum Kind {
        /** An attribute name, keyword or function name: a letter or '_' then letters, digits or '_'. */
        NAME,
        /** {@code #name}: an expression attribute name. */
        NAME_REF,
        /** {@code :name}: an expression attribute value. */
        VALUE_REF,
        /** Digits: a list index. */
        NUMBER,
        /** One of {@code ( ) [ ] , . + - = <> < <= > >=}. */
        PUNCT,
        /** A character no token starts with; kept so the parser reports it where it stands. */
        INVALID,
        EOF
    }

    boolean is(String punct) {
        return kind == Kind.PUNCT && text.equals(punct);
    }

    /** Whether this is the keyword {@code word}; keywords are case-insensitive. */
    boolean isWord(String word) {
        return kind == Kind.NAME && text.equalsIgnoreCase(word);
    }
}
