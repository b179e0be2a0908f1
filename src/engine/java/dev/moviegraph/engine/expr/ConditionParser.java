package dev.moviegraph.engine.expr;

import dev.moviegraph.engine.value.Value;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Recursive-descent parser of ConditionExpression, FilterExpression and KeyConditionExpression text, one method
 * per rule of this grammar (keywords case-insensitive, function names case-sensitive; {@code path} and
 * {@code value} as in {@link Reader}):
 *
 * <pre>
 * condition   ::= conjunction ( OR conjunction )*
 * conjunction ::= negation ( AND negation )*
 * negation    ::= NOT negation | primary
 * primary     ::= '(' condition ')'          -- when the ')' is not followed by a comparator, BETWEEN or IN
 *               | operand comparator operand
 *               | operand BETWEEN operand AND operand
 *               | operand IN '(' operand ( ',' operand )* ')'
 *               | call                        -- attribute_exists, attribute_not_exists, attribute_type,
 *                                             -- begins_with, contains
 * operand     ::= '(' operand ')' | call | value | path      -- the only call that is an operand: size
 * call        ::= NAME '(' operand ( ',' operand )* ')'
 * comparator  ::= '=' | '&lt;&gt;' | '&lt;' | '&lt;=' | '&gt;' | '&gt;='
 * </pre>
 *
 * Precedence follows from the rules: comparisons, IN, BETWEEN and functions bind tightest, then parentheses,
 * NOT, AND and OR. A comparison takes exactly two operands, so {@code a = b = c} is a syntax error.
 */
final class ConditionParser {
    private static final Set<String> KEYWORDS = Set.of("AND", "OR", "NOT", "BETWEEN", "IN");
    // The order DynamoDB reports the errors of a condition in.
    private static final List<Problems.Kind> ORDER = List.of(Problems.Kind.PARENS, Problems.Kind.UNKNOWN_FUNCTION,
            Problems.Kind.MISUSED_FUNCTION, Problems.Kind.RESERVED, Problems.Kind.UNDEFINED_NAME,
            Problems.Kind.OPERAND_COUNT, Problems.Kind.DISTINCT, Problems.Kind.FUNCTION);
    private static final Map<String, Integer> ARITY = Map.of("attribute_exists", 1, "attribute_not_exists", 1,
            "attribute_type", 2, "begins_with", 2, "contains", 2, "size", 1);
    private static final Set<String> TYPES = Set.of("S", "N", "B", "BOOL", "NULL", "L", "M", "SS", "NS", "BS");
    private static final int MAX_IN_OPERANDS = 100;

    private final Tokens tokens;
    private final Reader reader;
    private final Problems problems;

    private ConditionParser(String text, Placeholders placeholders, String expression) {
        this.tokens = new Tokens(text, expression);
        this.problems = new Problems(expression, ORDER);
        // Conditions report the first undefined placeholder, name or value alike.
        this.reader = new Reader(tokens, problems, placeholders, KEYWORDS,
                Problems.Kind.UNDEFINED_NAME, Problems.Kind.UNDEFINED_NAME);
    }

    /** The parsed condition; {@code expression} names the parameter in error messages. */
    static Parsed parse(String text, Placeholders placeholders, String expression) {
        Reader.requireText(text, expression);
        ConditionParser parser = new ConditionParser(text, placeholders, expression);
        Check root = parser.condition();
        parser.reader.finish();
        return new Parsed(root, parser.reader.topLevelNames());
    }

    /** A parsed condition: its tree and the top-level names it reads. */
    record Parsed(Check root, Set<String> topLevelNames) implements Condition {
        @Override
        public boolean test(Map<String, Value> item) {
            return root.test(item);
        }
    }

    private Check condition() {
        List<Check> parts = new ArrayList<>();
        parts.add(conjunction());
        while (reader.atKeyword("OR")) {
            tokens.next();
            parts.add(conjunction());
        }
        return parts.size() == 1 ? parts.get(0) : new Check.Or(parts);
    }

    private Check conjunction() {
        List<Check> parts = new ArrayList<>();
        parts.add(negation());
        while (reader.atKeyword("AND")) {
            tokens.next();
            parts.add(negation());
        }
        return parts.size() == 1 ? parts.get(0) : new Check.And(parts);
    }

