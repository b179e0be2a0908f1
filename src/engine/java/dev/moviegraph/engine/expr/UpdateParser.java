package dev.moviegraph.engine.expr;

import dev.moviegraph.engine.value.Value;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Recursive-descent parser of UpdateExpression text, one method per rule of this grammar (clause keywords
 * case-insensitive, function names case-sensitive; {@code path} and {@code value} as in {@link Reader}):
 *
 * <pre>
 * update     ::= clause+
 * clause     ::= SET assignment ( ',' assignment )*
 *              | REMOVE path ( ',' path )*
 *              | ADD path value ( ',' path value )*
 *              | DELETE path value ( ',' path value )*
 * assignment ::= path '=' set-value
 * set-value  ::= '(' sum ')'                 -- when the ')' is not followed by '+' or '-'
 *              | sum
 * sum        ::= operand ( ( '+' | '-' ) operand )?
 * operand    ::= '(' operand ')' | call | value | path
 * call       ::= NAME '(' operand ( ',' operand )* ')'     -- if_not_exists(path, operand), list_append(a, b)
 * </pre>
 *
 * Each clause may appear once, in any order. No two actions may touch overlapping paths.
 */
final class UpdateParser {
    private static final Set<String> KEYWORDS = Set.of("SET", "REMOVE", "ADD", "DELETE");
    // The order DynamoDB reports the errors of an update in.
    private static final List<Problems.Kind> ORDER = List.of(Problems.Kind.RESERVED, Problems.Kind.UNKNOWN_FUNCTION,
            Problems.Kind.SECTION, Problems.Kind.UNDEFINED_NAME, Problems.Kind.UNDEFINED_VALUE,
            Problems.Kind.OVERLAP, Problems.Kind.CONFLICT, Problems.Kind.OPERAND_TYPE, Problems.Kind.FUNCTION);
    private static final Map<String, Integer> ARITY = Map.of("if_not_exists", 2, "list_append", 2);
    private static final Map<String, String> TYPE_NAMES = Map.of("S", "STRING", "N", "NUMBER", "B", "BINARY",
            "BOOL", "BOOLEAN", "NULL", "NULL", "L", "LIST", "M", "MAP");

    private final Tokens tokens;
    private final Reader reader;
    private final Problems problems;

    private UpdateParser(String text, Placeholders placeholders) {
        this.tokens = new Tokens(text, "UpdateExpression");
        this.problems = new Problems("UpdateExpression", ORDER);
        this.reader = new Reader(tokens, problems, placeholders, KEYWORDS,
                Problems.Kind.UNDEFINED_NAME, Problems.Kind.UNDEFINED_VALUE);
    }

    static Update parse(String text, Placeholders placeholders) {
        Reader.requireText(text, "UpdateExpression");
        UpdateParser parser = new UpdateParser(text, placeholders);
        List<Action> actions = parser.update();
        List<Path> paths = new ArrayList<>();
        for (Action action : actions) {
            paths.add(action.path());
        }
        Path.noteClashes(paths, parser.problems);
        parser.reader.finish();
        return new Parsed(actions);
    }

    private List<Action> update() {
        List<Action> actions = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        do {
            Token keyword = tokens.peek();
            if (!reader.isKeyword(keyword)) {
                throw tokens.fail();
            }
            tokens.next();
            String clause = keyword.text().toUpperCase(Locale.ROOT);
            if (!seen.add(clause)) {
                problems.note(Problems.Kind.SECTION,
                        "The \"" + clause + "\" section can only be used once in an update expression;");
            }
            do {
                actions.add(action(clause));
            } while (tokens.accept(","));
        } while (!tokens.atEnd());
        return actions;
    }

    private Action action(String clause) {
        Path path = reader.path();
        return switch (clause) {
            case "SET" -> {
                tokens.expect("=");
                yield new Action.Assign(path, setValue());
            }
            case "REMOVE" -> new Action.Remove(path);
            case "ADD" -> new Action.Add(path, setOperand("ADD", reader.value(), "N", "SS", "NS", "BS"));
            default -> new Action.Delete(path, setOperand("DELETE", reader.value(), "SS", "NS", "BS"));
        };
    }

