package dev.sift.planner.rules;

import dev.sift.knowledge.Vocabulary;

import java.util.List;

/**
 * What a question asks for, before its content is mapped: the one intent classifier of the offline planner. Its
 * word lists are the {@code intents} section of {@link Vocabulary}. A question about a prediction task the
 * knowledge graph names ("which factors predict default?", "why do loans default?") is predictive even when it
 * says "predict" or "why"; a prediction of a series over time ("predict monthly transaction volume") is a forecast.
 */
public enum Intent {
    /** tables, columns, "describe the loan table" → inspect_data */
    SCHEMA("inspect_data", "the schema"),
    /** "what values does loan.status take?" → sample_values */
    VALUES("sample_values", "the values of a column"),
    /** "which loans will default?", "why do loans default?" → the ML flow of a prediction task */
    PREDICTIVE("train_model", "a prediction"),
    /** "what correlates with loan amount?" → correlation_analysis */
    CORRELATION("correlation_analysis", "correlations"),
    /** "is there a trend in …" → trend_analysis */
    TREND("trend_analysis", "trend"),
    /** "forecast monthly trans amount" → forecast */
    FORECAST("forecast", "forecast"),
    /** "profile the loan table" → profile_data */
    PROFILE("profile_data", "a profile"),
    /** "data quality of trans" → data_quality_report */
    QUALITY("data_quality_report", "a data quality report"),
    /** "unusual loan amounts" → anomaly_scan */
    ANOMALY("anomaly_scan", "unusual rows"),
    /** "cluster the districts" → kmeans_clusters */
    CLUSTER("kmeans_clusters", "clusters"),
    /** counts, aggregates, metrics, top N, listings, breakdowns → run_sql */
    QUERY("run_sql", "a query");

    private static final Vocabulary V = Vocabulary.WORDS;

    /** The tool this intent is answered with. */
    public final String tool;
    /** The intent in words ("a profile"), for questions back. */
    public final String what;

    Intent(String tool, String what) {
        this.tool = tool;
        this.what = what;
    }

    /** The analysis intents, answered by one call of an analysis tool ({@link AnalysisRoutes}). */
    public boolean analysis() {
        return this == CORRELATION || this == TREND || this == FORECAST || this == PROFILE || this == QUALITY
                || this == ANOMALY || this == CLUSTER;
    }

    /**
     * Classifies from the question's comparable words ({@link dev.sift.knowledge.Phrases#words}); {@code task} is
     * true when a prediction task of the knowledge graph is triggered by the question.
     */
    public static Intent classify(List<String> words, boolean task) {
        return classify(words, task, w -> false);
    }

    /**
     * As above; {@code namesData} says whether a word names a table or column of the dataset itself ("segment" when
     * the customers table has a column {@code segment}): such a word does not ask for an analysis.
     */
    public static Intent classify(List<String> words, boolean task, java.util.function.Predicate<String> namesData) {
        List<String> asked = java.util.stream.IntStream.range(0, words.size()).filter(i -> !namesData.test(words.get(i))
                && !(words.get(i).equals("score") && i > 0 && namesData.test(words.get(i - 1)))) // "sig score": the column's own
                .mapToObj(words::get).toList();
        boolean howMany = pair(words, "how", "many");
        boolean counting = words.contains("many") || words.contains("number") || words.contains("count");
        if (!howMany) {
            for (Intent i : List.of(PROFILE, QUALITY, CORRELATION, ANOMALY, CLUSTER)) {
                if (V.any(asked, "intents." + i.name().toLowerCase(java.util.Locale.ROOT))) {
                    return i;
                }
            }
        }
        boolean predictive = V.any(asked, "intents.predictive");
        if (task && (predictive || V.any(words, "intents.explain"))) {
            return PREDICTIVE;
        }
        boolean forecastNamesData = V.list("intents.forecast").stream().anyMatch(namesData); // budgets' forecastYear: "projections" are rows
        if (V.any(asked, "intents.forecast") && !forecastNamesData || predictive && words.stream().anyMatch(w -> V.has(w, "grains"))
                && !V.any(words, "intents.explain")) {
            return FORECAST;
        }
        if (predictive) {
            return PREDICTIVE;
        }
        if (V.any(asked, "intents.trend")) {
            return TREND;
        }
        boolean shaped = words.stream().anyMatch(w -> V.has(w, "aggregates", "group_cues", "share", "distribution",
                "descending", "ascending", "comparatives", "compass_superlatives")); // "which category has the most orders" ranks
        if (!counting && !shaped && V.any(words, "intents.values")) {
            return VALUES;
        }
        if (!counting && V.any(words, "intents.schema")) {
            return SCHEMA;
        }
        return QUERY;
    }

    private static boolean pair(List<String> words, String a, String b) {
        for (int i = 0; i + 1 < words.size(); i++) {
            if (words.get(i).equals(a) && words.get(i + 1).equals(b)) {
                return true;
            }
        }
        return false;
    }
}