    private Check negation() {
        if (reader.atKeyword("NOT")) {
            tokens.next();
            return new Check.Not(negation());
        }
        return primary();
    }

    private Check primary() {
        if (tokens.at("(") && !startsComparison(tokens.afterGroup())) {
            noteRedundantGroup();
            tokens.next();
            Check inner = condition();
            tokens.expect(")");
            return inner;
        }
        Operand left;
        if (reader.atCall()) {
            String name = tokens.next().text();
            List<Operand> args = arguments();
            if (!startsComparison(tokens.peek())) {
                return function(name, args);
            }
            left = valueCall(name, args);
        } else {
            left = operand();
        }
        Relation relation = Relation.of(tokens.peek().kind() == Token.Kind.PUNCT ? tokens.peek().text() : "");
        if (relation != null) {
            tokens.next();
            Operand right = operand();
            noteSamePath(relation.symbol(), left, List.of(right));
            return new Check.Compare(relation, left, right);
        }
        if (reader.atKeyword("BETWEEN")) {
            tokens.next();
            Operand low = operand();
            if (!reader.atKeyword("AND")) {
                throw tokens.fail();
            }
            tokens.next();
            Operand high = operand();
            noteBounds(low, high);
            return new Check.Between(left, low, high);
        }
        if (reader.atKeyword("IN")) {
            tokens.next();
            tokens.expect("(");
            List<Operand> candidates = new ArrayList<>();
            do {
                candidates.add(operand());
            } while (tokens.accept(","));
            tokens.expect(")");
            if (candidates.size() > MAX_IN_OPERANDS) {
                problems.note(Problems.Kind.FUNCTION, "The IN operator is provided with too many operands; "
                        + "number of operands: " + candidates.size());
            }
            noteSamePath("IN", left, candidates);
            return new Check.In(left, candidates);
        }
        throw tokens.fail();
    }

    /** Whether a token continues an operand into a comparison (so a group before it is an operand). */
    private boolean startsComparison(Token token) {
        return token != null && (token.kind() == Token.Kind.PUNCT && Relation.of(token.text()) != null
                || token.isWord("BETWEEN") || token.isWord("IN"));
    }

    private Operand operand() {
        if (tokens.at("(")) {
            noteRedundantGroup();
            tokens.next();
            Operand inner = operand();
            tokens.expect(")");
            return inner;
        }
        if (reader.atCall()) {
            String name = tokens.next().text();
            return valueCall(name, arguments());
        }
        if (tokens.peek().kind() == Token.Kind.VALUE_REF) {
            return reader.value();
        }
        return new Operand.PathRef(reader.path());
    }

    private List<Operand> arguments() {
        tokens.expect("(");
        List<Operand> args = new ArrayList<>();
        do {
            args.add(operand());
        } while (tokens.accept(","));
        tokens.expect(")");
        return args;
    }

    /** A call where a value is wanted: only size() yields one. */
    private Operand valueCall(String name, List<Operand> args) {
        if (!checkCall(name, args)) {
            return new Operand.Call(name, args);
        }
        if (name.equals("size")) {
            return new Operand.Size(args.get(0));
        }
        problems.note(Problems.Kind.MISUSED_FUNCTION,
                "The function is not allowed to be used this way in an expression; function: " + name);
        return new Operand.Call(name, args);
    }

    /** A call where a condition is wanted: every function but size(). */
    private Check function(String name, List<Operand> args) {
        if (!checkCall(name, args)) {
            return new Check.Refused(name);
        }
        Operand first = args.get(0);
        Path path = first instanceof Operand.PathRef ref ? ref.path() : null;
        return switch (name) {
            case "attribute_exists" -> path == null ? new Check.Refused(name) : new Check.Exists(path);
            case "attribute_not_exists" -> path == null ? new Check.Refused(name) : new Check.NotExists(path);
            case "attribute_type" -> new Check.TypeIs(first, typeName(args.get(1)));
            case "begins_with" -> new Check.BeginsWith(first, args.get(1));
            case "contains" -> new Check.Contains(first, args.get(1));
            default -> {
                problems.note(Problems.Kind.MISUSED_FUNCTION,
                        "The function is not allowed to be used this way in an expression; function: " + name);
                yield new Check.Refused(name);
            }
        };
    }

