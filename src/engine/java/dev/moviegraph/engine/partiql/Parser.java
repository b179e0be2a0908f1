package dev.moviegraph.engine.partiql;

import static dev.moviegraph.engine.partiql.Lexer.malformed;

import dev.moviegraph.engine.error.ApiException;
import dev.moviegraph.engine.partiql.Ast.Action;
import dev.moviegraph.engine.partiql.Ast.Expr;
import dev.moviegraph.engine.partiql.Ast.Path;
import dev.moviegraph.engine.partiql.Ast.Returning;
import dev.moviegraph.engine.partiql.Ast.Source;
import dev.moviegraph.engine.partiql.Ast.Statement;
import dev.moviegraph.engine.partiql.Ast.Step;
import dev.moviegraph.engine.partiql.Lexer.Kind;
import dev.moviegraph.engine.partiql.Lexer.Token;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A recursive-descent parser of the PartiQL DynamoDB runs, one method per rule of this grammar
 * (keywords case-insensitive; {@code name} is a bare word that is no keyword, or a double-quoted name):
 *
 * <pre>
 * statement   = ( select | insert | update | delete ) [ ";" ] EOF ;
 * select      = "SELECT" projection "FROM" source [ "WHERE" condition ] ;
 * projection  = "*" | path { "," path } ;
 * source      = name [ "." name ] ;                      (* a table, or "table"."index" *)
 * insert      = "INSERT" "INTO" source "VALUE" term ;
 * update      = "UPDATE" source clause { clause } [ "WHERE" condition ] [ returning ] ;
 * clause      = "SET" assignment { "," assignment } | "REMOVE" path { "," path } ;
 * assignment  = path "=" term ;
 * delete      = "DELETE" "FROM" source [ "WHERE" condition ] [ returning ] ;
 * returning   = "RETURNING" ( "ALL" | "MODIFIED" ) ( "OLD" | "NEW" ) "*" ;
 * condition   = conjunction { "OR" conjunction } ;
 * conjunction = negation { "AND" negation } ;
 * negation    = "NOT" negation | predicate ;
 * predicate   = term [ compare term
 *                    | [ "NOT" ] "BETWEEN" term "AND" term
 *                    | [ "NOT" ] "IN" ( "(" term { "," term } ")" | "[" term { "," term } "]" )
 *                    | "IS" [ "NOT" ] typeName ] ;
 * compare     = "=" | "&lt;&gt;" | "!=" | "&lt;" | "&lt;=" | "&gt;" | "&gt;=" ;
 * term        = primary { ( "+" | "-" ) primary } ;
 * primary     = string | [ "-" | "+" ] number | "TRUE" | "FALSE" | "NULL" | "MISSING" | "?"
 *             | word "(" [ condition { "," condition } ] ")"          (* a function *)
 *             | path | "(" condition ")"
 *             | "{" [ string ":" term { "," string ":" term } ] "}"   (* a map *)
 *             | "[" [ term { "," term } ] "]"                         (* a list *)
 *             | "&lt;&lt;" [ term { "," term } ] "&gt;&gt;" ;                      (* a set *)
 * path        = name { "." name | "[" number "]" } ;
 * typeName    = "MISSING" | "NULL" | "BOOLEAN" | "STRING" | "NUMERIC" | "BLOB" | "LIST" | "STRUCT" | "TUPLE" ;
 * </pre>
 *
 * Errors carry DynamoDB's own details: "Unexpected term" where a term should start, "Unexpected keyword" and
 * "Unexpected operator" for a keyword or operator there, "Unexpected token after expression" for anything
 * after a complete statement.
 */
final class Parser {
    /** Words that are never a bare name. */
    static final int MAX_DEPTH = 200;
    private static final Set<String> KEYWORDS = Set.of("SELECT", "FROM", "WHERE", "AND", "OR", "NOT", "BETWEEN", "IN",
            "IS", "MISSING", "NULL", "TRUE", "FALSE", "SET", "REMOVE", "RETURNING", "VALUE", "VALUES", "INSERT", "INTO",
            "UPDATE", "DELETE", "ORDER", "BY", "AS", "LIKE", "GROUP", "HAVING", "LIMIT", "UPSERT", "REPLACE", "EXISTS",
            "CREATE", "DROP", "ALTER", "TABLE", "INDEX", "UNION", "JOIN", "ON", "CASE", "WHEN", "THEN", "ELSE", "END");
    private static final Set<String> COMPARISONS = Set.of("=", "<>", "!=", "<", "<=", ">", ">=");
    private static final Set<String> TYPES = Set.of("MISSING", "NULL", "BOOLEAN", "STRING", "NUMERIC", "BLOB", "LIST",
            "STRUCT", "TUPLE");

