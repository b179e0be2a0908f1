package dev.moviegraph.engine.partiql;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.moviegraph.engine.error.ApiException;
import dev.moviegraph.engine.partiql.Ast.Path;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** The PartiQL grammar: what each statement parses to, and DynamoDB's detail for text it refuses. */
class ParserTest {
    private static final String MALFORMED = "Statement wasn't well formed, can't be processed: ";

    private static Path path(Ast.Step... steps) {
        return new Path(List.of(steps));
    }

    private static Ast.Name name(String name) {
        return new Ast.Name(name);
    }

    @Test
    void selectWithProjectionIndexAndCondition() {
        Ast.Select select = (Ast.Select) Parser.parse(
                "select a, \"b\".c[2] FROM \"T\".\"byX\" WHERE pk = 'x' AND (n >= -1.5e3 OR NOT begins_with(s, ?));");
        assertEquals(List.of(path(name("a")), path(name("b"), name("c"), new Ast.Index(2))), select.projection());
        assertEquals(new Ast.Source("T", "byX"), select.source());
        assertEquals(1, select.parameters());
        Ast.And and = assertInstanceOf(Ast.And.class, select.where());
        assertEquals(new Ast.Compare("=", new Ast.PathRef(path(name("pk"))), new Ast.Str("x")), and.left());
        Ast.Or or = assertInstanceOf(Ast.Or.class, and.right());
        assertEquals(new Ast.Compare(">=", new Ast.PathRef(path(name("n"))), new Ast.Num("-1.5e3")), or.left());
        assertEquals(new Ast.Not(new Ast.Call("begins_with", List.of(new Ast.PathRef(path(name("s"))), new Ast.Param(0)))),
                or.right());
    }

    @Test
    void predicates() {
        Ast.Select select = (Ast.Select) Parser.parse("SELECT * FROM t WHERE a BETWEEN 1 AND 5 AND b IN [1, 'x']"
                + " AND c NOT IN (2) AND d IS NOT MISSING AND e IS NULL AND f <> g AND h != 1");
        List<Ast.Expr> terms = Planner.conjuncts(select.where());
        assertEquals(7, terms.size());
        assertEquals(new Ast.Between(new Ast.PathRef(path(name("a"))), new Ast.Num("1"), new Ast.Num("5")), terms.get(0));
        assertEquals(new Ast.In(new Ast.PathRef(path(name("b"))), List.of(new Ast.Num("1"), new Ast.Str("x"))),
                terms.get(1));
        assertInstanceOf(Ast.Not.class, terms.get(2));
        assertEquals(new Ast.Is(new Ast.PathRef(path(name("d"))), "MISSING", true), terms.get(3));
        assertEquals(new Ast.Is(new Ast.PathRef(path(name("e"))), "NULL", false), terms.get(4));
        assertEquals("<>", ((Ast.Compare) terms.get(6)).op());
    }

    @Test
    void insertWithValuesOfEveryKind() {
        Ast.Insert insert = (Ast.Insert) Parser.parse("INSERT INTO \"T\" VALUE {'pk': ?, 'it''s': 'o''k', 'l': [1, true,"
                + " null], 's': <<'a', 'b'>>, 'm': {'x': false}}");
        Ast.MapLit map = assertInstanceOf(Ast.MapLit.class, insert.value());
        assertEquals(new Ast.Entry("pk", new Ast.Param(0)), map.entries().get(0));
        assertEquals(new Ast.Entry("it's", new Ast.Str("o'k")), map.entries().get(1));
        assertEquals(new Ast.ListLit(List.of(new Ast.Num("1"), new Ast.Bool(true), new Ast.Null())),
                map.entries().get(2).value());
        assertEquals(new Ast.BagLit(List.of(new Ast.Str("a"), new Ast.Str("b"))), map.entries().get(3).value());
        assertEquals(1, insert.parameters());
    }

    @Test
    void updateWithClausesAndReturning() {
        Ast.Update update = (Ast.Update) Parser.parse("UPDATE t SET a = a + 1, b = list_append(b, [2]) REMOVE c.d"
                + " SET e = set_add(e, <<'x'>>) WHERE pk = 'k' -- a comment\n RETURNING MODIFIED NEW *");
        assertEquals(4, update.actions().size());
        assertEquals(new Ast.SetAction(path(name("a")), new Ast.Arith('+', new Ast.PathRef(path(name("a"))),
                new Ast.Num("1"))), update.actions().get(0));
        assertEquals(new Ast.RemoveAction(path(name("c"), name("d"))), update.actions().get(2));
        assertEquals(Ast.Returning.MODIFIED_NEW, update.returning());
    }

