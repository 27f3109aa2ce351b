package dev.sift.bench;

import dev.sift.bench.suite.Suite;
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
 * The scored run of a suite: per-item results, a summary per tier and overall (precision = correct/answered,
 * coverage = answered/total, accuracy = correct/total, where answered = correct + wrong), the median answer
 * time, and the suite's targets with whether each is met. Written as {@code report.json} and {@code report.md}.
 */
public final class BenchReport {
    public static final List<String> SCOPES = List.of("overall", "analytic", "predictive", "adversarial", "clarify");

    /** Counts of one tier (or overall). Rates are null when undefined (nothing answered, or no items). */
    public record Tally(int total, int answered, int correct, int wrong, int abstained, int error) {
        public Double precision() {
            return answered == 0 ? null : (double) correct / answered;
        }

        public Double coverage() {
            return total == 0 ? null : (double) answered / total;
        }

        public Double accuracy() {
            return total == 0 ? null : (double) correct / total;
        }

        Map<String, Object> json() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("total", total);
            m.put("answered", answered);
            m.put("correct", correct);
            m.put("wrong", wrong);
            m.put("abstained", abstained);
            m.put("error", error);
            m.put("precision", round(precision()));
            m.put("coverage", round(coverage()));
            m.put("accuracy", round(accuracy()));
            return m;
        }