    private final List<Token> tokens;
    private int at;
    private int parameters;
    /** How deep the terms being read are nested: a bound keeps hostile nesting off the thread's stack. */
    private int depth;

    private Parser(List<Token> tokens) {
        this.tokens = tokens;
    }

    /** The statement, or DynamoDB's ValidationException for text it does not accept. */
    static Statement parse(String text) {
        return new Parser(Lexer.tokens(text)).statement();
    }

    private Statement statement() {
        Token first = peek();
        Statement statement;
        if (first.isWord("SELECT")) {
            statement = select();
        } else if (first.isWord("INSERT")) {
            statement = insert();
        } else if (first.isWord("UPDATE")) {
            statement = update();
        } else if (first.isWord("DELETE")) {
            statement = delete();
        } else {
            throw malformed(first.kind() == Kind.EOF || first.is(";") ? "Unexpected term" : "Expected data manipulation");
        }
        accept(";");
        if (peek().kind() != Kind.EOF) {
            throw malformed("Unexpected token after expression");
        }
        return statement;
    }

    private Statement select() {
        next();
        List<Path> projection = new ArrayList<>();
        if (accept("*")) {
            if (peek().is(",")) {
                throw ApiException.validation("Other attributes should not be present in the projection when '*' is used.");
            }
        } else {
            do {
                if (peek().is("*")) {
                    throw ApiException.validation("Other attributes should not be present in the projection when '*' is"
                            + " used.");
                }
                projection.add(path());
            } while (accept(","));
        }
        word("FROM");
        Source source = source(true);
        Expr where = acceptWord("WHERE") ? condition() : null;
        return new Ast.Select(projection, source, where, parameters);
    }

    private Statement insert() {
        next();
        word("INTO");
        Source source = source(false);
        if (!acceptWord("VALUE")) {
            throw malformed(peek().isWord("VALUES") ? "Expected data manipulation" : "Unexpected token after expression");
        }
        Expr value = term();
        if (value instanceof Ast.BagLit) {
            throw ApiException.validation("Unsupported operation: Inserting multiple items in a single statement is not"
                    + " supported, use \"INSERT INTO tableName VALUE item\" instead");
        }
        if (peek().isWord("RETURNING")) {
            throw ApiException.validation("RETURNING is not supported in INSERT");
        }
        return new Ast.Insert(source, value, parameters);
    }

    private Statement update() {
        next();
        Source source = source(true);
        List<Action> actions = new ArrayList<>();
        while (true) {
            if (acceptWord("SET")) {
                do {
                    Path path = path();
                    expect("=");
                    actions.add(new Ast.SetAction(path, term()));
                } while (accept(","));
            } else if (acceptWord("REMOVE")) {
                do {
                    actions.add(new Ast.RemoveAction(path()));
                } while (accept(","));
            } else {
                break;
            }
        }
        if (actions.isEmpty()) {
            throw malformed("Expected SET or REMOVE");
        }
        Expr where = acceptWord("WHERE") ? condition() : null;
        return new Ast.Update(source, actions, where, returning(), parameters);
    }

    private Statement delete() {
        next();
        word("FROM");
        Source source = source(true);
        Expr where = acceptWord("WHERE") ? condition() : null;
        return new Ast.Delete(source, where, returning(), parameters);
    }

    private Returning returning() {
        if (!acceptWord("RETURNING")) {
            return Returning.NONE;
        }
        boolean all = acceptWord("ALL");
        if (!all && !acceptWord("MODIFIED")) {
            throw malformed("Expected ( MODIFIED | ALL ) in RETURNING clause");
        }
        boolean old = acceptWord("OLD");
        if (!old && !acceptWord("NEW")) {
            throw malformed("Expected ( NEW | OLD ) in RETURNING clause");
        }
        if (!accept("*")) {
            throw ApiException.validation("Expected '*' after ( MODIFIED | ALL ) ( NEW | OLD ) in RETURNING clause");
        }
        return all ? (old ? Returning.ALL_OLD : Returning.ALL_NEW) : (old ? Returning.MODIFIED_OLD : Returning.MODIFIED_NEW);
    }

