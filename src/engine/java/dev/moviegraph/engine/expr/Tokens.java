package dev.moviegraph.engine.expr;

import dev.moviegraph.engine.error.ApiException;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;

/**
 * A cursor over the tokens of one expression, which knows the expression's kind ("ConditionExpression", ...)
 * for error messages and where each parenthesis closes: the parsers look past a parenthesised group to decide
 * whether it groups a condition or an operand, so the grammar needs no backtracking.
 */
final class Tokens {
    /**
     * How deep parentheses may nest. The parsers recurse once or more per level, and 4 KB of '(' would overflow
     * a thread's stack. DynamoDB allows 300 operators or functions in an expression, and every level beyond the
     * first needs one (or its parentheses are redundant, which DynamoDB refuses too), so no expression
     * DynamoDB accepts nests deeper.
     */
    static final int MAX_DEPTH = 300;

    private final String source;
    private final String expression;
    private final List<Token> list;
    /** For each '(' or ')', the index of its partner; -1 elsewhere and for unbalanced ones. */
    private final int[] partner;
    private int at;

    Tokens(String source, String expression) {
        this.source = source;
        this.expression = expression;
        this.list = Lexer.tokenize(source);
        this.partner = partners(list, expression);
    }

    private static int[] partners(List<Token> list, String expression) {
        int[] partner = new int[list.size()];
        Arrays.fill(partner, -1);
        Deque<Integer> open = new ArrayDeque<>();
        for (int i = 0; i < list.size(); i++) {
            if (list.get(i).is("(")) {
                open.push(i);
                if (open.size() > MAX_DEPTH) {
                    // Not a message recorded from DynamoDB (it would name too many operators or redundant
                    // parentheses, after reading the whole expression): refused before the parsers recurse.
                    throw ApiException.validation("Invalid " + expression + ": The expression has parentheses "
                            + "nested too deeply; depth limit: " + MAX_DEPTH);
                }
            } else if (list.get(i).is(")") && !open.isEmpty()) {
                int start = open.pop();
                partner[start] = i;
                partner[i] = start;
            }
        }
        return partner;
    }

    String expression() {
        return expression;
    }

    Token peek() {
        return list.get(at);
    }

    /** The token {@code ahead} places after the current one (EOF past the end). */
    Token peek(int ahead) {
        return list.get(Math.min(at + ahead, list.size() - 1));
    }

    Token next() {
        Token token = list.get(at);
        if (token.kind() != Token.Kind.EOF) {
            at++;
        }
        return token;
    }

    boolean at(String punct) {
        return peek().is(punct);
    }

    /** Consumes {@code punct} when it is next. */
    boolean accept(String punct) {
        if (at(punct)) {
            next();
            return true;
        }
        return false;
    }

    void expect(String punct) {
        if (!accept(punct)) {
            throw fail();
        }
    }

    boolean atEnd() {
        return peek().kind() == Token.Kind.EOF;
    }

    /** The token after the ')' closing the '(' at the cursor, or null when that '(' is not closed. */
    Token afterGroup() {
        int close = partner[at];
        return close < 0 ? null : list.get(close + 1);
    }

    /** Whether the '(' at the cursor directly encloses another group and nothing else: {@code ((...))}. */
    boolean doubleGroup() {
        int close = partner[at];
        return close > 0 && list.get(at + 1).is("(") && partner[at + 1] == close - 1;
    }

    /** DynamoDB's syntax error at the current token. */
    ApiException fail() {
        Token token = list.get(at);
        // "near" runs from the token before to the token after, as DynamoDB quotes it.
        int from = at > 0 ? list.get(at - 1).start() : token.start();
        int to = at + 1 < list.size() ? list.get(at + 1).end() : token.end();
        return ApiException.validation("Invalid " + expression + ": Syntax error; token: \"" + token.text()
                + "\", near: \"" + source.substring(from, to) + "\"");
    }
}
