package dev.sift.bench.dab;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Pass@1 of a DataAgentBench run: per query the mean of its iterations' verdicts, per dataset and overall the
 * mean over their task iterations, each printed as {@code pass@1 0.286 (2/7)} (passed/total task iterations).
 * With several iterations also the spread of pass@1 over the iterations and pass^K (the share of tasks that passed
 * in every one of the K iterations), so a change is judged against the noise of a sampled model. Also wall time,
 * steps and tokens per task. Written as {@code report.json} and {@code report.md}.
 */
public final class DabReport {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /**
     * Passed and total task iterations of one scope, with their time, steps and tokens; {@code k} the most iterations
     * of a task, {@code spread} the sample standard deviation of the pass rate over the iterations (iteration i's pass
     * rate is the share of the scope's tasks that passed in their i-th iteration), {@code passHatK} the share of the
     * scope's tasks that passed in all their iterations.
     */
    public record Score(String scope, int passed, int total, long millis, int steps, long inputTokens, long outputTokens,
                        int errors, int k, double spread, double passHatK) {
        public double pass1() {
            return total == 0 ? 0 : (double) passed / total;
        }

        String line() {
            String base = String.format(Locale.ROOT, "pass@1 %.3f", pass1());
            return k < 2 ? base + String.format(Locale.ROOT, " (%d/%d)", passed, total)
                    : base + String.format(Locale.ROOT, " ± %.3f (%d/%d), pass^%d %.3f", spread, passed, total, k, passHatK);
        }
    }

    private final String planner;
    private final boolean hints;
    private final List<DabResult> results;

    public DabReport(String planner, boolean hints, List<DabResult> results) {
        this.planner = planner;
        this.hints = hints;
        this.results = List.copyOf(results);
    }

    public Score overall() {
        return score("overall", results);
    }

    public List<Score> byDataset() {
        return group(DabResult::dataset);
    }

    public List<Score> byTask() {
        return group(DabResult::task);
    }

    private List<Score> group(Function<DabResult, String> key) {
        Map<String, List<DabResult>> groups = results.stream()
                .collect(Collectors.groupingBy(key, LinkedHashMap::new, Collectors.toList()));
        List<Score> out = new ArrayList<>();
        groups.forEach((k, rs) -> out.add(score(k, rs)));
        return out;
    }

    private static Score score(String scope, List<DabResult> rs) {
        Map<String, List<DabResult>> byTask = rs.stream()
                .collect(Collectors.groupingBy(DabResult::task, LinkedHashMap::new, Collectors.toList()));
        int k = byTask.values().stream().mapToInt(List::size).max().orElse(0);
        double allPassed = byTask.values().stream().filter(t -> t.stream().allMatch(DabResult::passed)).count();
        return new Score(scope, (int) rs.stream().filter(DabResult::passed).count(), rs.size(),
                rs.stream().mapToLong(r -> r.runMillis() + r.validateMillis()).sum(),
                rs.stream().mapToInt(DabResult::steps).sum(), rs.stream().mapToLong(DabResult::inputTokens).sum(),
                rs.stream().mapToLong(DabResult::outputTokens).sum(), (int) rs.stream().filter(r -> r.error() != null).count(),
                k, spread(rs), byTask.isEmpty() ? 0 : allPassed / byTask.size());
    }

    /** The sample standard deviation of the per-iteration pass rates (0 with fewer than two iterations). */
    static double spread(List<DabResult> rs) {
        Map<Integer, List<DabResult>> byIteration = rs.stream()
                .collect(Collectors.groupingBy(DabResult::iteration, java.util.TreeMap::new, Collectors.toList()));
        List<Double> rates = byIteration.values().stream()
                .map(it -> (double) it.stream().filter(DabResult::passed).count() / it.size()).toList();
        if (rates.size() < 2) {
            return 0;
        }
        double mean = rates.stream().mapToDouble(Double::doubleValue).average().orElse(0);
        return Math.sqrt(rates.stream().mapToDouble(x -> (x - mean) * (x - mean)).sum() / (rates.size() - 1));
    }