    @Test
    void deleteWithReturning() {
        Ast.Delete delete = (Ast.Delete) Parser.parse("delete from /* the table */ \"T\" where pk = 1 returning all old *");
        assertEquals(Ast.Returning.ALL_OLD, delete.returning());
        assertEquals(new Ast.Source("T", null), delete.source());
    }

    private static Executable refused(String statement, String message) {
        return () -> assertEquals(message, assertThrows(ApiException.class, () -> Parser.parse(statement)).getMessage(),
                statement);
    }

    @Test
    void syntaxErrorsHaveDynamoDbsDetails() {
        assertAll(
                refused("SELECTT * FROMM \"T\"", MALFORMED + "Expected data manipulation"),
                refused("SELECT * FROM t WHERE pk = 1 foo", MALFORMED + "Unexpected token after expression"),
                refused("SELECT * FROM t WHERE pk = 1)", MALFORMED + "Unexpected token after expression"),
                refused("SELECT * FROM t WHERE", MALFORMED + "Unexpected term"),
                refused("SELECT * FROM t WHERE NOT", MALFORMED + "Unexpected term"),
                refused("SELECT * FROM t WHERE pk = 'a' AND", MALFORMED + "Missing right-hand side expression of infix"
                        + " operator"),
                refused("SELECT * FROM t WHERE pk = 'a' OR", MALFORMED + "Missing right-hand side expression of infix"
                        + " operator"),
                refused("SELECT * FROM t WHERE ORDER BY pk", MALFORMED + "Unexpected keyword"),
                refused("SELECT * FROM t WHERE IS NULL", MALFORMED + "Unexpected operator"),
                refused("SELECT * FROM t WHERE pk = 'a' AND x IS FOO", MALFORMED + "Expected type name"),
                refused("DELETE FROM", MALFORMED + "Expected identifier for simple path"),
                refused("DELETE FROM WHERE pk = 'a'", MALFORMED + "Expected identifier for simple path"),
                refused("SELECT * FROM", MALFORMED + "Unexpected term"),
                refused("SELECT * FROM t WHERE pk = 1 # note", MALFORMED),
                refused("SELECT * FROM t WHERE pk = 1 /* note", MALFORMED),
                refused("SELECT * FROM t WHERE pk = 'open", MALFORMED),
                refused("", MALFORMED + "Unexpected term"),
                refused("SELECT * FROM \"T\" x WHERE pk = 'x'", "Aliasing is not supported"),
                refused("SELECT * FROM \"T\" AS x WHERE pk = 'x'", "Aliasing is not supported"),
                refused("SELECT *, a FROM t", "Other attributes should not be present in the projection when '*' is used."),
                refused("INSERT INTO t VALUE {'pk': 1} RETURNING ALL OLD *", "RETURNING is not supported in INSERT"),
                refused("INSERT INTO t VALUE <<{'pk': 1}, {'pk': 2}>>", "Unsupported operation: Inserting multiple items"
                        + " in a single statement is not supported, use \"INSERT INTO tableName VALUE item\" instead"),
                refused("UPDATE t SET a = 1 WHERE pk = 1 RETURNING ALL NEW", "Expected '*' after ( MODIFIED | ALL ) ( NEW"
                        + " | OLD ) in RETURNING clause"));
    }

    @Test
    void nestingPastAnyRealStatementIsRefusedNotAStackOverflow() throws Exception {
        // 8,192 characters (the longest statement DynamoDB takes) of nesting, parsed on a thread with a server
        // thread's stack (1 MB, the JVM's default that Jetty's threads get) in a cold JVM, whose interpreted
        // frames are the largest: a refusal, where unbounded recursion overflowed it. (256 KB, tried before, is
        // less than the parser's 200 levels need before the JIT compiles it: the test failed alone, passed in
        // the suite.)
        String parentheses = "SELECT * FROM t WHERE " + "(".repeat(4000) + "a = 1" + ")".repeat(4000);
        String negations = "SELECT * FROM t WHERE " + "NOT ".repeat(2000) + "a = 1";
        String lists = "INSERT INTO t VALUE {'pk': " + "[".repeat(4000) + "1" + "]".repeat(4000) + "}";
        for (String statement : List.of(parentheses, negations, lists)) {
            Throwable[] thrown = new Throwable[1];
            Thread parser = new Thread(null, () -> {
                try {
                    Parser.parse(statement);
                } catch (Throwable e) {
                    thrown[0] = e;
                }
            }, "server-stack", 1024 * 1024);
            parser.start();
            parser.join();
            ApiException refused = assertInstanceOf(ApiException.class, thrown[0]);
            assertEquals("Statement wasn't well formed, can't be processed: Expression nested too deeply",
                    refused.getMessage());
        }
        Parser.parse("SELECT * FROM t WHERE " + "(".repeat(50) + "a = 1" + ")".repeat(50));
    }
}
