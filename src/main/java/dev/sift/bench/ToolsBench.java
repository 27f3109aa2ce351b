package dev.sift.bench;

import dev.sift.Sift;
import dev.sift.agent.ToolsShown;
import dev.sift.planner.llm.PromptBuilder;
import dev.sift.planner.llm.ToolSelector;
import dev.sift.tool.Tool;
import dev.sift.tool.ToolRegistry;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * Tool selection by retrieval over a large catalogue (Sift's tools plus {@link SyntheticTools}): for a fixed
 * question set, whether every needed tool was among those shown, how many were shown, and the catalogue
 * tokens saved against showing every tool (tokens estimated as characters / 4).
 */
public final class ToolsBench {
    /** A question and the tools it needs. */
    record Case(String question, List<String> needed) { }

    static final List<Case> CASES = List.of(
            new Case("Is the loan amount correlated with the loan duration?", List.of("correlate", "run_sql")),
            new Case("Forecast the monthly transaction volume for 1999", List.of("forecast_series")),
            new Case("Which transactions are outliers by amount?", List.of("detect_outliers")),
            new Case("Train a model to predict loan default and tell me the AUC", List.of("train_classifier")),
            new Case("Which features matter most for the default model?", List.of("explain_model")),
            new Case("Show the trend of new accounts per year", List.of("trend", "run_sql")),
            new Case("Draw a bar chart of loans by region", List.of("plot_chart")),
            new Case("Segment customers by recency, frequency and monetary value", List.of("segment_customers")),
            new Case("What is the default rate by district?", List.of("query_kg", "run_sql")),
            new Case("How many clients live in Prague?", List.of("run_sql")),
            new Case("What values does trans.k_symbol take?", List.of("sample_values")),
            new Case("Write the SQL for the average balance of gold card holders", List.of("text_to_sql")),
            new Case("Is there an association between card type and gender? chi-squared test", List.of("crosstab_test")),
            new Case("What is the median and the quartiles of loan amounts by status?", List.of("quantiles")),
            new Case("Estimate the time until a loan defaults as a survival curve", List.of("survival_curve")),
            new Case("Compare the number of transactions in 1997 with 1998 and explain the change",
                    List.of("compare_periods")),
            new Case("Summarize the results so far in a short narrative", List.of("summarize_result")),
            new Case("Which columns have missing values?", List.of("missing_values")),
            new Case("Draw the average salary per district on a map", List.of("map_chart")),
            new Case("Compute the 3-month rolling average of withdrawals", List.of("rolling_window")));

    /** Per-case outcome and totals. */
    public record Result(int catalogue, int cases, int covered, double meanShown, int allTokens, double meanShownTokens,
                         List<String> lines) { }

    public Result run() {
        ToolRegistry registry = new ToolRegistry(SyntheticTools.withDefaults());
        ToolSelector selector = new ToolSelector(registry);
        int allTokens = (PromptBuilder.catalog(registry).length() + 3) / 4;
        int covered = 0;
        long shownCount = 0;
        long shownTokens = 0;
        List<String> lines = new ArrayList<>();
        for (Case c : CASES) {
            ToolsShown s = selector.select(c.question());
            boolean ok = s.names().containsAll(c.needed());
            covered += ok ? 1 : 0;
            shownCount += s.shown().size();
            shownTokens += (PromptBuilder.catalog(PromptBuilder.shownTools(registry, s)).length() + 3) / 4;
            List<String> missing = c.needed().stream().filter(n -> !s.names().contains(n)).toList();
            lines.add(String.format("  %s %-75s shown %d%s", ok ? "ok  " : "MISS", c.question(), s.shown().size(),
                    missing.isEmpty() ? "" : "; missing " + String.join(", ", missing)));
        }
        return new Result(registry.names().size(), CASES.size(), covered, (double) shownCount / CASES.size(), allTokens,
                (double) shownTokens / CASES.size(), lines);
    }

    public void print(Result r, PrintWriter out) {
        out.printf("Tool selection over a catalogue of %d tools (%d core), %d questions%n", r.catalogue(),
                ToolSelector.CORE.size(), r.cases());
        r.lines().forEach(out::println);
        out.printf("  needed tools shown       : %d/%d questions%n", r.covered(), r.cases());
        out.printf("  tools shown per question : %.1f of %d%n", r.meanShown(), r.catalogue());
        out.printf("  catalogue tokens         : all %d, shown %.0f on average; saved %.0f (%.0f%%)%n", r.allTokens(),
                r.meanShownTokens(), r.allTokens() - r.meanShownTokens(),
                100 * (1 - r.meanShownTokens() / r.allTokens()));
        out.flush();
    }
}
