package dev.moviegraph.engine.partiql;

import java.util.List;

/**
 * The parsed form of one PartiQL statement: immutable records, with nothing of any table or any request's
 * parameters in them (a {@code ?} is only its position), so one parse can be planned against any table.
 */
final class Ast {
    private Ast() {
    }

    /** One of the four statements DynamoDB runs. */
    sealed interface Statement permits Select, Insert, Update, Delete {
        /** The table (or table.index) the statement names. */
        Source source();

        /** How many {@code ?} the statement holds. */
        int parameters();
    }

    /** A table, or one of its indexes ({@code "table"."index"}). */
    record Source(String table, String index) {
    }

    /** {@code SELECT}: {@code projection} empty for {@code *}; {@code where} null when absent. */
    record Select(List<Path> projection, Source source, Expr where, int parameters) implements Statement {
        Select {
            projection = List.copyOf(projection);
        }
    }

    record Insert(Source source, Expr value, int parameters) implements Statement {
    }

    record Update(Source source, List<Action> actions, Expr where, Returning returning, int parameters)
            implements Statement {
        Update {
            actions = List.copyOf(actions);
        }
    }

    record Delete(Source source, Expr where, Returning returning, int parameters) implements Statement {
    }

    /** What a write statement gives back ({@code RETURNING ...}). */
    enum Returning {
        NONE, ALL_OLD, ALL_NEW, MODIFIED_OLD, MODIFIED_NEW;

        /** As written, for messages: {@code MODIFIED OLD *}. */
        String written() {
            return name().replace('_', ' ') + " *";
        }
    }

    /** One clause of an UPDATE: {@code SET path = value} or {@code REMOVE path}. */
    sealed interface Action permits SetAction, RemoveAction {
    }

    record SetAction(Path path, Expr value) implements Action {
    }

    record RemoveAction(Path path) implements Action {
    }

    /** A document path: a name, then names and list indexes. */
    record Path(List<Step> steps) {
        Path {
            steps = List.copyOf(steps);
        }

        /** The attribute the path starts at. */
        String first() {
            return ((Name) steps.get(0)).name();
        }

        boolean isTopLevel() {
            return steps.size() == 1;
        }

        /** The name an item of a SELECT shows this path's value under: its last name. */
        String lastName() {
            for (int i = steps.size() - 1; i >= 0; i--) {
                if (steps.get(i) instanceof Name name) {
                    return name.name();
                }
            }
            return first();
        }
    }

    sealed interface Step permits Name, Index {
    }

    record Name(String name) implements Step {
    }

    record Index(int index) implements Step {
    }

    /** An expression of a WHERE clause or of a SET value. */
    sealed interface Expr permits PathRef, Str, Num, Bool, Null, Missing, Param, MapLit, ListLit, BagLit, Compare, And,
            Or, Not, Between, In, Call, Is, Arith {
    }

    record PathRef(Path path) implements Expr {
    }

    record Str(String value) implements Expr {
    }

    /** A number literal as written (checked against DynamoDB's number rules when bound). */
    record Num(String text) implements Expr {
    }

    record Bool(boolean value) implements Expr {
    }

    record Null() implements Expr {
    }

    record Missing() implements Expr {
    }

    /** The {@code index}-th {@code ?} of the statement, from 0. */
    record Param(int index) implements Expr {
    }

    record MapLit(List<Entry> entries) implements Expr {
        MapLit {
            entries = List.copyOf(entries);
        }
    }

    record Entry(String key, Expr value) {
    }

    record ListLit(List<Expr> values) implements Expr {
        ListLit {
            values = List.copyOf(values);
        }
    }

    /** {@code <<...>>}: a set (PartiQL's bag). */
    record BagLit(List<Expr> values) implements Expr {
        BagLit {
            values = List.copyOf(values);
        }
    }

    /** {@code left op right}, op one of = <> < <= > >=. */
    record Compare(String op, Expr left, Expr right) implements Expr {
    }

    record And(Expr left, Expr right) implements Expr {
    }

    record Or(Expr left, Expr right) implements Expr {
    }

    record Not(Expr operand) implements Expr {
    }

    record Between(Expr value, Expr low, Expr high) implements Expr {
    }

    record In(Expr value, List<Expr> options) implements Expr {
        In {
            options = List.copyOf(options);
        }
    }

    /** A function call; {@code name} in lower case. */
    record Call(String name, List<Expr> args) implements Expr {
        Call {
            args = List.copyOf(args);
        }
    }

    /** {@code value IS [NOT] type}, type in upper case (MISSING, NULL, STRING, ...). */
    record Is(Expr value, String type, boolean negated) implements Expr {
    }

    /** {@code left + right} or {@code left - right} (SET values only). */
    record Arith(char op, Expr left, Expr right) implements Expr {
    }
}
