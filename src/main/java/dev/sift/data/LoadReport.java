package dev.sift.data;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What a load decided about column types and noticed in the values, for people: columns converted from text
 * (with why), columns kept as text with the count of values per format and the {@code --types} that fixes them,
 * and case variants or near-duplicates in low-cardinality text columns ({@code 'Web'/'web'},
 * {@code 'Electronic'/'Electronics'}). Written beside the dataset as {@code <name>.load-report.json}.
 */
@com.fasterxml.jackson.annotation.JsonIgnoreProperties(ignoreUnknown = true)
public record LoadReport(List<Converted> converted, List<KeptText> keptText, List<ValueVariants.Group> variants,
                         List<String> notes) {
    public static final LoadReport EMPTY = new LoadReport(List.of(), List.of(), List.of(), List.of());

    public record Converted(String column, String type, String why) { }

    public record KeptText(String column, Map<String, Long> formats, String fix, List<String> examples) { }

    @com.fasterxml.jackson.annotation.JsonIgnore
    public boolean isEmpty() {
        return converted.isEmpty() && keptText.isEmpty() && variants.isEmpty() && notes.isEmpty();
    }

    /** The report as lines for a terminal. */
    public List<String> lines() {
        List<String> out = new ArrayList<>();
        for (Converted c : converted) {
            out.add(c.column() + ": " + c.type() + " (" + c.why() + ")");
        }
        for (KeptText k : keptText) {
            List<String> parts = new ArrayList<>();
            k.formats().forEach((f, n) -> parts.add(n + " " + f));
            out.add(k.column() + " stays text: " + String.join(", ", parts) + "; e.g. "
                    + String.join(", ", k.examples().stream().map(e -> "'" + e + "'").toList()) + ". Fix: " + k.fix());
        }
        for (ValueVariants.Group g : variants) {
            out.add(g.describe());
        }
        out.addAll(notes);
        return out;
    }

    /** Collects a report while a load runs. */
    public static final class Builder {
        private final List<Converted> converted = new ArrayList<>();
        private final List<KeptText> kept = new ArrayList<>();
        private final List<ValueVariants.Group> variants = new ArrayList<>();
        private final List<String> notes = new ArrayList<>();

        public void converted(String column, String type, String why) {
            converted.add(new Converted(column, type, why));
        }

        public void keptText(String column, Map<String, Long> formats, String fix, List<String> examples) {
            kept.add(new KeptText(column, new java.util.LinkedHashMap<>(formats), fix, List.copyOf(examples)));
        }

        public void variants(List<ValueVariants.Group> groups) {
            variants.addAll(groups);
        }

        public void note(String note) {
            notes.add(note);
        }

        public LoadReport build() {
            return new LoadReport(List.copyOf(converted), List.copyOf(kept), List.copyOf(variants), List.copyOf(notes));
        }
    }
}
