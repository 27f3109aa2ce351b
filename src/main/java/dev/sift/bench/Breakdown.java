package dev.sift.bench;

import dev.sift.bench.suite.Suite;
import dev.sift.bench.BenchReport.Tally;
import dev.sift.bench.BenchRunner.ItemResult;
import dev.sift.bench.BenchRunner.Outcome;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Coverage and precision per template and per wording of a generated suite ({@code sift bench datagen}), so a
 * reader sees which kinds of question and which phrasings a planner handles. Items without a template (suites
 * written by hand) are left out; a suite with none prints nothing.
 */
final class Breakdown {
    private final List<ItemResult> items;

    Breakdown(List<ItemResult> items) {
        this.items = items.stream().filter(r -> r.item().template() != null).toList();
    }

    boolean isEmpty() {
        return items.isEmpty();
    }

    Map<String, Tally> by(Function<Suite.Item, String> key) {
        Map<String, int[]> n = new TreeMap<>();
        for (ItemResult r : items) {
            n.computeIfAbsent(key.apply(r.item()), k -> new int[Outcome.values().length])[r.outcome().ordinal()]++;
        }
        Map<String, Tally> out = new LinkedHashMap<>();
        n.forEach((k, c) -> {
            int correct = c[Outcome.CORRECT.ordinal()];
            int wrong = c[Outcome.WRONG.ordinal()];
            int total = java.util.Arrays.stream(c).sum();
            out.put(k, new Tally(total, correct + wrong, correct, wrong, c[Outcome.ABSTAINED.ordinal()],
                    c[Outcome.ERROR.ordinal()]));
        });
        return out;
    }

    /** {"by_template": {name: {total, answered, correct, precision, coverage}}, "by_wording": {…}}. */
    Map<String, Object> json() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("by_template", jsonOf(by(key("template"))));
        out.put("by_wording", jsonOf(by(key("wording"))));
        return out;
    }

    private static Map<String, Object> jsonOf(Map<String, Tally> tallies) {
        Map<String, Object> out = new LinkedHashMap<>();
        tallies.forEach((k, t) -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("total", t.total());
            m.put("answered", t.answered());
            m.put("correct", t.correct());
            m.put("precision", t.precision());
            m.put("coverage", t.coverage());
            out.put(k, m);
        });
        return out;
    }

    void print(PrintWriter out) {
        for (String what : isEmpty() ? List.<String>of() : List.of("template", "wording")) {
            out.printf(Locale.ROOT, "  %-16s %5s %8s %7s %9s %8s%n", "by " + what, "total", "answered", "correct",
                    "precision", "coverage");
            by(key(what)).forEach((k, t) -> out.printf(Locale.ROOT, "  %-16s %5d %8d %7d %9s %8s%n", k, t.total(),
                    t.answered(), t.correct(), fmt(t.precision()), fmt(t.coverage())));
        }
    }

    private static Function<Suite.Item, String> key(String what) {
        return what.equals("template") ? Suite.Item::template : Suite.Item::wording;
    }

    String markdown() {
        if (isEmpty()) {
            return "";
        }
        StringBuilder md = new StringBuilder();
        for (String what : List.of("template", "wording")) {
            md.append("\n## By ").append(what).append("\n\n| ").append(what)
                    .append(" | total | answered | correct | precision | coverage |\n|---|---:|---:|---:|---:|---:|\n");
            by(key(what)).forEach((k, t) ->
                    md.append(String.format(Locale.ROOT, "| %s | %d | %d | %d | %s | %s |%n", k, t.total(), t.answered(),
                            t.correct(), fmt(t.precision()), fmt(t.coverage()))));
        }
        return md.toString();
    }

    private static String fmt(Double d) {
        return d == null ? "n/a" : String.format(Locale.ROOT, "%.3f", d);
    }
}
