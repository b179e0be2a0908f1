package dev.moviegraph.graphql.wiring;

import java.time.YearMonth;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Pattern;

import graphql.GraphQLContext;
import graphql.execution.CoercedVariables;
import graphql.language.StringValue;
import graphql.language.Value;
import graphql.schema.Coercing;
import graphql.schema.CoercingParseLiteralException;
import graphql.schema.CoercingParseValueException;
import graphql.schema.CoercingSerializeException;
import graphql.schema.GraphQLScalarType;

/** "yyyy-MM" months. Extended scalars has no month type; this is strict: 2024-5 or 2024-13 are refused. */
final class YearMonthScalar {
    private static final Pattern FORM = Pattern.compile("\\d{4}-\\d{2}");

    static final GraphQLScalarType INSTANCE = GraphQLScalarType.newScalar()
            .name("YearMonth")
            .description("A calendar month as yyyy-MM, e.g. 2024-05")
            .coercing(new Coercing<YearMonth, String>() {
                @Override
                public String serialize(Object value, GraphQLContext context, Locale locale) {
                    if (value instanceof YearMonth month) {
                        return month.toString();
                    }
                    throw new CoercingSerializeException("Not a YearMonth: " + value);
                }

                @Override
                public YearMonth parseValue(Object input, GraphQLContext context, Locale locale) {
                    if (input instanceof String text) {
                        YearMonth month = parse(text);
                        if (month != null) {
                            return month;
                        }
                    }
                    throw new CoercingParseValueException(message(input));
                }

                @Override
                public YearMonth parseLiteral(Value<?> input, CoercedVariables variables, GraphQLContext context,
                                              Locale locale) {
                    if (input instanceof StringValue text) {
                        YearMonth month = parse(text.getValue());
                        if (month != null) {
                            return month;
                        }
                        throw new CoercingParseLiteralException(message(text.getValue()));
                    }
                    throw new CoercingParseLiteralException("Expected a YearMonth string such as \"2024-05\"");
                }

                @Override
                public Value<?> valueToLiteral(Object input, GraphQLContext context, Locale locale) {
                    return StringValue.of(serialize(input, context, locale));
                }
            })
            .build();

    private YearMonthScalar() {
    }

    private static YearMonth parse(String text) {
        if (!FORM.matcher(text).matches()) {
            return null;
        }
        try {
            return YearMonth.parse(text);
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    private static String message(Object input) {
        String shown = String.valueOf(input);
        if (shown.length() > 40) {
            shown = shown.substring(0, 40) + "...";
        }
        return "'" + shown + "' is not a month: expected yyyy-MM, e.g. 2024-05";
    }
}
