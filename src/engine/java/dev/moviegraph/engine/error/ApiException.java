package dev.moviegraph.engine.error;

import java.util.List;
import java.util.Map;

/**
 * An error DynamoDB answers with: its {@code __type} (the SDK maps it to an exception class), its message,
 * the HTTP status, and for some errors what came with them (cancellation reasons, the item of a failed
 * condition).
 */
public final class ApiException extends RuntimeException {
    private static final String PREFIX = "com.amazonaws.dynamodb.v20120810#";
    private static final String COYOTE = "com.amazon.coral.validate#";

    private final String type;
    private final int status;
    /** Extra members of the error body (CancellationReasons, Item), already in wire form; may be empty. */
    private final transient Map<String, Object> extra;

    public ApiException(String type, int status, String message, Map<String, Object> extra) {
        super(message, null, false, false);
        this.type = type;
        this.status = status;
        this.extra = extra;
    }

    public String type() {
        return type;
    }

    public int status() {
        return status;
    }

    public Map<String, Object> extra() {
        return extra;
    }

    public static ApiException validation(String message) {
        return new ApiException(COYOTE + "ValidationException", 400, message, Map.of());
    }

    public static ApiException resourceNotFound(String message) {
        return new ApiException(PREFIX + "ResourceNotFoundException", 400, message, Map.of());
    }

    public static ApiException resourceInUse(String message) {
        return new ApiException(PREFIX + "ResourceInUseException", 400, message, Map.of());
    }

    /** A failed condition; {@code item} is the item in wire form when ReturnValuesOnConditionCheckFailure asked for it. */
    public static ApiException conditionalCheckFailed(Object item) {
        return new ApiException(PREFIX + "ConditionalCheckFailedException", 400, "The conditional request failed",
                item == null ? Map.of() : Map.of("Item", item));
    }

    /** A cancelled transaction with one reason per action, in the request's order (wire form). */
    public static ApiException transactionCanceled(List<Map<String, Object>> reasons) {
        StringBuilder codes = new StringBuilder();
        for (Map<String, Object> reason : reasons) {
            codes.append(codes.isEmpty() ? "" : ", ").append(reason.get("Code"));
        }
        return new ApiException(PREFIX + "TransactionCanceledException", 400,
                "Transaction cancelled, please refer cancellation reasons for specific reasons [" + codes + "]",
                Map.of("CancellationReasons", reasons));
    }

    public static ApiException transactionConflict(String message) {
        return new ApiException(PREFIX + "TransactionConflictException", 400, message, Map.of());
    }

    public static ApiException idempotentParameterMismatch() {
        return new ApiException(PREFIX + "IdempotentParameterMismatchException", 400,
                "Request token has been used with different parameters", Map.of());
    }

    public static ApiException throughputExceeded(String message) {
        return new ApiException(PREFIX + "ProvisionedThroughputExceededException", 400, message, Map.of());
    }

    public static ApiException throttling(String message) {
        return new ApiException(PREFIX + "ThrottlingException", 400, message, Map.of());
    }

    public static ApiException unknownOperation(String target) {
        return new ApiException("com.amazon.coral.service#UnknownOperationException", 400, null, Map.of());
    }

    public static ApiException serialization(String message) {
        return new ApiException("com.amazon.coral.service#SerializationException", 400, message, Map.of());
    }

    public static ApiException expiredIterator(String message) {
        return new ApiException("com.amazonaws.dynamodb.v20120810#ExpiredIteratorException", 400, message, Map.of());
    }

    public static ApiException trimmedData(String message) {
        return new ApiException("com.amazonaws.dynamodb.v20120810#TrimmedDataAccessException", 400, message, Map.of());
    }

    public static ApiException internal(String message) {
        return new ApiException("com.amazonaws.dynamodb.v20120810#InternalServerError", 500, message, Map.of());
    }
}