        Double metric(String name) {
            return switch (name) {
                case "precision" -> precision();
                case "coverage" -> coverage();
                case "accuracy" -> accuracy();
                default -> throw new IllegalArgumentException(name);
            };
        }
    }

    /** A target of the suite and where the run stands ({@code met} is false when the metric is undefined). */
    public record Target(String name, String op, double target, Double actual, boolean met) {
        Map<String, Object> json() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", name);
            m.put("op", op);
            m.put("target", target);
            m.put("actual", round(actual));
            m.put("met", met);
            return m;
        }
    }

    private final Suite suite;
    private final String dataset;
    private final String planner;
    private final String startedAt;
    private final List<ItemResult> items;

    public BenchReport(Suite suite, String dataset, String planner, String startedAt, List<ItemResult> items) {
        this.suite = suite;
        this.dataset = dataset;
        this.planner = planner;
        this.startedAt = startedAt;
        this.items = List.copyOf(items);
    }

    public List<ItemResult> items() {
        return items;
    }

    public Tally tally(String scope) {
        int total = 0;
        int[] n = new int[Outcome.values().length];
        for (ItemResult r : items) {
            if (scope.equals("overall") || r.item().tier().wire().equals(scope)) {
                total++;
                n[r.outcome().ordinal()]++;
            }
        }
        int correct = n[Outcome.CORRECT.ordinal()];
        int wrong = n[Outcome.WRONG.ordinal()];
        return new Tally(total, correct + wrong, correct, wrong, n[Outcome.ABSTAINED.ordinal()], n[Outcome.ERROR.ordinal()]);
    }

    /** How many conversations ran, their turns, and how many had every turn correct. */
    public record Conversations(int total, int turns, int allCorrect) {
        String line() {
            return String.format(Locale.ROOT, "%d conversations (%d turns), %d with every turn correct", total, turns,
                    allCorrect);
        }
    }

    /** The conversations of the suite that ran (all their turns have results). */
    public Conversations conversations() {
        Map<String, ItemResult> byId = new LinkedHashMap<>();
        items.forEach(r -> byId.put(r.item().id(), r));
        int total = 0;
        int turns = 0;
        int all = 0;
        for (Suite.Dialogue d : suite.conversations()) {
            if (!d.turns().stream().allMatch(t -> byId.containsKey(t.id()))) {
                continue;
            }
            total++;
            turns += d.turns().size();
            all += d.turns().stream().allMatch(t -> byId.get(t.id()).outcome() == Outcome.CORRECT) ? 1 : 0;
        }
        return new Conversations(total, turns, all);
    }

    /** Median seconds per item, in milliseconds (items whose run failed before answering are left out). */
    public double medianMillis() {
        double[] s = items.stream().filter(r -> r.kind() != null).mapToDouble(r -> r.seconds() * 1000).sorted().toArray();
        if (s.length == 0) {
            return Double.NaN;
        }
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    public List<Target> targets() {
        List<Target> out = new ArrayList<>();
        suite.targets().entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> {
            if (e.getKey().equals("median_ms")) {
                double m = medianMillis();
                out.add(new Target(e.getKey(), "<=", e.getValue(), Double.isNaN(m) ? null : m, !Double.isNaN(m) && m <= e.getValue()));
            } else {
                String[] p = e.getKey().split("\\.");
                Double actual = tally(p[0]).metric(p[1]);
                out.add(new Target(e.getKey(), ">=", e.getValue(), actual, actual != null && actual >= e.getValue() - 1e-12));
            }
        });
        return out;
    }

    /**
     * Answers by groundedness status, and the judged share the judge found grounded (judge failures count as
     * judged, so they lower it rather than leave the denominator); null when nothing was judged.
     */
    public record Groundedness(Map<String, Integer> byStatus, int judged, int judgedGrounded) {
        public Double rate() {
            return judged == 0 ? null : (double) judgedGrounded / judged;
        }

        Map<String, Object> json() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("by_status", byStatus);
            m.put("judged", judged);
            m.put("judged_grounded", judgedGrounded);
            m.put("groundedness", round(rate()));
            return m;
        }

        String line() {
            StringBuilder b = new StringBuilder();
            byStatus.forEach((k, v) -> b.append(b.length() == 0 ? "" : ", ").append(v).append(' ').append(k));
            return (b.length() == 0 ? "no answers" : b) + "; groundedness " + (rate() == null ? "n/a (none judged)"
                    : String.format(Locale.ROOT, "%.3f (%d of %d judged)", rate(), judgedGrounded, judged));
        }
    }

    public Groundedness groundedness() {
        Map<String, Integer> by = new java.util.TreeMap<>();
        int judged = 0;
        int grounded = 0;
        for (ItemResult r : items) {
            if (r.status() == null) {
                continue;
            }
            by.merge(r.status(), 1, Integer::sum);
            if (r.status().equals("judged") || r.verdict() != null
                    || r.status().equals("failed") && "answer".equals(r.kind())) {
                judged++;
                grounded += "grounded".equals(r.verdict()) ? 1 : 0;
            }
        }
        return new Groundedness(by, judged, grounded);
    }

    Map<String, Object> json() {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("suite", suite.name());
        root.put("file", suite.file().toString());
        root.put("dataset", dataset);
        root.put("planner", planner);
        root.put("started_at", startedAt);
        root.put("items_run", items.size());
        root.put("median_ms", round(medianMillis()));
        root.put("warm_up_items", planner.equals("offline") ? Math.min(BenchRunner.WARM_UP_ITEMS, items.size()) : 0);
        Map<String, Object> summary = new LinkedHashMap<>();
        for (String scope : SCOPES) {
            Tally t = tally(scope);
            if (t.total() > 0 || scope.equals("overall")) {
                summary.put(scope, t.json());
            }
        }
        root.put("summary", summary);
        if (!suite.conversations().isEmpty()) {
            Conversations c = conversations();
            root.put("conversations", Map.of("total", c.total(), "turns", c.turns(), "all_turns_correct", c.allCorrect()));
        }
        root.put("groundedness", groundedness().json());
        root.put("targets", targets().stream().map(Target::json).toList());
        Breakdown breakdown = new Breakdown(items);
        if (!breakdown.isEmpty()) {
            root.putAll(breakdown.json());
        }
        if (items.stream().anyMatch(r -> r.item().namesTools())) {
            PlanScore plan = PlanScore.mean(items);
            root.put("plan", Map.of("precision", plan.precision() == null ? "n/a" : plan.precision(),
                    "recall", plan.recall() == null ? "n/a" : plan.recall()));
        }
        root.put("items", items.stream().map(BenchReport::itemJson).toList());
        return root;
    }

    /** One item's row of {@code report.json}: the question, its outcome and why, and what the run did. */
    private static Map<String, Object> itemJson(ItemResult r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", r.item().id());
        m.put("tier", r.item().tier().wire());
        m.put("question", r.item().question());
        if (r.resolved() != null) {
            m.put("resolved", r.resolved());
        }
        m.put("outcome", r.outcome().wire());
        m.put("reason", r.reason());
        m.put("kind", r.kind());
        m.put("status", r.status());
        m.put("verdict", r.verdict());
        m.put("answer", r.answer());
        m.put("sql", r.sql());
        m.put("gold_sql", r.item().goldSql());
        m.put("expect", r.item().expect() == null ? null : r.item().expect().wire());
        m.put("seconds", round(r.seconds()));
        m.put("steps", r.steps());
        m.put("tools", r.tools());
        if (r.item().namesTools()) {
            PlanScore plan = PlanScore.of(r);
            m.put("plan_precision", plan.precision());
            m.put("plan_recall", plan.recall());
        }
        return m;
    }

    private static Double round(Double d) {
        return d == null || d.isNaN() ? null : Math.round(d * 10000) / 10000.0;
    }

    /** Writes {@code report.json} and {@code report.md} into {@code dir} (created if needed). */
    public void write(Path dir) throws IOException {
        Files.createDirectories(dir);
        ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        Files.writeString(dir.resolve("report.json"), json.writeValueAsString(json()) + "\n");
        Files.writeString(dir.resolve("report.md"), markdown());
    }

    String markdown() {
        StringBuilder md = new StringBuilder();
        md.append("# Bench report: ").append(suite.name()).append("\n\n");
        md.append("Suite `").append(suite.file()).append("` on dataset `").append(dataset).append("`, planner `")
                .append(planner).append("`, started ").append(startedAt).append(", ").append(items.size())
                .append(" items, median answer time ").append(fmtMs(medianMillis())).append(".\n\n");
        md.append("| scope | total | answered | correct | wrong | abstained | error | precision | coverage | accuracy |\n");
        md.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (String scope : SCOPES) {
            Tally t = tally(scope);
            if (t.total() == 0 && !scope.equals("overall")) {
                continue;
            }
            md.append(String.format(Locale.ROOT, "| %s | %d | %d | %d | %d | %d | %d | %s | %s | %s |%n", scope, t.total(),
                    t.answered(), t.correct(), t.wrong(), t.abstained(), t.error(), fmt(t.precision()), fmt(t.coverage()),
                    fmt(t.accuracy())));
        }
        md.append("\nGroundedness: ").append(groundedness().line()).append(".\n");
        if (!suite.conversations().isEmpty()) {
            md.append("\nConversations: ").append(conversations().line()).append(".\n");
        }
        if (!suite.targets().isEmpty()) {
            md.append("\n## Targets\n\n| target | wanted | actual | met |\n|---|---|---:|---|\n");
            for (Target t : targets()) {
                md.append("| ").append(t.name()).append(" | ").append(t.op()).append(' ').append(fmtNum(t.target()))
                        .append(" | ").append(t.actual() == null ? "n/a" : fmtNum(t.actual())).append(" | ")
                        .append(t.met() ? "yes" : "**no**").append(" |\n");
            }
        }
        md.append(new Breakdown(items).markdown());
        md.append("\n## Items\n\n| id | tier | outcome | s | question | note |\n|---|---|---|---:|---|---|\n");
        for (ItemResult r : items) {
            md.append("| ").append(r.item().id()).append(" | ").append(r.item().tier().wire()).append(" | ")
                    .append(r.outcome().wire()).append(" | ").append(String.format(Locale.ROOT, "%.3f", r.seconds()))
                    .append(" | ").append(cell(r.item().question() + (r.resolved() == null
                            || r.resolved().equals(r.item().question()) ? "" : " → " + r.resolved()))).append(" | ")
                    .append(r.reason() == null ? "" : cell(BenchRunner.oneLine(r.reason(), 200))).append(" |\n");
        }
        return md.toString();
    }

    /** The summary and the targets, as the command prints them. */
    public void printSummary(PrintWriter out) {
        out.printf("Suite %s on dataset %s, planner %s: %d items, median answer time %s%n", suite.name(), dataset, planner,
                items.size(), fmtMs(medianMillis()));
        out.printf("  %-12s %5s %8s %7s %5s %9s %5s %9s %8s %8s%n", "scope", "total", "answered", "correct", "wrong",
                "abstained", "error", "precision", "coverage", "accuracy");
        for (String scope : SCOPES) {
            Tally t = tally(scope);
            if (t.total() == 0 && !scope.equals("overall")) {
                continue;
            }
            out.printf("  %-12s %5d %8d %7d %5d %9d %5d %9s %8s %8s%n", scope, t.total(), t.answered(), t.correct(),
                    t.wrong(), t.abstained(), t.error(), fmt(t.precision()), fmt(t.coverage()), fmt(t.accuracy()));
        }
        out.printf("  groundedness: %s%n", groundedness().line());
        if (!suite.conversations().isEmpty()) {
            out.printf("  %s%n", conversations().line());
        }
        new Breakdown(items).print(out);
        long planned = items.stream().filter(r -> r.item().namesTools()).count();
        if (planned > 0) {
            out.printf("  %s%n", PlanScore.mean(items).line((int) planned));
        }
        for (Outcome o : List.of(Outcome.WRONG, Outcome.ERROR)) {
            List<String> ids = items.stream().filter(r -> r.outcome() == o).map(r -> r.item().id()).toList();
            if (!ids.isEmpty()) {
                out.printf("  %s: %s%s%n", o.wire(), String.join(", ", ids.subList(0, Math.min(30, ids.size()))),
                        ids.size() > 30 ? ", … (" + ids.size() + " in all)" : "");
            }
        }
        for (Target t : targets()) {
            out.printf("  target %-22s %s %-6s actual %-8s %s%n", t.name(), t.op(), fmtNum(t.target()),
                    t.actual() == null ? "n/a" : fmtNum(t.actual()), t.met() ? "met" : "NOT met");
        }
        out.flush();
    }

    private static String fmt(Double d) {
        return d == null ? "n/a" : String.format(Locale.ROOT, "%.3f", d);
    }

    private static String fmtNum(double d) {
        return d == Math.rint(d) && Math.abs(d) < 1e9 ? String.valueOf((long) d) : String.format(Locale.ROOT, "%.3f", d);
    }

    private static String fmtMs(double ms) {
        return Double.isNaN(ms) ? "n/a" : String.format(Locale.ROOT, "%.1f ms", ms);
    }

    private static String cell(String s) {
        return s.replace("|", "\\|").replaceAll("\\s*\\R\\s*", " ");
    }
}
