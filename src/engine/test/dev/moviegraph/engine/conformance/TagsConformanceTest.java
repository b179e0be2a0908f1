package dev.moviegraph.engine.conformance;

import static dev.moviegraph.engine.conformance.Conformance.createTable;
import static dev.moviegraph.engine.conformance.Conformance.message;
import static dev.moviegraph.engine.conformance.Conformance.refused;
import static dev.moviegraph.engine.conformance.Conformance.validation;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moviegraph.engine.Engine;
import dev.moviegraph.engine.EngineOptions;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.ListTagsOfResourceResponse;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.Tag;

/**
 * Tags on a table, named by its ARN: TagResource adds or overwrites, UntagResource removes, ListTagsOfResource
 * lists; CreateTable's Tags; DynamoDB's refusals of a bad ARN, of empty lists, of keys and values out of their
 * lengths, of aws: keys and of more than 50 tags; and the tags kept over a restart on a data directory.
 */
class TagsConformanceTest {
    private static Engine engine;
    private static DynamoDbClient dynamo;

    @BeforeAll
    static void start() {
        engine = Engine.start(EngineOptions.inMemory());
        dynamo = Conformance.dynamo(engine);
    }

    @AfterAll
    static void stop() {
        if (dynamo != null) {
            dynamo.close();
        }
        if (engine != null) {
            engine.close();
        }
    }

    private static Tag tag(String key, String value) {
        return Tag.builder().key(key).value(value).build();
    }

    private static String arnOf(DynamoDbClient client, String table) {
        return client.describeTable(d -> d.tableName(table)).table().tableArn();
    }

    private static Map<String, String> tagsOf(DynamoDbClient client, String arn) {
        ListTagsOfResourceResponse response = client.listTagsOfResource(l -> l.resourceArn(arn));
        Map<String, String> tags = new LinkedHashMap<>();
        response.tags().forEach(tag -> tags.put(tag.key(), tag.value()));
        return tags;
    }

    @Test
    void tagsAreAddedOverwrittenListedAndRemoved() {
        String arn = arnOf(dynamo, createTable(dynamo, "tags", null));
        assertEquals(Map.of(), tagsOf(dynamo, arn));
        assertEquals(200, dynamo.tagResource(t -> t.resourceArn(arn).tags(tag("env", "test"), tag("team", "data")))
                .sdkHttpResponse().statusCode());
        dynamo.tagResource(t -> t.resourceArn(arn).tags(tag("env", "production"), tag("empty", "")));
        assertEquals(Map.of("env", "production", "team", "data", "empty", ""), tagsOf(dynamo, arn));
        dynamo.untagResource(u -> u.resourceArn(arn).tagKeys("team", "not-there"));
        assertEquals(Map.of("env", "production", "empty", ""), tagsOf(dynamo, arn));
        assertEquals(List.of("empty", "env"), new ArrayList<>(tagsOf(dynamo, arn).keySet()), "in key order");
        // a NextToken resumes after that key; all of a table's tags come in one page, so none is given back
        ListTagsOfResourceResponse page = dynamo.listTagsOfResource(l -> l.resourceArn(arn).nextToken("empty"));
        assertEquals(List.of(tag("env", "production")), page.tags());
        assertEquals(null, page.nextToken());
    }

    @Test
    void createTableTakesTags() {
        String table = createTable(dynamo, "tagged", null, c -> c.tags(tag("owner", "catalog"), tag("tier", "1")));
        assertEquals(Map.of("owner", "catalog", "tier", "1"), tagsOf(dynamo, arnOf(dynamo, table)));
        assertAll("CreateTable's Tags checked as TagResource's",
                refused("an aws: key", () -> createTable(dynamo, "tagged", null, c -> c.tags(tag("aws:x", "y"))),
                        "aws:"),
                refused("a key of 129 characters", () -> createTable(dynamo, "tagged", null,
                        c -> c.tags(tag("k".repeat(129), "v"))), "at 'tags.1.member.key'",
                        "Member must have length less than or equal to 128"));
    }

