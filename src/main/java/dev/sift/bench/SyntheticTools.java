package dev.sift.bench;

import dev.sift.tool.Arg;
import dev.sift.tool.Tool;
import dev.sift.tool.ToolCallException;
import dev.sift.tool.ToolContext;
import dev.sift.tool.ToolResult;
import dev.sift.tool.ToolSpec;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A large catalogue for the tool-selection bench: plausible analysis tools (names and descriptions only)
 * that a growing Sift could register next to the real ones. They cannot run; they exist to be selected or not.
 */
public final class SyntheticTools {
    static final String[][] CATALOGUE = {
            {"correlate", "Measure the correlation between two numeric columns (Pearson and Spearman) with a p-value."},
            {"trend", "Fit a trend over time for a measure by month or year and report the slope and its significance."},
            {"forecast_series", "Forecast a time series of a measure for the next periods with prediction intervals."},
            {"detect_outliers", "Find outlier rows of a numeric column with robust z-scores or IQR fences."},
            {"train_classifier", "Train a classification model to predict a categorical target such as loan default and report AUC."},
            {"train_regressor", "Train a regression model to predict a numeric target and report error metrics."},
            {"explain_model", "Explain a trained model: feature importance and partial dependence of the top features."},
            {"score_rows", "Score rows with a trained model: predicted probability or value per entity."},
            {"cluster_rows", "Group similar rows into k clusters (k-means) and describe each cluster."},
            {"segment_customers", "Segment customers by behaviour (recency, frequency, monetary value)."},
            {"cohort_retention", "Build cohort retention tables: of the entities starting in a period, how many remain active later."},
            {"funnel", "Compute conversion through ordered funnel steps and the drop-off between them."},
            {"ab_test", "Compare two groups on a metric with a significance test and confidence interval."},
            {"histogram", "Describe the distribution of a numeric column as histogram bins with counts."},
            {"plot_chart", "Draw a bar, line or scatter chart of a result and save it as an image."},
            {"pivot_table", "Pivot a result: rows by one column, columns by another, cells aggregated."},
            {"profile_column", "Profile one column in depth: nulls, distinct values, quantiles and patterns."},
            {"missing_values", "Report missing values per column and suggest how to impute them."},
            {"deduplicate", "Find duplicate rows or near-duplicate text values in a column."},
            {"join_advisor", "Suggest how to join two tables: candidate keys and the row counts each join gives."},
            {"date_parse", "Parse messy date text into dates and report the formats found."},
            {"geocode_district", "Attach coordinates to place names such as districts and regions."},
            {"map_chart", "Draw values per region or district on a map."},
            {"seasonality", "Decompose a monthly series into trend, seasonal and residual parts."},
            {"survival_curve", "Estimate time-to-event survival curves, e.g. time until a loan defaults."},
            {"churn_risk", "Estimate churn risk per customer from inactivity and declining balances."},
            {"rank_entities", "Rank entities by a measure with ties and percentiles."},
            {"compare_periods", "Compare a measure between two periods and explain the change by segment."},
            {"anomaly_timeline", "Find days with unusual transaction volume or amounts."},
            {"text_search", "Search free-text columns for words or phrases."},
            {"random_sample", "Draw a random sample of rows from a table or frame."},
            {"export_csv", "Export a frame as a CSV file for the user to download."},
            {"currency_convert", "Convert amounts between currencies at historical rates."},
            {"benford_check", "Check whether amounts follow Benford's law, a fraud screening heuristic."},
            {"network_links", "Analyse payments between accounts as a network: hubs and communities."},
            {"what_if", "Recompute a metric under a hypothetical change to some rows."},
            {"quantiles", "Compute quantiles (median, quartiles, percentiles) of a numeric column by group."},
            {"crosstab_test", "Test the association between two categorical columns with a chi-squared test."},
            {"rolling_window", "Compute rolling averages or sums of a measure over time windows."},
            {"data_dictionary", "Write a data dictionary of the tables with column descriptions."},
    };

    /** Arguments of a catalogue tool. */
    public record Args(@Arg(value = "what to apply the tool to", required = false) String input) { }

    private SyntheticTools() { }

    /** Sift's own tools plus the catalogue tools whose names Sift does not already use: a large catalogue. */
    public static List<Tool<?>> withDefaults() {
        List<Tool<?>> out = new ArrayList<>(dev.sift.Sift.defaultTools().tools());
        java.util.Set<String> taken = new java.util.HashSet<>(dev.sift.Sift.defaultTools().names());
        all().stream().filter(t -> !taken.contains(t.spec().name())).forEach(out::add);
        return out;
    }

    public static List<Tool<?>> all() {
        List<Tool<?>> out = new ArrayList<>();
        for (String[] t : CATALOGUE) {
            out.add(new Tool<Args>() {
                @Override
                public ToolSpec spec() {
                    return new ToolSpec(t[0], t[1], Args.class, "analysis result", Set.of("analysis"));
                }

                @Override
                public ToolResult run(Args args, ToolContext ctx) throws ToolCallException {
                    throw new ToolCallException(t[0] + " exists only in the tool-selection bench catalogue.");
                }
            });
        }
        return out;
    }
}
