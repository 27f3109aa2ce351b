package dev.sift.web;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Names as a person would say them in a sample question: identifiers split on spaces, underscores, case changes and
 * digits ("Miles_per_Gallon" → "miles per gallon", "homeTeam" → "home team"), a unit suffix left out
 * ("Weight_in_lbs" → "weight", "Body Mass (g)" → "body mass"; the units are {@code /samples/unit-suffixes.txt}), and
 * size or version suffixes of table names dropped ("flights_20k" → "flights").
 */
final class SampleWords {
    private static final Set<String> UNITS = units();

    private SampleWords() { }

    /** Every word of a name, lower case, units kept: "Weight_in_lbs" → "weight in lbs". */
    static String words(String name) {
        String bare = name.contains(".") ? name.substring(name.lastIndexOf('.') + 1) : name;
        return String.join(" ", tokens(bare));
    }

    /** The words without a trailing unit ("weight in lbs" → "weight"), or all of them when nothing would remain. */
    static String plain(String name) {
        String bare = name.contains(".") ? name.substring(name.lastIndexOf('.') + 1) : name;
        List<String> t = new ArrayList<>(tokens(bare.replaceAll("\\s*\\([^)]*\\)\\s*$", "")));
        if (t.size() > 1 && UNITS.contains(t.get(t.size() - 1))) {
            t.remove(t.size() - 1);
            if (t.size() > 1 && (t.get(t.size() - 1).equals("in") || t.get(t.size() - 1).equals("per"))) {
                t.remove(t.size() - 1);
            }
        }
        return t.isEmpty() ? words(name) : String.join(" ", t);
    }

    /** A table's name in words without a size or version suffix: "flights_20k" → "flights", "sales_v2" → "sales". */
    static String table(String name) {
        List<String> t = new ArrayList<>(Arrays.asList(words(name).split(" ")));
        while (t.size() > 1 && t.get(t.size() - 1).matches("\\d+|\\d+[km]|v\\d+|[km]")) {
            t.remove(t.size() - 1);
            if (t.size() > 1 && t.get(t.size() - 1).matches("\\d+|v")) {
                t.remove(t.size() - 1); // "20 k" and "v 2" were split apart
            }
        }
        return String.join(" ", t);
    }

    /** Words that read as a name: letters (digits allowed) with a word of three letters or more ("A2" does not). */
    static boolean readable(String words) {
        return words.matches("[a-z][a-z0-9 ]*") && Arrays.stream(words.split(" ")).anyMatch(w -> w.matches("[a-z]{3,}"));
    }

    /** The words already plural ("la riots", "cars"): the last word ends in one s. */
    static boolean plural(String words) {
        return words.matches(".*[a-z]{2}[^s]s");
    }

    /** The last word made plural: "country" → "countries", "home team" → "home teams", "class" → "classes". */
    static String pluralise(String words) {
        if (plural(words)) {
            return words;
        }
        if (words.matches(".*(ss|x|ch|sh)")) {
            return words + "es";
        }
        if (words.matches(".*[^aeiou]y")) {
            return words.substring(0, words.length() - 1) + "ies";
        }
        return words + "s";
    }

    private static List<String> tokens(String name) {
        String spaced = name.replaceAll("(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", " ")
                .replaceAll("(?<=[A-Za-z])(?=[0-9])|(?<=[0-9])(?=[A-Za-z])", " ")
                .replaceAll("[^A-Za-z0-9%$]+", " ").trim().toLowerCase(Locale.ROOT);
        return spaced.isEmpty() ? List.of() : Arrays.asList(spaced.split(" +"));
    }

    private static Set<String> units() {
        try (InputStream in = SampleWords.class.getResourceAsStream("/samples/unit-suffixes.txt")) {
            if (in == null) {
                throw new IllegalStateException("missing resource /samples/unit-suffixes.txt");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().map(String::trim)
                    .filter(l -> !l.isEmpty() && !l.startsWith("#")).collect(Collectors.toUnmodifiableSet());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
