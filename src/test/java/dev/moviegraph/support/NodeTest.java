package dev.moviegraph.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

/** The one outcome of a JavaScript test on a machine without Node: a failure that says what to install. */
class NodeTest {
    @Test
    void aMissingNodeFailsWithTheMessageNamingWhatToInstall() {
        // An executable that is on no PATH stands for node on a machine without Node.
        AssertionError missing = assertThrows(AssertionError.class,
                () -> Node.run(List.of("moviegraph-test-no-such-node", "--version"), 30));

        assertTrue(missing.getMessage().startsWith("this test runs JavaScript and could not start "
                + "`moviegraph-test-no-such-node`: install Node.js 20 or newer (with npm) and put it on the PATH"),
                missing.getMessage());
    }

    @Test
    void anInstalledNodeRunsAndGivesItsOutput() {
        Node.Result version = Node.run(List.of("node", "--version"), 30);

        assertEquals(0, version.exitCode(), version.toString());
        assertTrue(version.stdout().startsWith("v"), version.toString());
    }
}