    @Test
    void aTableHoldsAtMostFiftyTags() {
        String arn = arnOf(dynamo, createTable(dynamo, "many", null));
        List<Tag> fifty = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            fifty.add(tag("k" + i, "v"));
        }
        dynamo.tagResource(t -> t.resourceArn(arn).tags(fifty));
        dynamo.tagResource(t -> t.resourceArn(arn).tags(tag("k7", "overwritten")));
        assertEquals(50, tagsOf(dynamo, arn).size());
        validation(() -> dynamo.tagResource(t -> t.resourceArn(arn).tags(tag("one-more", "v"))), "tag limit is 50");
        assertEquals(50, tagsOf(dynamo, arn).size());
    }

    @Test
    void badRequestsAreRefusedWithDynamoDbsMessages() {
        String arn = arnOf(dynamo, createTable(dynamo, "tagcheck", null));
        assertEquals("Invalid TableArn: Invalid ResourceArn provided as input not-a-valid-arn", message(validation(
                () -> dynamo.tagResource(t -> t.resourceArn("not-a-valid-arn").tags(tag("a", "b"))))));
        assertEquals("Invalid TableArn", message(validation(() -> dynamo.listTagsOfResource(l -> l.resourceArn(null)))));
        String shortName = "arn:aws:dynamodb:us-east-1:000000000000:table/ab";
        assertEquals("Invalid TableArn: Invalid ResourceArn provided as input " + shortName,
                message(validation(() -> dynamo.untagResource(u -> u.resourceArn(shortName).tagKeys("a")))));
        assertEquals("Atleast one Tag needs to be provided as Input.",
                message(validation(() -> dynamo.tagResource(t -> t.resourceArn(arn).tags(List.of())))));
        assertEquals("Atleast one Tag Key needs to be provided as Input.",
                message(validation(() -> dynamo.untagResource(u -> u.resourceArn(arn).tagKeys(List.of())))));
        assertEquals("1 validation error detected: Value null at 'tags' failed to satisfy constraint: Member must not"
                + " be null", message(validation(() -> dynamo.tagResource(t -> t.resourceArn(arn)))));
        assertEquals("2 validation errors detected: Value '' at 'tags.1.member.key' failed to satisfy constraint:"
                + " Member must have length greater than or equal to 1; Value '" + "v".repeat(257) + "' at"
                + " 'tags.2.member.value' failed to satisfy constraint: Member must have length less than or equal to"
                + " 256", message(validation(() -> dynamo.tagResource(t -> t.resourceArn(arn)
                .tags(tag("", "v"), tag("k", "v".repeat(257)))))));
        validation(() -> dynamo.tagResource(t -> t.resourceArn(arn).tags(tag("aws:cloudformation:stack", "s"))),
                "aws:");
        validation(() -> dynamo.untagResource(u -> u.resourceArn(arn).tagKeys("aws:cloudformation:stack")), "aws:");
    }

    @Test
    void theArnOfATableThatDoesNotExist() {
        String missing = "arn:aws:dynamodb:us-east-1:000000000000:table/no_such_table";
        DynamoDbException listed = assertThrows(DynamoDbException.class,
                () -> dynamo.listTagsOfResource(l -> l.resourceArn(missing)));
        assertEquals("AccessDeniedException", listed.awsErrorDetails().errorCode());
        assertTrue(message(listed).endsWith("dynamodb:ListTagsOfResource on resource: " + missing), message(listed));
        assertEquals("Requested resource not found: ResourcArn: " + missing + " not found",
                message(assertThrows(ResourceNotFoundException.class,
                        () -> dynamo.tagResource(t -> t.resourceArn(missing).tags(tag("a", "b"))))));
        assertThrows(ResourceNotFoundException.class,
                () -> dynamo.untagResource(u -> u.resourceArn(missing).tagKeys("a")));
        // a table of that name in another region is another table
        String table = createTable(dynamo, "elsewhere", null);
        String otherRegion = arnOf(dynamo, table).replace(":us-east-1:", ":eu-west-1:");
        assertThrows(ResourceNotFoundException.class,
                () -> dynamo.tagResource(t -> t.resourceArn(otherRegion).tags(tag("a", "b"))));
    }

    @Test
    void aDeletedAndRecreatedTableStartsWithoutTags() {
        String table = createTable(dynamo, "again", null, c -> c.tags(tag("old", "yes")));
        dynamo.deleteTable(d -> d.tableName(table));
        dynamo.createTable(c -> c.tableName(table).keySchema(Conformance.hash("pk"))
                .attributeDefinitions(Conformance.attribute("pk",
                        software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType.S))
                .billingMode(software.amazon.awssdk.services.dynamodb.model.BillingMode.PAY_PER_REQUEST));
        assertEquals(Map.of(), tagsOf(dynamo, arnOf(dynamo, table)));
    }

    @Test
    void tagsSurviveARestartOnADataDirectory(@TempDir Path dir) {
        String table;
        try (Engine first = Engine.start(EngineOptions.inMemory().withDataDir(dir));
             DynamoDbClient client = Conformance.dynamo(first)) {
            table = createTable(client, "kept", null, c -> c.tags(tag("created", "with-table")));
            String arn = arnOf(client, table);
            client.tagResource(t -> t.resourceArn(arn).tags(tag("added", "later"), tag("removed", "soon")));
            client.untagResource(u -> u.resourceArn(arn).tagKeys("removed"));
            client.updateTimeToLive(u -> u.tableName(table).timeToLiveSpecification(s -> s.enabled(true)
                    .attributeName("expires")));
        }
        try (Engine second = Engine.start(EngineOptions.inMemory().withDataDir(dir));
             DynamoDbClient client = Conformance.dynamo(second)) {
            assertEquals(Map.of("created", "with-table", "added", "later"), tagsOf(client, arnOf(client, table)));
            assertEquals("expires", client.describeTimeToLive(d -> d.tableName(table)).timeToLiveDescription()
                    .attributeName(), "the later declarations keep the tags and the tags keep the rest");
        }
    }
}
