package dev.moviegraph.engine.expr;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits an expression into tokens, by hand: names {@code [A-Za-z_][A-Za-z0-9_]*}, {@code #ref} and
 * {@code :ref} placeholders ({@code [A-Za-z0-9_]+} after the sign), digits, and the punctuation of the
 * expression languages; blanks (space, tab, CR, LF) separate tokens. Any other character becomes an INVALID
 * token rather than an error here, so that the parser reports the first error in reading order, as DynamoDB
 * does. The list always ends with an EOF token.
 */
final class Lexer {
    private static final String SINGLE = "()[],.+-=";

    private Lexer() {
    }

    static List<Token> tokenize(String source) {
        List<Token> tokens = new ArrayList<>();
        int i = 0;
        int n = source.length();
        while (i < n) {
            char c = source.charAt(i);
            int start = i;
            if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
                i++;
                continue;
            }
            if (isNameStart(c)) {
                i = skipNameParts(source, i + 1);
                tokens.add(token(Token.Kind.NAME, source, start, i));
            } else if (c == '#' || c == ':') {
                i = skipNameParts(source, i + 1);
                Token.Kind kind = i == start + 1 ? Token.Kind.INVALID
                        : c == '#' ? Token.Kind.NAME_REF : Token.Kind.VALUE_REF;
                tokens.add(token(kind, source, start, i));
            } else if (isDigit(c)) {
                i++;
                while (i < n && isDigit(source.charAt(i))) {
                    i++;
                }
                tokens.add(token(Token.Kind.NUMBER, source, start, i));
            } else if (c == '<' || c == '>') {
                char after = i + 1 < n ? source.charAt(i + 1) : 0;
                i += after == '=' || (c == '<' && after == '>') ? 2 : 1;
                tokens.add(token(Token.Kind.PUNCT, source, start, i));
            } else if (SINGLE.indexOf(c) >= 0) {
                i++;
                tokens.add(token(Token.Kind.PUNCT, source, start, i));
            } else {
                i += Character.charCount(source.codePointAt(i));
                tokens.add(token(Token.Kind.INVALID, source, start, i));
            }
        }
        tokens.add(new Token(Token.Kind.EOF, "<EOF>", n, n));
        return tokens;
    }

    private static Token token(Token.Kind kind, String source, int start, int end) {
        return new Token(kind, source.substring(start, end), start, end);
    }

    private static int skipNameParts(String source, int i) {
        while (i < source.length() && isNamePart(source.charAt(i))) {
            i++;
        }
        return i;
    }

    private static boolean isNameStart(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    }

    private static boolean isNamePart(char c) {
        return isNameStart(c) || isDigit(c);
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }
}