    public void print(PrintWriter out) {
        out.printf("DataAgentBench · planner %s · %s descriptions%n", planner, hints ? "hinted" : "plain");
        for (Score s : byTask()) {
            out.printf("  %-24s %s  %6.1fs  %3d steps  %,d tokens%s%n", s.scope(), s.line(), s.millis() / 1000.0, s.steps(),
                    s.inputTokens() + s.outputTokens(), s.errors() > 0 ? "  " + s.errors() + " error(s)" : "");
        }
        for (Score s : byDataset()) {
            out.printf("dataset %-16s %s%n", s.scope(), s.line());
        }
        Score all = overall();
        out.printf("overall %s · %.1fs · %d steps · %,d tokens%n", all.line(), all.millis() / 1000.0, all.steps(),
                all.inputTokens() + all.outputTokens());
        out.flush();
    }

    public void write(Path dir) throws IOException {
        Files.createDirectories(dir);
        ObjectNode o = JSON.createObjectNode();
        o.put("planner", planner);
        o.put("hints", hints);
        o.set("overall", scoreJson(overall()));
        ArrayNode ds = o.putArray("datasets");
        byDataset().forEach(s -> ds.add(scoreJson(s)));
        ArrayNode tasks = o.putArray("tasks");
        byTask().forEach(s -> tasks.add(scoreJson(s)));
        o.set("iterations", JSON.valueToTree(results));
        JSON.writeValue(dir.resolve("report.json").toFile(), o);
        Files.writeString(dir.resolve("report.md"), markdown());
    }

    private static ObjectNode scoreJson(Score s) {
        ObjectNode n = JSON.createObjectNode();
        n.put("scope", s.scope());
        n.put("pass_at_1", s.pass1());
        n.put("passed", s.passed());
        n.put("total", s.total());
        n.put("millis", s.millis());
        n.put("steps", s.steps());
        n.put("input_tokens", s.inputTokens());
        n.put("output_tokens", s.outputTokens());
        n.put("errors", s.errors());
        n.put("iterations", s.k());
        n.put("pass_at_1_spread", s.spread());
        n.put("pass_hat_k", s.passHatK());
        return n;
    }

    String markdown() {
        StringBuilder md = new StringBuilder("# DataAgentBench run\n\nPlanner: ").append(planner).append(" · ")
                .append(hints ? "hinted" : "plain").append(" descriptions · overall ").append(overall().line()).append("\n\n");
        md.append("| task | pass@1 | ± | pass^k | passed/total | seconds | steps | tokens |\n|---|---|---|---|---|---|---|---|\n");
        for (Score s : byTask()) {
            md.append(String.format(Locale.ROOT, "| %s | %.3f | %.3f | %.3f | %d/%d | %.1f | %d | %d |%n", s.scope(), s.pass1(),
                    s.spread(), s.passHatK(), s.passed(), s.total(), s.millis() / 1000.0, s.steps(),
                    s.inputTokens() + s.outputTokens()));
        }
        md.append("\n| dataset | pass@1 | ± | pass^k | passed/total |\n|---|---|---|---|---|\n");
        for (Score s : byDataset()) {
            md.append(String.format(Locale.ROOT, "| %s | %.3f | %.3f | %.3f | %d/%d |%n", s.scope(), s.pass1(), s.spread(),
                    s.passHatK(), s.passed(), s.total()));
        }
        failures(md);
        md.append("\n## Iterations\n\n| task | iter | verdict | kind | reason |\n|---|---|---|---|---|\n");
        for (DabResult r : results) {
            String why = r.error() != null ? "error: " + r.error() : r.reason() == null ? "" : r.reason();
            md.append("| ").append(r.task()).append(" | ").append(r.iteration()).append(" | ")
                    .append(r.passed() ? "pass" : "fail").append(" | ").append(r.kind()).append(" | ")
                    .append(why.replace("|", "\\|").replaceAll("\\s*\\R\\s*", " ")).append(" |\n");
        }
        return md.toString();
    }

    /** The failed iterations with the validator's reason (or why the task could not be scored). */
    private void failures(StringBuilder md) {
        List<DabResult> failed = results.stream().filter(r -> !r.passed()).toList();
        md.append("\n## Failures\n\n");
        if (failed.isEmpty()) {
            md.append("None.\n");
            return;
        }
        for (DabResult r : failed) {
            String why = r.error() != null ? "could not be scored: " + r.error()
                    : r.reason() == null || r.reason().isBlank() ? "the validator gave no reason" : r.reason();
            md.append("- ").append(r.task()).append(" iter ").append(r.iteration()).append(" (").append(r.kind())
                    .append("): ").append(why.replaceAll("\\s*\\R\\s*", " ")).append('\n');
        }
    }
}
