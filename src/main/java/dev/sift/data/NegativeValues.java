package dev.sift.data;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * When negative numbers in a column are worth a warning, one rule for the column facts the model sees and for
 * {@code data_quality_report}: any negative in a column whose name says a quantity that cannot be below zero
 * ({@code data/non-negative-words.txt}: cost, price, distance, …, found as a word of the name however it is
 * written), or negatives that are at most {@link #RARE} of a column's non-zero values (a sign error among
 * positives). A column where negatives are common (temperatures, balances, delays) is not flagged.
 */
public final class NegativeValues {
    /** Negatives at most this share of the non-zero values are suspect in any column. */
    public static final double RARE = 0.01;
    private static final Set<String> WORDS = load();

    private NegativeValues() { }

    /** Whether {@code negatives} among {@code positives} in the column {@code name} are worth a warning. */
    public static boolean suspect(String name, long negatives, long positives) {
        return negatives > 0 && (quantityName(name) || negatives <= RARE * (negatives + positives));
    }

    /** Whether a word of the column name says a quantity that cannot be negative. */
    public static boolean quantityName(String name) {
        return Arrays.stream(name.split("(?<=[a-z])(?=[A-Z])|[^A-Za-z]+")).map(w -> w.toLowerCase(Locale.ROOT))
                .anyMatch(WORDS::contains);
    }

    private static Set<String> load() {
        try (InputStream in = NegativeValues.class.getResourceAsStream("/data/non-negative-words.txt")) {
            if (in == null) {
                throw new IllegalStateException("Resource /data/non-negative-words.txt is missing from the jar");
            }
            return new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)).lines().map(String::strip)
                    .filter(l -> !l.isEmpty() && !l.startsWith("#")).collect(Collectors.toUnmodifiableSet());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