    /** A table or {@code table.index}; an alias after it is refused as DynamoDB refuses it. */
    private Source source(boolean aliasRefused) {
        if (!isName(peek())) {
            // SELECT's FROM takes any expression, DML's only a name: DynamoDB's two details
            boolean dml = !tokens.get(0).isWord("SELECT");
            throw malformed(dml && (peek().kind() == Kind.EOF || peek().is(";") || peek().isWord("WHERE"))
                    ? "Expected identifier for simple path" : "Unexpected term");
        }
        String table = name();
        String index = accept(".") ? name() : null;
        if (aliasRefused && (peek().isWord("AS") || isName(peek()) && peek().kind() == Kind.WORD)) {
            throw ApiException.validation("Aliasing is not supported");
        }
        return new Source(table, index);
    }

    // ---- conditions ----

    private Expr condition() {
        Expr left = conjunction();
        while (acceptWord("OR")) {
            rightHandSide();
            left = new Ast.Or(left, conjunction());
        }
        return left;
    }

    private Expr conjunction() {
        Expr left = negation();
        while (acceptWord("AND")) {
            rightHandSide();
            left = new Ast.And(left, negation());
        }
        return left;
    }

    /** After an infix operator something must follow. */
    private void rightHandSide() {
        if (peek().kind() == Kind.EOF || peek().is(";")) {
            throw malformed("Missing right-hand side expression of infix operator");
        }
    }

    private Expr negation() {
        if (acceptWord("NOT")) {
            enter();
            try {
                return new Ast.Not(negation());
            } finally {
                depth--;
            }
        }
        return predicate();
    }

    /**
     * One level deeper into the statement. 8,192 characters of "(" or "NOT" would overflow the stack of a
     * recursive descent; DynamoDB refuses such a statement, and so does this one, past a depth no real
     * statement reaches.
     */
    private void enter() {
        if (++depth > MAX_DEPTH) {
            throw malformed("Expression nested too deeply");
        }
    }

    private Expr predicate() {
        Expr left = term();
        Token token = peek();
        if (token.kind() == Kind.PUNCT && COMPARISONS.contains(token.text())) {
            next();
            rightHandSide();
            return new Ast.Compare(token.text().equals("!=") ? "<>" : token.text(), left, term());
        }
        boolean negated = false;
        if (token.isWord("NOT") && (peek(1).isWord("BETWEEN") || peek(1).isWord("IN"))) {
            next();
            negated = true;
        }
        if (acceptWord("BETWEEN")) {
            Expr low = term();
            word("AND");
            Expr between = new Ast.Between(left, low, term());
            return negated ? new Ast.Not(between) : between;
        }
        if (acceptWord("IN")) {
            String close = accept("(") ? ")" : accept("[") ? "]" : null;
            if (close == null) {
                throw ApiException.validation("IN operator must have a left hand argument of type Variable Reference and"
                        + " right hand argument of type Seq with at least one member");
            }
            List<Expr> options = new ArrayList<>();
            do {
                options.add(term());
            } while (accept(","));
            expect(close);
            Expr in = new Ast.In(left, options);
            return negated ? new Ast.Not(in) : in;
        }
        if (acceptWord("IS")) {
            boolean not = acceptWord("NOT");
            Token type = next();
            String name = type.text().toUpperCase(Locale.ROOT);
            if (type.kind() != Kind.WORD || !TYPES.contains(name)) {
                throw malformed("Expected type name");
            }
            return new Ast.Is(left, name, not);
        }
        return left;
    }

    private Expr term() {
        Expr left = primary();
        while (peek().is("+") || peek().is("-")) {
            char op = next().text().charAt(0);
            rightHandSide();
            left = new Ast.Arith(op, left, primary());
        }
        return left;
    }

    private Expr primary() {
        enter();
        try {
            return primaryTerm();
        } finally {
            depth--;
        }
    }

    private Expr primaryTerm() {
        Token token = peek();
        switch (token.kind()) {
            case STRING -> {
                next();
                return new Ast.Str(token.text());
            }
            case NUMBER -> {
                next();
                return new Ast.Num(token.text());
            }
            case QUOTED -> {
                return new Ast.PathRef(path());
            }
            case WORD -> {
                return word(token);
            }
            case EOF -> throw malformed("Unexpected term");
            default -> {
                return punctuation(token);
            }
        }
    }

