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
 * Tool selection, measured two ways. Over a large catalogue (Sift's tools plus {@link SyntheticTools}): for a fixed
 * question set, whether every needed tool was among those shown, how many were shown, and the catalogue tokens saved
 * against showing every tool (tokens estimated as characters / 4). Over Sift's own tools ({@link #SIFT_CASES}):
 * the recall of the groups a question needs, and the tools shown beyond the core to questions that need none.
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

    /** Questions on the bank data and the tools of Sift's own catalogue each needs beyond the core (none: a lookup). */
    static final List<Case> SIFT_CASES = List.of(
            new Case("Is the loan amount correlated with the loan duration?", List.of("correlation_analysis")),
            new Case("How has the number of new accounts changed over time?", List.of("trend_analysis")),
            new Case("Forecast the monthly transaction volume for next year", List.of("forecast")),
            new Case("Which transactions are unusual by amount?", List.of("anomaly_scan")),
            new Case("Are there outliers among the loan amounts?", List.of("anomaly_scan")),
            new Case("Segment the clients into groups of similar behaviour", List.of("kmeans_clusters")),
            new Case("Draw a bar chart of loans by region", List.of("make_chart")),
            new Case("Plot the number of loans granted per year", List.of("make_chart")),
            new Case("Which columns have missing values or duplicates?", List.of("data_quality_report")),
            new Case("Profile the loan table", List.of("profile_data")),
            new Case("Pivot the loan count by region and status", List.of("pivot")),
            new Case("What is notable about the transactions?", List.of("auto_insights")),
            new Case("Which running loans are likely to default?", List.of("prediction_frames", "train_model", "predict",
                    "explain_prediction")),
            new Case("Rank the ongoing loans by their risk of default", List.of("prediction_frames", "predict")),
            new Case("Why do loans default?", List.of("train_model", "explain_prediction")),
            new Case("Estimate the loan amount each account without a loan could be granted.", List.of("train_model",
                    "predict")),
            new Case("What if the amount of loan 5314 were halved?", List.of("what_if")),
            new Case("Which saved models do I have, and which is best?", List.of("list_models", "compare_models")),
            new Case("Has the data drifted since the model was trained?", List.of("check_drift")),
            new Case("Add a column with the loan amount in thousands", List.of("transform_column")),
            new Case("Show me a random sample of 10 clients", List.of("sample_rows")),
            new Case("Write the SQL for the average balance of gold card holders", List.of("text_to_sql")),
            new Case("Summarize the results so far in a short narrative", List.of("summarize_result")),
            new Case("Connect the file sales.csv and count its rows", List.of("connect_source")),
            new Case("How many loans are there?", List.of()),
            new Case("What is the average loan amount in Prague?", List.of()),
            new Case("What is the default rate by region?", List.of()),
            new Case("Which 3 districts have the lowest average salary?", List.of()),
            new Case("List the loans over 550000.", List.of()),
            new Case("What is the breakdown of card types among women?", List.of()),
            new Case("How many accounts have more than one client?", List.of()),
            new Case("How many cards are there of each type?", List.of()),
            new Case("Which 1995 districts had higher unemployment than in 1996?", List.of()),
            new Case("What are the top 5 districts by number of accounts?", List.of()));

    /** Sift's own catalogue: questions whose tools were all shown, and what questions needing none were shown. */
    public record SiftResult(int cases, int covered, int lookups, int lookupsWithExtras, double meanExtras,
                             List<String> lines) { }

    public SiftResult runSift() {
        ToolRegistry registry = Sift.defaultTools();
        ToolSelector selector = new ToolSelector(registry);
        int covered = 0;
        int lookups = 0;
        int withExtras = 0;
        int extras = 0;
        List<String> lines = new ArrayList<>();
        for (Case c : SIFT_CASES) {
            ToolsShown s = selector.select(c.question());
            List<String> extra = s.names().stream().filter(n -> !ToolSelector.CORE.contains(n)).toList();
            List<String> missing = c.needed().stream().filter(n -> !s.names().contains(n)).toList();
            covered += missing.isEmpty() ? 1 : 0;
            if (c.needed().isEmpty()) {
                lookups++;
                withExtras += extra.isEmpty() ? 0 : 1;
                extras += extra.size();
            }
            lines.add(String.format("  %s %-75s %s", missing.isEmpty() ? "ok  " : "MISS", c.question(),
                    (extra.isEmpty() ? "core only" : "+ " + String.join(", ", extra))
                            + (missing.isEmpty() ? "" : "; missing " + String.join(", ", missing))));
        }
        return new SiftResult(SIFT_CASES.size(), covered, lookups, withExtras, lookups == 0 ? 0 : (double) extras / lookups,
                lines);
    }

    public void print(SiftResult r, PrintWriter out) {
        out.printf("Tool selection over Sift's own tools (%d), %d questions%n", Sift.defaultTools().names().size(),
                r.cases());
        r.lines().forEach(out::println);
        out.printf("  needed tools shown       : %d/%d questions (recall %.3f)%n", r.covered(), r.cases(),
                (double) r.covered() / r.cases());
        out.printf("  lookups shown extra tools: %d of %d (mean %.1f extra tools)%n", r.lookupsWithExtras(), r.lookups(),
                r.meanExtras());
        out.flush();
    }

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
