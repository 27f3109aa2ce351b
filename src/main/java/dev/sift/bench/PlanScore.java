package dev.sift.bench;

import dev.sift.bench.suite.Suite;
import dev.sift.bench.BenchRunner.ItemResult;

import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * How well a run's plan fits what its item names ({@code tools_needed}, {@code tools_forbidden}): recall is the
 * share of the needed tools the run used; precision the share of the tools it used that are not forbidden. Items
 * that name no tools have no plan score.
 */
record PlanScore(Double precision, Double recall) {
    static PlanScore of(ItemResult r) {
        Suite.Item item = r.item();
        if (!item.namesTools()) {
            return new PlanScore(null, null);
        }
        List<String> used = r.tools();
        Double recall = item.toolsNeeded().isEmpty() ? null
                : (double) item.toolsNeeded().stream().filter(used::contains).count() / item.toolsNeeded().size();
        Double precision = used.isEmpty() ? null
                : (double) used.stream().filter(t -> !item.toolsForbidden().contains(t)).count() / used.size();
        return new PlanScore(precision, recall);
    }

    /** The mean plan precision and recall over the results that have one. */
    static PlanScore mean(List<ItemResult> results) {
        List<PlanScore> scores = results.stream().map(PlanScore::of).toList();
        return new PlanScore(average(scores.stream().map(PlanScore::precision).toList()),
                average(scores.stream().map(PlanScore::recall).toList()));
    }

    private static Double average(List<Double> xs) {
        List<Double> known = xs.stream().filter(Objects::nonNull).toList();
        return known.isEmpty() ? null : known.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
    }

    String line(int items) {
        return String.format(Locale.ROOT, "plan: precision %s, recall %s over %d items that name tools",
                precision == null ? "n/a" : String.format(Locale.ROOT, "%.3f", precision),
                recall == null ? "n/a" : String.format(Locale.ROOT, "%.3f", recall), items);
    }
}
