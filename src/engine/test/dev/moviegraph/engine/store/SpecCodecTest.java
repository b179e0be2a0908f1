package dev.moviegraph.engine.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.moviegraph.engine.table.KeySchema;
import dev.moviegraph.engine.table.TableSpec;

import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** A table's declaration written and read back with its tags; a declaration of the layout before tags still reads. */
class SpecCodecTest {
    private static final TableSpec SPEC = new TableSpec("films", "id-1", Instant.parse("2024-05-01T00:00:00Z"),
            new KeySchema("pk", "S", null, null), Map.of("pk", "S"), "PAY_PER_REQUEST", 0, 0, List.of(), null, null,
            "expires", "ACTIVE");

    private static byte[] written(TableSpec spec) {
        Codec.Out out = new Codec.Out(256);
        Codec.spec(out, spec);
        return Arrays.copyOf(out.bytes, out.size);
    }

    @Test
    void tagsAreWrittenAndReadBack() {
        TableSpec tagged = SPEC.withTags(Map.of("env", "prod", "empty", ""));
        byte[] bytes = written(tagged);
        assertEquals(tagged, Codec.spec(new Codec.In(bytes, 0, bytes.length)));
    }

    @Test
    void aDeclarationOfTheFirstLayoutReadsWithoutTags() {
        // the first layout is this one without the tag count at the end (0 here, one byte) and with version 1
        byte[] current = written(SPEC);
        byte[] first = Arrays.copyOf(current, current.length - 1);
        first[0] = 1;
        assertEquals(SPEC, Codec.spec(new Codec.In(first, 0, first.length)));
    }
}
