package dev.sift.web;

import dev.sift.data.Dataset;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Sample questions for a dataset's chips: a curated list ({@code /samples/<dataset>.txt}) when there is
 * one, otherwise questions the offline planner can answer on any dataset (tables, counts).
 */
public final class SampleQuestions {
    private SampleQuestions() { }

    public static List<String> of(Dataset d) {
        try (InputStream in = SampleQuestions.class.getResourceAsStream("/samples/" + d.name() + ".txt")) {
            if (in != null) {
                return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().map(String::trim)
                        .filter(l -> !l.isEmpty() && !l.startsWith("#")).toList();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> out = new ArrayList<>();
        out.add("What tables are there?");
        d.tables().stream().limit(2).forEach(t -> out.add("How many " + plural(t.name()) + " are there?"));
        d.tables().stream().findFirst().ifPresent(t -> out.add("Describe the " + t.name() + " table"));
        return out;
    }

    private static String plural(String n) {
        String s = n.toLowerCase(Locale.ROOT);
        return s.endsWith("y") ? s.substring(0, s.length() - 1) + "ies"
                : s.endsWith("s") || s.endsWith("x") || s.endsWith("ch") ? s + "es" : s + "s";
    }
}
