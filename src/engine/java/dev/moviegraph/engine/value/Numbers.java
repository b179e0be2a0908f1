package dev.moviegraph.engine.value;

import java.math.BigDecimal;

/** DynamoDB's numbers: up to 38 significant digits, magnitudes from 1E-130 to below 1E+126, canonical text. */
public final class Numbers {
    private static final BigDecimal MAX = new BigDecimal("1E+126");
    private static final BigDecimal MIN = new BigDecimal("1E-130");

    private Numbers() {
    }

    static Value.N parse(String text) {
        if (text == null || text.isEmpty()) {
            throw new NumberFormatException("The parameter cannot be converted to a numeric value");
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (!(c >= '0' && c <= '9' || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E')) {
                throw new NumberFormatException("The parameter cannot be converted to a numeric value: " + text);
            }
        }
        BigDecimal number;
        try {
            number = new BigDecimal(text.trim());
        } catch (NumberFormatException e) {
            throw new NumberFormatException("The parameter cannot be converted to a numeric value: " + text);
        }
        return of(number);
    }

    /** The canonical number, or {@link NumberFormatException} out of DynamoDB's range or precision. */
    public static Value.N of(BigDecimal number) {
        BigDecimal stripped = number.signum() == 0 ? BigDecimal.ZERO : number.stripTrailingZeros();
        if (stripped.precision() > 38) {
            throw new NumberFormatException("Attempting to store more than 38 significant digits in a Number");
        }
        BigDecimal magnitude = stripped.abs();
        if (magnitude.signum() != 0 && magnitude.compareTo(MAX) >= 0) {
            throw new NumberFormatException("Number overflow. Attempting to store a number with magnitude larger than supported range");
        }
        if (magnitude.signum() != 0 && magnitude.compareTo(MIN) < 0) {
            throw new NumberFormatException("Number underflow. Attempting to store a number with magnitude smaller than supported range");
        }
        return new Value.N(stripped.toPlainString(), stripped);
    }
}
