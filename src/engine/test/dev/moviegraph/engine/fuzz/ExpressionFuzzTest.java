package dev.moviegraph.engine.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.code_intelligence.jazzer.junit.DictionaryFile;
import com.code_intelligence.jazzer.junit.FuzzTest;

import dev.moviegraph.engine.error.ApiException;
import dev.moviegraph.engine.expr.Condition;
import dev.moviegraph.engine.expr.Expressions;
import dev.moviegraph.engine.expr.KeyCondition;
import dev.moviegraph.engine.expr.Placeholders;
import dev.moviegraph.engine.expr.Projection;
import dev.moviegraph.engine.expr.Update;
import dev.moviegraph.engine.value.Value;

import java.util.Map;

import org.junit.jupiter.api.Timeout;

/**
 * Hostile text for the four expression languages, with fuzzed placeholders: whatever the text, parsing (and
 * evaluating what parsed against an item of every type) ends in the answer or in a ValidationException, never in
 * another exception, a stack overflow or a hang. An input is a line of placeholders, then the expression text
 * ({@link ExpressionInput}). {@code mvn test} replays the kept inputs in ExpressionFuzzTestInputs/METHOD/;
 * JAZZER_FUZZ=1 fuzzes (src/bench/fuzz/run.sh).
 */
class ExpressionFuzzTest {
    private static final String VALIDATION = "com.amazon.coral.validate#ValidationException";

    @Timeout(10)
    @DictionaryFile(resourcePath = "expressions.dict")
    @FuzzTest(maxDuration = "3m")
    void conditionExpression(byte[] data) {
        expect(data, (input, p) -> {
            Condition condition = input.flags().contains("filter") ? Expressions.filter(input.text(), p)
                    : Expressions.condition(input.text(), p);
            condition.test(ExpressionInput.item());
            condition.test(Map.of());
            condition.topLevelNames();
        });
    }

    @Timeout(10)
    @DictionaryFile(resourcePath = "expressions.dict")
    @FuzzTest(maxDuration = "3m")
    void updateExpression(byte[] data) {
        expect(data, (input, p) -> {
            Update update = Expressions.update(input.text(), p);
            update.topLevelNames();
            Map<String, Value> updated = update.apply(ExpressionInput.item());
            update.updatedPart(updated);
            update.apply(Map.of());
        });
    }

    @Timeout(10)
    @DictionaryFile(resourcePath = "expressions.dict")
    @FuzzTest(maxDuration = "3m")
    void projectionExpression(byte[] data) {
        expect(data, (input, p) -> {
            Projection projection = Expressions.projection(input.text(), p);
            projection.apply(ExpressionInput.item());
            projection.topLevelNames();
        });
    }

    @Timeout(10)
    @DictionaryFile(resourcePath = "expressions.dict")
    @FuzzTest(maxDuration = "3m")
    void keyConditionExpression(byte[] data) {
        expect(data, (input, p) -> {
            String sortKey = input.flags().contains("nosort") ? null : "sk";
            KeyCondition keys = Expressions.keyCondition(input.text(), p, "pk", sortKey);
            if (keys.sort() != null) {
                keys.sort().matches(Value.n(1));
                keys.sort().matches(new Value.S("p"));
            }
        });
    }

    /** One expression's parse and use, given the input and the request's placeholders. */
    private interface Use {
        void run(ExpressionInput input, Placeholders placeholders);
    }

    private static void expect(byte[] data, Use use) {
        ExpressionInput input = ExpressionInput.parse(data);
        Placeholders placeholders = new Placeholders(input.names(), input.values());
        String text = input.text();
        try {
            use.run(input, placeholders);
            placeholders.requireAllUsed();
        } catch (ApiException e) {
            assertEquals(VALIDATION, e.type(), () -> "not a ValidationException for " + quoted(text) + ": "
                    + e.getMessage());
            assertEquals(400, e.status());
        }
    }

    private static String quoted(String text) {
        return '"' + (text.length() > 200 ? text.substring(0, 200) + "..." : text) + '"';
    }
}
