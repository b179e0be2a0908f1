package dev.moviegraph.engine.legacy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.moviegraph.engine.error.ApiException;

import org.junit.jupiter.api.Test;

/** The rewriting of legacy parameters into expressions, and DynamoDB's refusals, on request JSON alone. */
class LegacyParametersTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode json(String text) {
        try {
            return JSON.readTree(text.replace('\'', '"'));
        } catch (Exception e) {
            throw new IllegalArgumentException(text, e);
        }
    }

    private static JsonNode translate(String operation, String request) {
        return LegacyParameters.translate(operation, json(request));
    }

    private static void refused(String operation, String request, String message) {
        ApiException e = assertThrows(ApiException.class, () -> translate(operation, request));
        assertEquals(message, e.getMessage());
    }

    @Test
    void requestWithoutLegacyParametersIsReturnedAsItCame() {
        JsonNode request = json("{'TableName':'t','Key':{'pk':{'S':'a'}},'ProjectionExpression':'a'}");
        assertSame(request, LegacyParameters.translate("GetItem", request));
    }

    @Test
    void attributesToGetBecomesAProjectionOfLiteralNames() {
        JsonNode out = translate("GetItem", "{'TableName':'t','Key':{'pk':{'S':'a'}},'AttributesToGet':['a.b','name']}");
        assertEquals("#legacy0, #legacy1", out.get("ProjectionExpression").asText());
        assertEquals(json("{'#legacy0':'a.b','#legacy1':'name'}"), out.get("ExpressionAttributeNames"));
        assertFalse(out.has("AttributesToGet"));
    }

    @Test
    void expectedFormsBecomeOneConditionJoinedByTheConditionalOperator() {
        JsonNode out = translate("PutItem", "{'TableName':'t','Item':{},'ConditionalOperator':'OR','Expected':{"
                + "'a':{'Exists':false},'b':{'Value':{'S':'x'}},'c':{'Exists':true,'Value':{'N':'1'}},"
                + "'d':{'ComparisonOperator':'NOT_CONTAINS','AttributeValueList':[{'S':'y'}]},"
                + "'e':{'ComparisonOperator':'IN','AttributeValueList':[{'N':'1'},{'N':'2'}]}}}");
        assertEquals("attribute_not_exists(#legacy0) OR #legacy1 = :legacy2 OR #legacy3 = :legacy4"
                        + " OR (attribute_exists(#legacy5) AND NOT contains(#legacy5, :legacy6))"
                        + " OR #legacy7 IN (:legacy8, :legacy9)",
                out.get("ConditionExpression").asText());
        assertEquals(json("{'S':'y'}"), out.get("ExpressionAttributeValues").get(":legacy6"));
        assertFalse(out.has("Expected") || out.has("ConditionalOperator"));
    }

    @Test
    void attributeUpdatesBecomeOneUpdateExpression() {
        JsonNode out = translate("UpdateItem", "{'TableName':'t','Key':{'pk':{'S':'a'}},'AttributeUpdates':{"
                + "'a':{'Value':{'S':'x'}},'b':{'Action':'DELETE'},'c':{'Action':'ADD','Value':{'N':'1'}},"
                + "'d':{'Action':'DELETE','Value':{'SS':['x']}},'e':{'Action':'ADD','Value':{'L':[{'S':'x'}]}}}}");
        assertEquals("SET #legacy0 = :legacy1, #legacy7 = list_append(if_not_exists(#legacy7, :legacy8), :legacy9)"
                        + " REMOVE #legacy2 ADD #legacy3 :legacy4 DELETE #legacy5 :legacy6",
                out.get("UpdateExpression").asText());
        assertEquals(json("{'L':[]}"), out.get("ExpressionAttributeValues").get(":legacy8"));
        assertFalse(out.has("AttributeUpdates"));
    }

    @Test
    void keyConditionsStandBesideTheUsersOwnExpressionsWithoutClashingPlaceholders() {
        JsonNode out = translate("Query", "{'TableName':'t','KeyConditions':{'pk':{'ComparisonOperator':'EQ',"
                + "'AttributeValueList':[{'S':'a'}]},'sk':{'ComparisonOperator':'BETWEEN','AttributeValueList':"
                + "[{'N':'1'},{'N':'5'}]}},'FilterExpression':'#legacy0 = :legacy1',"
                + "'ExpressionAttributeNames':{'#legacy0':'x'},'ExpressionAttributeValues':{':legacy1':{'S':'y'}}}");
        assertEquals("#legacy_0 = :legacy_1 AND #legacy_2 BETWEEN :legacy_3 AND :legacy_4",
                out.get("KeyConditionExpression").asText());
        assertEquals("x", out.get("ExpressionAttributeNames").get("#legacy0").asText());
        assertEquals("pk", out.get("ExpressionAttributeNames").get("#legacy_0").asText());
    }

    @Test
    void mixingIsRefusedNamingEveryMemberInDynamoDbsOrder() {
        refused("Query", "{'TableName':'t','FilterExpression':'a = :v','KeyConditionExpression':'pk = :v',"
                        + "'ProjectionExpression':'b','ExpressionAttributeValues':{':v':{'S':'x'}},'ConditionalOperator':'OR',"
                        + "'KeyConditions':{},'QueryFilter':{},'AttributesToGet':['a']}",
                "Can not use both expression and non-expression parameters in the same request: Non-expression"
                        + " parameters: {AttributesToGet, QueryFilter, ConditionalOperator, KeyConditions} Expression"
                        + " parameters: {ProjectionExpression, FilterExpression, KeyConditionExpression}");
        refused("UpdateItem", "{'TableName':'t','Key':{},'UpdateExpression':'SET a = :v','ExpressionAttributeValues':"
                        + "{':v':{'S':'x'}},'AttributeUpdates':{'a':{'Value':{'S':'x'}}}}",
                "Can not use both expression and non-expression parameters in the same request: Non-expression"
                        + " parameters: {AttributeUpdates} Expression parameters: {UpdateExpression}");
        refused("Scan", "{'TableName':'t','ScanFilter':{'a':{'ComparisonOperator':'NULL'}},'ExpressionAttributeValues':"
                + "{':v':{'S':'x'}}}", "ExpressionAttributeValues can only be specified when using expressions:"
                + " FilterExpression is null");
        refused("GetItem", "{'TableName':'t','Key':{},'AttributesToGet':['a'],'ExpressionAttributeNames':{'#a':'a'}}",
                "ExpressionAttributeNames can only be specified when using expressions");
    }

    @Test
    void conditionalOperatorNeedsTwoConditions() {
        refused("Scan", "{'TableName':'t','ConditionalOperator':'AND'}",
                "ConditionalOperator cannot be used without Filter or Expected");
        refused("DeleteItem", "{'TableName':'t','Key':{},'ConditionalOperator':'OR','Expected':{'a':{'Exists':false}}}",
                "ConditionalOperator can only be used when Filter or Expected has two or more elements");
        refused("Scan", "{'TableName':'t','ConditionalOperator':'AN'}", "1 validation error detected: Value 'AN' at"
                + " 'conditionalOperator' failed to satisfy constraint: Member must satisfy enum value set: [OR, AND]");
    }

    @Test
    void conditionsAreCheckedForArgumentCountTypeAndOrder() {
        String invalid = "One or more parameter values were invalid: ";
        refused("Scan", "{'TableName':'t','ScanFilter':{'a':{'ComparisonOperator':'EQ','AttributeValueList':[]}}}",
                invalid + "Invalid number of argument(s) for the EQ ComparisonOperator");
        refused("Scan", "{'TableName':'t','ScanFilter':{'a':{'ComparisonOperator':'NULL','AttributeValueList':[{'S':'x'}]}}}",
                invalid + "Invalid number of argument(s) for the NULL ComparisonOperator");
        refused("Scan", "{'TableName':'t','ScanFilter':{'a':{'ComparisonOperator':'LT','AttributeValueList':[{'SS':['x']}]}}}",
                invalid + "ComparisonOperator LT is not valid for SS AttributeValue type");
        refused("Scan", "{'TableName':'t','ScanFilter':{'a':{'ComparisonOperator':'BEGINS_WITH','AttributeValueList':[{'N':'1'}]}}}",
                invalid + "ComparisonOperator BEGINS_WITH is not valid for N AttributeValue type");
        refused("Scan", "{'TableName':'t','ScanFilter':{'a':{'ComparisonOperator':'IN','AttributeValueList':[{'N':'1'},{'S':'x'}]}}}",
                invalid + "AttributeValues inside AttributeValueList must be of same type");
        refused("Scan", "{'TableName':'t','ScanFilter':{'a':{'ComparisonOperator':'BETWEEN','AttributeValueList':[{'N':'5'},{'N':'1'}]}}}",
                "The BETWEEN condition was provided a range where the lower bound is greater than the upper bound");
        refused("Scan", "{'TableName':'t','ScanFilter':{'a':{},'b':{'ComparisonOperator':'LIKE'}}}",
                "2 validation errors detected: Value null at 'scanFilter.a.member.comparisonOperator' failed to satisfy"
                        + " constraint: Member must not be null; Value 'LIKE' at 'scanFilter.b.member.comparisonOperator'"
                        + " failed to satisfy constraint: Member must satisfy enum value set: [IN, NULL, BETWEEN, LT,"
                        + " NOT_CONTAINS, EQ, GT, NOT_NULL, NE, LE, BEGINS_WITH, GE, CONTAINS]");
    }

    @Test
    void expectedFormsAreCheckedAsDynamoDbChecksThem() {
        String invalid = "One or more parameter values were invalid: ";
        refused("PutItem", "{'TableName':'t','Item':{},'Expected':{'a':{}}}",
                invalid + "Value must be provided when Exists is null for Attribute: a");
        refused("PutItem", "{'TableName':'t','Item':{},'Expected':{'a':{'Exists':true}}}",
                invalid + "Value must be provided when Exists is true for Attribute: a");
        refused("PutItem", "{'TableName':'t','Item':{},'Expected':{'a':{'Exists':false,'Value':{'S':'x'}}}}",
                invalid + "Value cannot be used when Exists is false for Attribute: a");
        refused("PutItem", "{'TableName':'t','Item':{},'Expected':{'a':{'Exists':true,'ComparisonOperator':'EQ'}}}",
                invalid + "Exists and ComparisonOperator cannot be used together for Attribute: a");
        refused("PutItem", "{'TableName':'t','Item':{},'Expected':{'a':{'ComparisonOperator':'LT'}}}",
                invalid + "Value or AttributeValueList must be used with ComparisonOperator: LT for Attribute: a");
        refused("PutItem", "{'TableName':'t','Item':{},'Expected':{'a':{'AttributeValueList':[{'S':'x'}]}}}",
                invalid + "AttributeValueList can only be used with a ComparisonOperator for Attribute: a");
        refused("PutItem", "{'TableName':'t','Item':{},'Expected':{'a':{'ComparisonOperator':'EQ','Value':{'S':'x'},"
                + "'AttributeValueList':[{'S':'x'}]}}}", invalid + "Value and AttributeValueList cannot be used together"
                + " for Attribute: a");
        refused("PutItem", "{'TableName':'t','Item':{},'Expected':{'a':{'Value':{'SS':[]}}}}",
                invalid + "An string set  may not be empty");
    }

    @Test
    void attributeUpdatesAreCheckedAsDynamoDbChecksThem() {
        String invalid = "One or more parameter values were invalid: ";
        refused("UpdateItem", "{'TableName':'t','Key':{},'AttributeUpdates':{'a':{'Action':'PUT'}}}",
                invalid + "Only DELETE action is allowed when no attribute value is specified");
        refused("UpdateItem", "{'TableName':'t','Key':{},'AttributeUpdates':{'a':{'Action':'DELETE','Value':{'S':'x'}}}}",
                invalid + "DELETE action with value is not supported for the type S");
        refused("UpdateItem", "{'TableName':'t','Key':{},'AttributeUpdates':{'a':{'Action':'ADD','Value':{'M':{}}}}}",
                invalid + "ADD action is not supported for the type M");
        refused("UpdateItem", "{'TableName':'t','Key':{},'AttributeUpdates':{'a':{'Action':'SET','Value':{'S':'x'}}}}",
                "1 validation error detected: Value 'SET' at 'attributeUpdates.a.member.action' failed to satisfy"
                        + " constraint: Member must satisfy enum value set: [ADD, PUT, DELETE]");
    }

    @Test
    void readsRefuseDuplicateNamesBadKeyConditionsAndAnotherSelect() {
        refused("Scan", "{'TableName':'t','AttributesToGet':['a','a']}",
                "One or more parameter values were invalid: Duplicate value in attribute name: a");
        refused("Scan", "{'TableName':'t','AttributesToGet':['a'],'Select':'COUNT'}",
                "Cannot specify the AttributesToGet when choosing to get only the Count");
        refused("Query", "{'TableName':'t','AttributesToGet':['a'],'Select':'ALL_ATTRIBUTES','KeyConditions':{'pk':"
                        + "{'ComparisonOperator':'EQ','AttributeValueList':[{'S':'a'}]}}}",
                "1 validation error detected: Cannot specify the AttributesToGet when choosing to get ALL_ATTRIBUTES");
        refused("Query", "{'TableName':'t','KeyConditions':{}}", "Conditions can be of length 1 or 2 only");
        refused("Query", "{'TableName':'t','KeyConditions':{'pk':{'ComparisonOperator':'NE','AttributeValueList':"
                + "[{'S':'a'}]}}}", "Attempted conditional constraint is not an indexable operation");
        refused("GetItem", "{'TableName':'t','Key':{},'AttributesToGet':[]}", "1 validation error detected: Value '[]' at"
                + " 'attributesToGet' failed to satisfy constraint: Member must have length greater than or equal to 1");
    }
}
