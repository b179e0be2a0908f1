package dev.moviegraph.support;

import java.util.Set;
import java.util.TreeSet;

import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactGetItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;

/**
 * The IAM permissions the calls a client sends need, as {@code dynamodb:Action on table|index|stream}: a
 * transaction needs each of its items' actions (IAM has no TransactWriteItems action), a Query or Scan of an
 * index needs the action on the index, a DynamoDB Streams call needs it on the stream.
 */
public final class IamActionRecorder implements ExecutionInterceptor {
    private final Set<String> needed = new TreeSet<>();

    @Override
    public synchronized void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
        String operation = attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME);
        String service = attributes.getAttribute(SdkExecutionAttribute.SERVICE_NAME);
        SdkRequest request = context.request();
        if (service != null && service.toLowerCase().contains("streams")) {
            needed.add(permission(operation, "stream"));
        } else if (request instanceof TransactWriteItemsRequest transaction) {
            for (TransactWriteItem item : transaction.transactItems()) {
                needed.add(permission(item.put() != null ? "PutItem" : item.update() != null ? "UpdateItem"
                        : item.delete() != null ? "DeleteItem" : "ConditionCheckItem", "table"));
            }
        } else if (request instanceof TransactGetItemsRequest) {
            needed.add(permission("GetItem", "table"));
        } else if (request instanceof QueryRequest query) {
            needed.add(permission(operation, query.indexName() == null ? "table" : "index"));
        } else if (request instanceof ScanRequest scan) {
            needed.add(permission(operation, scan.indexName() == null ? "table" : "index"));
        } else {
            needed.add(permission(operation, "table"));
        }
    }

    /** How a permission is written here and by {@code DeployTemplateTest}: {@code dynamodb:GetItem on table}. */
    public static String permission(String action, String resource) {
        return "dynamodb:" + action + " on " + resource;
    }

    public synchronized void reset() {
        needed.clear();
    }

    /** The permissions the calls since the last reset needed. */
    public synchronized Set<String> needed() {
        return Set.copyOf(needed);
    }
}
