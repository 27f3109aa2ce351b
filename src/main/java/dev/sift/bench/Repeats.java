package dev.sift.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.sift.bench.BenchRunner.ItemResult;
import dev.sift.bench.BenchRunner.Outcome;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The same suite run K times, so a change is judged against the noise of a sampled planner: per item, how many
 * runs were correct; overall, pass@1 (the mean share of correct items per run, with its standard deviation over
 * the runs) and pass^K (the share of items correct in every run).
 */
record Repeats(List<BenchReport> runs) {
    Repeats {
        if (runs.isEmpty()) {
            throw new IllegalArgumentException("no runs");
        }
    }

    /** Per item id: in how many runs it was correct. */
    Map<String, Integer> correctRuns() {
        Map<String, Integer> out = new LinkedHashMap<>();
        for (BenchReport r : runs) {
            for (ItemResult i : r.items()) {
                out.merge(i.item().id(), i.outcome() == Outcome.CORRECT ? 1 : 0, Integer::sum);
            }
        }
        return out;
    }

    /** Each run's accuracy (correct / items). */
    List<Double> accuracies() {
        List<Double> out = new ArrayList<>();
        for (BenchReport r : runs) {
            long correct = r.items().stream().filter(i -> i.outcome() == Outcome.CORRECT).count();
            out.add(r.items().isEmpty() ? 0 : (double) correct / r.items().size());
        }
        return out;
    }

    double passAt1() {
        return accuracies().stream().mapToDouble(Double::doubleValue).average().orElse(0);
    }

    /** The sample standard deviation of the runs' accuracies (0 for one run). */
    double spread() {
        List<Double> a = accuracies();
        if (a.size() < 2) {
            return 0;
        }
        double mean = passAt1();
        return Math.sqrt(a.stream().mapToDouble(x -> (x - mean) * (x - mean)).sum() / (a.size() - 1));
    }

    double passHatK() {
        Map<String, Integer> c = correctRuns();
        return c.isEmpty() ? 0 : (double) c.values().stream().filter(n -> n == runs.size()).count() / c.size();
    }

    void print(PrintWriter out) {
        int k = runs.size();
        out.printf(Locale.ROOT, "Repeated %d runs: pass@1 %.3f ± %.3f (accuracy per run: %s), pass^%d %.3f%n", k, passAt1(),
                spread(), String.join(", ", accuracies().stream().map(a -> String.format(Locale.ROOT, "%.3f", a)).toList()),
                k, passHatK());
        List<String> unstable = correctRuns().entrySet().stream().filter(e -> e.getValue() > 0 && e.getValue() < k)
                .map(e -> e.getKey() + " " + e.getValue() + "/" + k).toList();
        if (!unstable.isEmpty()) {
            out.printf("  correct in some runs only: %s%n", String.join(", ", unstable));
        }
        out.flush();
    }

    /** {@code repeats.json}: the overall figures and, per item, the runs it was correct in. */
    void write(Path dir) throws IOException {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("runs", runs.size());
        root.put("pass_at_1", passAt1());
        root.put("pass_at_1_spread", spread());
        root.put("pass_hat_k", passHatK());
        root.put("accuracy_per_run", accuracies());
        root.put("correct_runs", correctRuns());
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("repeats.json"),
                new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(root) + "\n");
    }
}
