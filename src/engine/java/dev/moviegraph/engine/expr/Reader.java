package dev.moviegraph.engine.expr;

import dev.moviegraph.engine.error.ApiException;
import dev.moviegraph.engine.value.Value;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * What every expression language shares: document paths and {@code :value} placeholders.
 *
 * <pre>
 * path    ::= element ( '.' element | '[' NUMBER ']' )*
 * element ::= NAME | NAME_REF
 * value   ::= VALUE_REF
 * </pre>
 *
 * A NAME that is one of the language's keywords ends a path (it is a syntax error where a name is needed); a
 * NAME that is a DynamoDB reserved word, or a placeholder the request does not define, is noted as a problem so
 * that parsing goes on and DynamoDB's order of errors can be kept. The placeholders read are marked used on the
 * request's {@link Placeholders} only by {@link #finish()}, once the whole expression was accepted.
 */
final class Reader {
    /** The longest expression DynamoDB takes, in UTF-8 bytes. */
    static final int MAX_BYTES = 4096;

    final Tokens tokens;
    final Problems problems;
    private final Placeholders placeholders;
    private final Set<String> keywords;
    private final Problems.Kind undefinedName;
    private final Problems.Kind undefinedValue;
    private final Set<String> usedNames = new LinkedHashSet<>();
    private final Set<String> usedValues = new LinkedHashSet<>();
    private final Set<String> topLevelNames = new LinkedHashSet<>();

    /**
     * @param keywords the language's keywords, upper case
     * @param undefinedName the kind an undefined {@code #name} is noted as
     * @param undefinedValue the kind an undefined {@code :value} is noted as (conditions rank both alike)
     */
    Reader(Tokens tokens, Problems problems, Placeholders placeholders, Set<String> keywords,
           Problems.Kind undefinedName, Problems.Kind undefinedValue) {
        this.tokens = tokens;
        this.problems = problems;
        this.placeholders = placeholders;
        this.keywords = keywords;
        this.undefinedName = undefinedName;
        this.undefinedValue = undefinedValue;
    }

    boolean isKeyword(Token token) {
        return token.kind() == Token.Kind.NAME && keywords.contains(token.text().toUpperCase(Locale.ROOT));
    }

    boolean atKeyword(String word) {
        return tokens.peek().isWord(word);
    }

    /** Whether a function call starts here: a name that is no keyword, then '('. */
    boolean atCall() {
        Token token = tokens.peek();
        return token.kind() == Token.Kind.NAME && !isKeyword(token) && tokens.peek(1).is("(");
    }

    Path path() {
        List<Path.Step> steps = new ArrayList<>();
        steps.add(new Path.Key(element()));
        while (true) {
            if (tokens.accept(".")) {
                steps.add(new Path.Key(element()));
            } else if (tokens.at("[")) {
                tokens.next();
                steps.add(new Path.Index(index()));
                tokens.expect("]");
            } else {
                break;
            }
        }
        Path path = new Path(steps);
        topLevelNames.add(path.top());
        return path;
    }

    private String element() {
        Token token = tokens.peek();
        if (token.kind() == Token.Kind.NAME && !isKeyword(token)) {
            tokens.next();
            if (ReservedWords.contains(token.text())) {
                problems.note(Problems.Kind.RESERVED,
                        "Attribute name is a reserved keyword; reserved keyword: " + token.text());
            }
            return token.text();
        }
        if (token.kind() == Token.Kind.NAME_REF) {
            tokens.next();
            String name = placeholders.name(token.text());
            if (name == null) {
                problems.note(undefinedName, "An expression attribute name used in the document path is not defined; "
                        + "attribute name: " + token.text());
                return token.text();
            }
            usedNames.add(token.text());
            return name;
        }
        throw tokens.fail();
    }

    private int index() {
        Token token = tokens.peek();
        if (token.kind() != Token.Kind.NUMBER) {
            throw tokens.fail();
        }
        int index = 0;
        for (int i = 0; i < token.text().length(); i++) {
            index = index * 10 + (token.text().charAt(i) - '0');
            if (index < 0 || index > 100_000_000) {
                // No list can hold that many elements within an item's 400 KB; refuse rather than overflow.
                throw tokens.fail();
            }
        }
        tokens.next();
        return index;
    }

    Operand.Literal value() {
        Token token = tokens.peek();
        if (token.kind() != Token.Kind.VALUE_REF) {
            throw tokens.fail();
        }
        tokens.next();
        Value value = placeholders.value(token.text());
        if (value == null) {
            problems.note(undefinedValue, "An expression attribute value used in expression is not defined; "
                    + "attribute value: " + token.text());
        } else {
            usedValues.add(token.text());
        }
        return new Operand.Literal(token.text(), value);
    }

    /** Top-level names of every path read so far. */
    Set<String> topLevelNames() {
        return Collections.unmodifiableSet(new LinkedHashSet<>(topLevelNames));
    }

    /** Refuses tokens left over, then throws the first problem noted, else marks the placeholders read as used. */
    void finish() {
        if (!tokens.atEnd()) {
            throw tokens.fail();
        }
        problems.throwFirst();
        placeholders.markUsed(usedNames, usedValues);
    }

    /**
     * DynamoDB's errors for an empty expression (a blank one counts as empty) and for one over its 4 KB limit,
     * counted in UTF-8 bytes of the text as given (before placeholders are replaced). Conditions and filters
     * add the size to the message; projections, updates and key conditions do not.
     */
    static void requireText(String text, String expression) {
        if (text == null || text.isBlank()) {
            throw ApiException.validation(
                    "Invalid " + expression + ": The expression can not be empty;");
        }
        int size = text.getBytes(StandardCharsets.UTF_8).length;
        if (size > MAX_BYTES) {
            boolean withSize = expression.equals("ConditionExpression") || expression.equals("FilterExpression");
            throw ApiException.validation("Invalid " + expression + ": Expression size has exceeded the maximum "
                    + "allowed size;" + (withSize ? " expression size: " + size : ""));
        }
    }
}