    private Expr word(Token token) {
        String upper = token.text().toUpperCase(Locale.ROOT);
        switch (upper) {
            case "TRUE", "FALSE" -> {
                next();
                return new Ast.Bool(upper.equals("TRUE"));
            }
            case "NULL" -> {
                next();
                return new Ast.Null();
            }
            case "MISSING" -> {
                next();
                return new Ast.Missing();
            }
            default -> {
            }
        }
        if (peek(1).is("(") && !upper.equals("NOT")) {
            next();
            next();
            List<Expr> args = new ArrayList<>();
            if (!peek().is(")")) {
                do {
                    args.add(condition());
                } while (accept(","));
            }
            expect(")");
            return new Ast.Call(token.text().toLowerCase(Locale.ROOT), args);
        }
        if (KEYWORDS.contains(upper)) {
            throw malformed(upper.equals("IS") || upper.equals("LIKE") ? "Unexpected operator" : "Unexpected keyword");
        }
        return new Ast.PathRef(path());
    }

    private Expr punctuation(Token token) {
        switch (token.text()) {
            case "?" -> {
                next();
                return new Ast.Param(parameters++);
            }
            case "-", "+" -> {
                if (peek(1).kind() == Kind.NUMBER) {
                    next();
                    String digits = next().text();
                    return new Ast.Num(token.text().equals("-") ? "-" + digits : digits);
                }
                throw malformed("Unexpected operator");
            }
            case "(" -> {
                next();
                Expr inner = condition();
                expect(")");
                return inner;
            }
            case "{" -> {
                next();
                List<Ast.Entry> entries = new ArrayList<>();
                if (!peek().is("}")) {
                    do {
                        Token key = next();
                        if (key.kind() != Kind.STRING) {
                            throw malformed("Expected a string key in a tuple");
                        }
                        expect(":");
                        entries.add(new Ast.Entry(key.text(), term()));
                    } while (accept(","));
                }
                expect("}");
                return new Ast.MapLit(entries);
            }
            case "[" -> {
                next();
                return new Ast.ListLit(values("]"));
            }
            case "<<" -> {
                next();
                return new Ast.BagLit(values(">>"));
            }
            case ";", ")", "]", "}", ",", ">>" -> throw malformed("Unexpected term");
            default -> throw malformed("Unexpected operator");
        }
    }

    private List<Expr> values(String close) {
        List<Expr> values = new ArrayList<>();
        if (!peek().is(close)) {
            do {
                values.add(term());
            } while (accept(","));
        }
        expect(close);
        return values;
    }

    private Path path() {
        List<Step> steps = new ArrayList<>();
        steps.add(new Ast.Name(name()));
        while (true) {
            if (accept(".")) {
                steps.add(new Ast.Name(name()));
            } else if (accept("[")) {
                Token index = next();
                if (index.kind() != Kind.NUMBER || !index.text().chars().allMatch(Character::isDigit)) {
                    throw malformed("Unexpected path component");
                }
                try {
                    steps.add(new Ast.Index(Integer.parseInt(index.text())));
                } catch (NumberFormatException e) {
                    throw ApiException.validation("List index is not within the allowable range; index: ["
                            + index.text() + "]");
                }
                expect("]");
            } else {
                return new Path(steps);
            }
        }
    }

    private String name() {
        Token token = peek();
        if (!isName(token)) {
            if (token.kind() == Kind.EOF || token.is(";")) {
                throw malformed("Expected identifier for simple path");
            }
            throw malformed(token.kind() == Kind.WORD ? "Unexpected keyword" : "Unexpected term");
        }
        next();
        if (token.text().isEmpty()) {
            throw ApiException.validation("Path component cannot be an empty string");
        }
        return token.text();
    }

    private static boolean isName(Token token) {
        return token.kind() == Kind.QUOTED
                || token.kind() == Kind.WORD && !KEYWORDS.contains(token.text().toUpperCase(Locale.ROOT));
    }

    // ---- tokens ----

    private Token peek() {
        return tokens.get(at);
    }

    private Token peek(int ahead) {
        return tokens.get(Math.min(at + ahead, tokens.size() - 1));
    }

    private Token next() {
        Token token = tokens.get(at);
        if (token.kind() != Kind.EOF) {
            at++;
        }
        return token;
    }

    private boolean accept(String punct) {
        if (peek().is(punct)) {
            next();
            return true;
        }
        return false;
    }

    private boolean acceptWord(String word) {
        if (peek().isWord(word)) {
            next();
            return true;
        }
        return false;
    }

    private void expect(String punct) {
        if (!accept(punct)) {
            throw malformed(peek().kind() == Kind.EOF ? "Unexpected end of statement, expected '" + punct + "'"
                    : "Expected '" + punct + "'");
        }
    }

    private void word(String word) {
        if (!acceptWord(word)) {
            throw malformed(peek().kind() == Kind.EOF ? "Unexpected term" : "Expected " + word);
        }
    }
}
