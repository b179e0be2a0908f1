package dev.moviegraph.engine.expr;

import java.util.Objects;

/**
 * DynamoDB's expression languages: parse once per request, then evaluate against items ({@code Map<String,
 * Value>}; a missing item is an empty map). Every error is an {@code ApiException.validation} with DynamoDB's
 * message. Each parser is hand-written recursive descent over tokens from {@link Lexer}; the grammars are in the
 * parsers' comments:
 *
 * <pre>
 * path        ::= element ( '.' element | '[' NUMBER ']' )*          element ::= NAME | NAME_REF
 * condition   ::= conjunction ( OR conjunction )*                       ({@link ConditionParser})
 * conjunction ::= negation ( AND negation )*
 * negation    ::= NOT negation | primary
 * primary     ::= '(' condition ')' | operand comparator operand | operand BETWEEN operand AND operand
 *               | operand IN '(' operand ( ',' operand )* ')' | call
 * operand     ::= '(' operand ')' | call | VALUE_REF | path
 * update      ::= ( SET assignment (',' assignment)* | REMOVE path (',' path)*       ({@link UpdateParser})
 *                 | ADD path VALUE_REF (',' path VALUE_REF)* | DELETE path VALUE_REF (',' ...)* )+
 * assignment  ::= path '=' ( '(' sum ')' | sum )        sum ::= operand ( ('+' | '-') operand )?
 * projection  ::= path ( ',' path )*                                    ({@link ProjectionParser})
 * </pre>
 *
 * Placeholders used are recorded on the request's {@link Placeholders}; call its {@code requireAllUsed()} after
 * parsing every expression of the request.
 */
public final class Expressions {
    private Expressions() {
    }

    /** A ConditionExpression (errors name "ConditionExpression"). */
    public static Condition condition(String text, Placeholders p) {
        return ConditionParser.parse(text, Objects.requireNonNull(p), "ConditionExpression");
    }

    /** A FilterExpression: the condition language, with errors naming "FilterExpression" as DynamoDB's do. */
    public static Condition filter(String text, Placeholders p) {
        return ConditionParser.parse(text, Objects.requireNonNull(p), "FilterExpression");
    }

    public static Update update(String text, Placeholders p) {
        return UpdateParser.parse(text, Objects.requireNonNull(p));
    }

    public static Projection projection(String text, Placeholders p) {
        return ProjectionParser.parse(text, Objects.requireNonNull(p));
    }

    /**
     * A KeyConditionExpression for a key schema: {@code partitionKey = :v}, and optionally AND one condition on
     * {@code sortKey} (null when the table or index has none). Checking the values' types against the schema is
     * the caller's (it knows the attribute definitions).
     */
    public static KeyCondition keyCondition(String text, Placeholders p, String partitionKey, String sortKey) {
        ConditionParser.Parsed parsed = ConditionParser.parse(text, Objects.requireNonNull(p), "KeyConditionExpression");
        return KeyConditions.of(parsed.root(), Objects.requireNonNull(partitionKey), sortKey);
    }
}