    /** Notes what DynamoDB refuses in a call wherever it stands; false when it cannot be built at all. */
    private boolean checkCall(String name, List<Operand> args) {
        Integer arity = ARITY.get(name);
        if (arity == null) {
            problems.note(Problems.Kind.UNKNOWN_FUNCTION, "Invalid function name; function: " + name);
            return false;
        }
        if (arity != args.size()) {
            problems.note(Problems.Kind.OPERAND_COUNT, "Incorrect number of operands for operator or function; "
                    + "operator or function: " + name + ", number of operands: " + args.size());
            return false;
        }
        if (args.size() == 2) {
            noteSamePath(name, args.get(0), args.subList(1, 2));
        }
        switch (name) {
            case "attribute_exists", "attribute_not_exists" -> {
                if (!(args.get(0) instanceof Operand.PathRef)) {
                    problems.note(Problems.Kind.FUNCTION,
                            "Operator or function requires a document path; operator or function: " + name);
                }
            }
            case "attribute_type" -> noteTypeName(args.get(1));
            case "begins_with" -> {
                for (Operand arg : args) {
                    String type = arg.staticType();
                    if (type != null && !type.equals("S") && !type.equals("B")) {
                        noteOperandType(name, type);
                    }
                }
            }
            case "size" -> {
                String type = args.get(0).staticType();
                if ("N".equals(type) || "BOOL".equals(type) || "NULL".equals(type)) {
                    noteOperandType(name, type);
                }
            }
            default -> {
            }
        }
        return true;
    }

    /** attribute_type's second operand must be a :value holding one of the ten type names. */
    private void noteTypeName(Operand operand) {
        String type = operand.staticType();
        if (!"S".equals(type)) {
            // DynamoDB lists every type when the operand's type is unknown until evaluation (a path).
            noteOperandType("attribute_type", type == null ? "{NS,SS,L,BS,N,M,B,BOOL,NULL,S}" : type);
            return;
        }
        String name = typeName(operand);
        if (!TYPES.contains(name)) {
            problems.note(Problems.Kind.FUNCTION, "Invalid attribute type name found; type: " + name
                    + ", valid types: {B,NULL,SS,BOOL,L,BS,N,NS,S,M}");
        }
    }

    private static String typeName(Operand operand) {
        return operand instanceof Operand.Literal literal && literal.value() instanceof Value.S s
                ? s.value() : "";
    }

    private void noteOperandType(String function, String type) {
        problems.note(Problems.Kind.FUNCTION, "Incorrect operand type for operator or function; "
                + "operator or function: " + function + ", operand type: " + type);
    }

    /** DynamoDB refuses comparing a path with itself ({@code a = a}, {@code contains(a, a)}). */
    private void noteSamePath(String operator, Operand first, List<Operand> rest) {
        if (!(first instanceof Operand.PathRef ref)) {
            return;
        }
        for (Operand other : rest) {
            if (first.equals(other)) {
                problems.note(Problems.Kind.DISTINCT, "The first operand must be distinct from the remaining "
                        + "operands for this operator or function; operator: " + operator + ", first operand: "
                        + ref.path());
                return;
            }
        }
    }

    /** BETWEEN bounds known at parse time must be of one type, the lower not above the upper. */
    private void noteBounds(Operand low, Operand high) {
        if (!(low instanceof Operand.Literal a) || !(high instanceof Operand.Literal b)
                || a.value() == null || b.value() == null) {
            return;
        }
        String bounds = "lower bound operand: " + Values.quote(a.value()) + ", upper bound operand: "
                + Values.quote(b.value());
        if (!a.value().type().equals(b.value().type())) {
            problems.note(Problems.Kind.FUNCTION,
                    "The BETWEEN operator requires same data type for lower and upper bounds; " + bounds);
        } else if (Relation.GT.holds(a.value(), b.value())) {
            problems.note(Problems.Kind.FUNCTION,
                    "The BETWEEN operator requires upper bound to be greater than or equal to lower bound; " + bounds);
        }
    }

    /** {@code ((...))}: DynamoDB refuses parentheses that only wrap other parentheses. */
    private void noteRedundantGroup() {
        if (tokens.doubleGroup()) {
            problems.note(Problems.Kind.PARENS, "The expression has redundant parentheses;");
        }
    }
}