    /** ADD takes a number or a set, DELETE a set: DynamoDB checks the :value's type at parse time. */
    private Operand.Literal setOperand(String clause, Operand.Literal literal, String... allowed) {
        String type = literal.staticType();
        if (type != null && !List.of(allowed).contains(type)) {
            problems.note(Problems.Kind.OPERAND_TYPE, "Incorrect operand type for operator or function; operator: "
                    + clause + ", operand type: " + TYPE_NAMES.get(type));
        }
        return literal;
    }

    private Operand setValue() {
        if (tokens.at("(")) {
            Token after = tokens.afterGroup();
            if (after != null && !after.is("+") && !after.is("-")) {
                tokens.next();
                Operand inner = sum();
                tokens.expect(")");
                return inner;
            }
        }
        return sum();
    }

    private Operand sum() {
        Operand left = operand();
        if (tokens.at("+") || tokens.at("-")) {
            String operator = tokens.next().text();
            Operand right = operand();
            for (Operand side : List.of(left, right)) {
                noteOperandType(operator, side, "N");
            }
            return new Operand.Arithmetic(operator.equals("+"), left, right);
        }
        return left;
    }

    private Operand operand() {
        if (tokens.accept("(")) {
            Operand inner = operand();
            tokens.expect(")");
            return inner;
        }
        if (reader.atCall()) {
            return call();
        }
        if (tokens.peek().kind() == Token.Kind.VALUE_REF) {
            return reader.value();
        }
        return new Operand.PathRef(reader.path());
    }

    private Operand call() {
        String name = tokens.next().text();
        tokens.expect("(");
        List<Operand> args = new ArrayList<>();
        do {
            args.add(operand());
        } while (tokens.accept(","));
        tokens.expect(")");
        Integer arity = ARITY.get(name);
        if (arity == null) {
            problems.note(Problems.Kind.UNKNOWN_FUNCTION, "Invalid function name; function: " + name);
            return new Operand.Call(name, args);
        }
        if (arity != args.size()) {
            problems.note(Problems.Kind.FUNCTION, "Incorrect number of operands for operator or function; "
                    + "operator or function: " + name + ", number of operands: " + args.size());
            return new Operand.Call(name, args);
        }
        if (name.equals("if_not_exists")) {
            if (!(args.get(0) instanceof Operand.PathRef ref)) {
                problems.note(Problems.Kind.FUNCTION,
                        "Operator or function requires a document path; operator or function: " + name);
                return new Operand.Call(name, args);
            }
            return new Operand.IfNotExists(ref.path(), args.get(1));
        }
        for (Operand arg : args) {
            noteOperandType(name, arg, "L");
        }
        return new Operand.ListAppend(args.get(0), args.get(1));
    }

    /** A :value given straight to list_append, + or - must already have the type they need. */
    private void noteOperandType(String function, Operand operand, String wanted) {
        if (operand instanceof Operand.Literal literal && literal.value() != null
                && !literal.value().type().equals(wanted)) {
            problems.note(Problems.Kind.FUNCTION, "Incorrect operand type for operator or function; "
                    + "operator or function: " + function + ", operand type: " + literal.value().type());
        }
    }

    /** A parsed update: its actions, in the order written. */
    static final class Parsed implements Update {
        private final List<Action> actions;
        private final Set<String> topLevelNames;
        private final Projector touched;

        Parsed(List<Action> actions) {
            this.actions = List.copyOf(actions);
            Set<String> names = new LinkedHashSet<>();
            List<Path> paths = new ArrayList<>();
            for (Action action : actions) {
                names.add(action.path().top());
                paths.add(action.path());
            }
            this.topLevelNames = Collections.unmodifiableSet(names);
            this.touched = new Projector(paths);
        }

        @Override
        public Map<String, Value> apply(Map<String, Value> item) {
            return Applier.apply(actions, item);
        }

        @Override
        public Set<String> topLevelNames() {
            return topLevelNames;
        }

        @Override
        public Map<String, Value> updatedPart(Map<String, Value> item) {
            return touched.project(item);
        }
    }
}
