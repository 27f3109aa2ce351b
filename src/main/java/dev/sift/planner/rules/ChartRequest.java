package dev.sift.planner.rules;

import dev.sift.knowledge.Vocabulary;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A question that asks for a picture of a result: "show me a chart of loans per year", "plot the average amount by
 * region", "visualize defaults by district as a bar chart". The words of the request (a chart word of
 * {@code chart_words} with the kind and framing words around it: {@code chart_kinds}, {@code chart_filler}) are
 * taken out; what is left is a question like any other, answered with a query and then charted. {@code kind} is
 * the chart asked for, or null to choose by the result's shape.
 */
public record ChartRequest(String question, String kind) {
    private static final Vocabulary V = Vocabulary.WORDS;

    /** The request in {@code question}, if it asks for a chart. */
    public static Optional<ChartRequest> read(String question) {
        Optional<ChartRequest> first = once(question);
        if (first.isEmpty()) {
            return first;
        }
        ChartRequest r = first.get();
        for (Optional<ChartRequest> more = once(r.question()); more.isPresent(); more = once(r.question())) {
            r = new ChartRequest(more.get().question(), more.get().kind() != null ? more.get().kind() : r.kind());
        }
        List<String> rest = dev.sift.knowledge.Phrases.words(r.question());
        boolean measured = rest.stream().anyMatch(w -> V.has(w, "aggregates", "count_words", "share", "distribution", "chart_measures"))
                || rest.size() > 1 && rest.get(0).equals("how");
        // "a chart of loans per year" charts how many there are
        return Optional.of(measured || r.question().isBlank() ? r : new ChartRequest("number of " + r.question(), r.kind()));
    }

    private static Optional<ChartRequest> once(String question) {
        List<String> words = new ArrayList<>(List.of(question.trim().split("\\s+")));
        int at = -1;
        for (int i = 0; i < words.size(); i++) {
            // "how many draws", "the number of plots": a count of things, not a request for a picture
            boolean counted = i > 0 && V.has(bare(words.get(i - 1)), "count_words")
                    || i > 1 && bare(words.get(i - 1)).equals("of") && V.has(bare(words.get(i - 2)), "count_words");
            // "ended in a draw", "were draws": a result, not a request, unless where a request starts ("please draw …")
            boolean noun = V.has(bare(words.get(i)), "chart_verbs") && !words.subList(0, i).stream()
                    .allMatch(w -> V.has(bare(w), "chart_filler"));
            if (V.has(bare(words.get(i)), "chart_words") && !counted && !noun) {
                at = i;
                break;
            }
        }
        if (at < 0) {
            return Optional.empty();
        }
        int from = at;
        while (from > 0 && framing(words.get(from - 1))) {
            from--;
        }
        int to = at + 1;
        while (to < words.size() && framing(words.get(to))) {
            to++;
        }
        String kind = null;
        for (String w : words.subList(from, to)) {
            String k = V.map("chart_kinds").get(dev.sift.knowledge.Phrases.stem(bare(w)));
            kind = k != null ? k : kind;
        }
        List<String> rest = new ArrayList<>(words.subList(0, from));
        rest.addAll(words.subList(to, words.size()));
        String left = String.join(" ", rest).replaceAll("^[\\s,;:]+|[\\s,;:]+$", "");
        return Optional.of(new ChartRequest(left, kind));
    }

    /** A word that frames the request: another chart word, a chart kind or a filler ("show", "me", "a", "as", "of"). */
    private static boolean framing(String word) {
        String w = bare(word);
        return !w.isEmpty() && (V.has(w, "chart_words") || V.has(w, "chart_kinds") || V.has(w, "chart_filler"));
    }

    private static String bare(String word) {
        return word.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N}]", "");
    }
}
