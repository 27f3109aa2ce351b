package dev.sift.planner.rules;

import java.util.List;
import java.util.Set;

/** What a question asks for, before its content is mapped. */
public enum Intent {
    /** tables, columns, "describe the loan table" → inspect_data */
    SCHEMA,
    /** "what values does loan.status take?" → sample_values */
    VALUES,
    /** "which loans will default?" → the ML tools when registered */
    PREDICTIVE,
    /** "what correlates with loan amount?" → correlation_analysis when registered */
    CORRELATION,
    /** "is there a trend in …" → trend_analysis when registered */
    TREND,
    /** "profile the loan table" → profile_data when registered */
    PROFILE,
    /** counts, aggregates, metrics, top N, listings, breakdowns → run_sql */
    QUERY;

    private static final Set<String> SCHEMA_WORDS = Set.of("table", "schema", "column", "field", "structure", "describe");
    private static final Set<String> VALUE_WORDS = Set.of("value", "code", "categorie", "category", "distinct", "kind",
            "level", "option");
    private static final Set<String> PREDICT_WORDS = Set.of("predict", "predicted", "prediction", "likely", "probability",
            "risk", "will", "probably", "forecast", "score", "estimate", "chance", "expected", "likelihood");
    private static final Set<String> CORRELATION_WORDS = Set.of("correlate", "correlated", "correlation", "relationship",
            "related", "associated", "association");
    private static final Set<String> TREND_WORDS = Set.of("trend", "trending", "evolve", "evolved", "evolution");
    private static final Set<String> PROFILE_WORDS = Set.of("profile", "profiling", "summarize", "summarise", "overview");
    private static final Set<String> COUNT_WORDS = Set.of("many", "number", "count");

    /** Classifies from the question's plain words (stemmed, lower case). */
    public static Intent classify(List<String> words) {
        if (words.stream().anyMatch(PREDICT_WORDS::contains)) {
            return PREDICTIVE;
        }
        if (words.stream().anyMatch(CORRELATION_WORDS::contains)) {
            return CORRELATION;
        }
        if (words.stream().anyMatch(TREND_WORDS::contains)) {
            return TREND;
        }
        if (words.stream().anyMatch(PROFILE_WORDS::contains)) {
            return PROFILE;
        }
        boolean counting = words.stream().anyMatch(COUNT_WORDS::contains);
        if (!counting && words.stream().anyMatch(VALUE_WORDS::contains)) {
            return VALUES;
        }
        if (!counting && words.stream().anyMatch(SCHEMA_WORDS::contains)) {
            return SCHEMA;
        }
        return QUERY;
    }
}
