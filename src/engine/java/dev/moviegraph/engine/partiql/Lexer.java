package dev.moviegraph.engine.partiql;

import dev.moviegraph.engine.error.ApiException;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a PartiQL statement into tokens: bare words (names and keywords alike; the parser tells them
 * apart), double-quoted names, single-quoted strings, numbers and punctuation. Comments ({@code --} to the
 * end of the line, {@code /* ... *}{@code /}) and white space are dropped.
 */
final class Lexer {
    /** Punctuation, longest first so that {@code <=} is not read as {@code <} then {@code =}. */
    private static final String[] PUNCTUATION = {"<<", ">>", "<>", "!=", "<=", ">=", "*", ",", ".", ";", "(", ")", "[",
        "]", "{", "}", ":", "?", "=", "<", ">", "+", "-"};

    enum Kind { WORD, QUOTED, STRING, NUMBER, PUNCT, EOF }

    record Token(Kind kind, String text, int start) {
        boolean is(String punct) {
            return kind == Kind.PUNCT && text.equals(punct);
        }

        boolean isWord(String word) {
            return kind == Kind.WORD && text.equalsIgnoreCase(word);
        }
    }

    private final String source;
    private int at;

    private Lexer(String source) {
        this.source = source;
    }

    static List<Token> tokens(String source) {
        return new Lexer(source).all();
    }

    /** DynamoDB's answer to a statement it cannot read: the fixed envelope, then what went wrong. */
    static ApiException malformed(String detail) {
        return ApiException.validation("Statement wasn't well formed, can't be processed: " + detail);
    }

    private List<Token> all() {
        List<Token> tokens = new ArrayList<>();
        while (true) {
            skipBlanks();
            if (at >= source.length()) {
                tokens.add(new Token(Kind.EOF, "", at));
                return tokens;
            }
            tokens.add(next());
        }
    }

    private void skipBlanks() {
        while (at < source.length()) {
            char c = source.charAt(at);
            if (Character.isWhitespace(c)) {
                at++;
            } else if (source.startsWith("--", at)) {
                int end = source.indexOf('\n', at);
                at = end < 0 ? source.length() : end + 1;
            } else if (source.startsWith("/*", at)) {
                int end = source.indexOf("*/", at + 2);
                if (end < 0) {
                    throw malformed("");
                }
                at = end + 2;
            } else {
                return;
            }
        }
    }

    private Token next() {
        int start = at;
        char c = source.charAt(at);
        if (Character.isLetter(c) || c == '_' || c == '$') {
            while (at < source.length() && (Character.isLetterOrDigit(source.charAt(at)) || source.charAt(at) == '_'
                    || source.charAt(at) == '$')) {
                at++;
            }
            return new Token(Kind.WORD, source.substring(start, at), start);
        }
        if (c == '"' || c == '\'') {
            return new Token(c == '"' ? Kind.QUOTED : Kind.STRING, quoted(c), start);
        }
        if (Character.isDigit(c) || c == '.' && at + 1 < source.length() && Character.isDigit(source.charAt(at + 1))) {
            return new Token(Kind.NUMBER, number(), start);
        }
        for (String punct : PUNCTUATION) {
            if (source.startsWith(punct, at)) {
                at += punct.length();
                return new Token(Kind.PUNCT, punct, start);
            }
        }
        throw malformed(""); // a character no token starts with (#, @, ...): DynamoDB says nothing more
    }

    /** A quoted name or string; the quote doubled stands for itself. */
    private String quoted(char quote) {
        StringBuilder text = new StringBuilder();
        at++;
        while (true) {
            if (at >= source.length()) {
                throw malformed("");
            }
            char c = source.charAt(at++);
            if (c == quote) {
                if (at < source.length() && source.charAt(at) == quote) {
                    text.append(quote);
                    at++;
                    continue;
                }
                return text.toString();
            }
            text.append(c);
        }
    }

    /** Digits, an optional fraction, an optional exponent. */
    private String number() {
        int start = at;
        digits();
        if (at < source.length() && source.charAt(at) == '.') {
            at++;
            digits();
        }
        if (at < source.length() && (source.charAt(at) == 'e' || source.charAt(at) == 'E')) {
            int mark = at++;
            if (at < source.length() && (source.charAt(at) == '+' || source.charAt(at) == '-')) {
                at++;
            }
            if (at >= source.length() || !Character.isDigit(source.charAt(at))) {
                at = mark; // "1e" then something else: the number ends before the e
            } else {
                digits();
            }
        }
        return source.substring(start, at);
    }

    private void digits() {
        while (at < source.length() && Character.isDigit(source.charAt(at))) {
            at++;
        }
    }
}
