package dev.sift.tool.analysis;

import dev.sift.data.Sql;

import java.util.stream.Collectors;

/**
 * The DuckDB SQL of {@code match_records}: normalised values per side, block keys, candidate pairs and their scores.
 * A block key is a word of the normalised value, the first two letters of two
 * neighbouring words ("john smith" and "jon smith" share "josm"), or the value's first or last four characters; a key
 * that would pair more than {@link MatchRecords#MAX_BLOCK_PAIRS} values (a common word) pairs nothing, which keeps
 * the work near-linear.
 * Values equal once normalised are always paired.
 */
final class MatchSql {
    private MatchSql() { }

    /** CTE body of one side: distinct values, their normalised text and its distinct words. */
    private static String normalised(MatchRecords.Names names, String side) {
        String dropped = names.dropped().stream().map(Sql::quoteString).collect(Collectors.joining(", ", "[", "]"));
        String words = "list_filter(string_split(trim(regexp_replace(strip_accents(lower(value)), '[^\\pL\\pN]+', ' ',"
                + " 'g')), ' '), lambda w: w <> '')";
        String kept = "list_filter(words, lambda w: NOT list_contains(" + dropped + ", w))";
        return "SELECT value, norm, list_distinct(string_split(norm, ' ')) AS toks FROM (SELECT value,"
                + " array_to_string(CASE WHEN len(" + kept + ") > 0 THEN " + kept + " ELSE words END, ' ') AS norm FROM"
                + " (SELECT value, " + words + " AS words FROM (SELECT v AS value FROM (" + side + ") GROUP BY v)))"
                + " WHERE norm <> ''";
    }

    /** CTE body of one side's block keys, each with how many values hold it. */
    private static String keys(String side) {
        String all = "SELECT value, unnest(toks) AS key FROM " + side
                + " UNION ALL SELECT value, '+' || unnest(list_transform(range(1, len(string_split(norm, ' '))),"
                + " lambda i: left(string_split(norm, ' ')[i], 2) || left(string_split(norm, ' ')[i + 1], 2))) FROM " + side
                + " UNION ALL SELECT value, '^' || left(norm, 4) FROM " + side
                + " UNION ALL SELECT value, '$' || right(norm, 4) FROM " + side;
        return "SELECT value, key, count(*) OVER (PARTITION BY key) AS held FROM (SELECT DISTINCT value, key FROM (" + all
                + ") WHERE length(key) >= 2)";
    }

    /** The CTEs up to the candidate pairs {@code cand(lv, rv)}; within one side only pairs with lv < rv. */
    private static String candidates(MatchRecords.Names names, String left, String right, boolean dedupe) {
        StringBuilder b = new StringBuilder("WITH l AS MATERIALIZED (").append(normalised(names, left)).append("), lk AS MATERIALIZED (")
                .append(keys("l")).append(')');
        if (dedupe) {
            b.append(", r AS (SELECT * FROM l), rk AS (SELECT * FROM lk)");
        } else {
            b.append(", r AS MATERIALIZED (").append(normalised(names, right)).append("), rk AS MATERIALIZED (")
                    .append(keys("r")).append(')');
        }
        return b.append(", cand AS MATERIALIZED (SELECT DISTINCT lv, rv FROM (SELECT a.value AS lv, b.value AS rv FROM lk a JOIN rk b"
                + " ON a.key = b.key AND a.held * b.held <= " + MatchRecords.MAX_BLOCK_PAIRS + " UNION ALL SELECT a.value, b.value FROM l a JOIN r b ON a.norm = b.norm)")
                .append(dedupe ? " WHERE lv < rv)" : ")").toString();
    }

    /** Every candidate pair scored: the best of Jaro–Winkler, Levenshtein similarity and token-set overlap. */
    private static String scored(MatchRecords.Names names, String left, String right, boolean dedupe, double threshold) {
        return candidates(names, left, right, dedupe) + ", s AS (SELECT lv, rv, a.norm = b.norm AS same_normalised,"
                + " jaro_winkler_similarity(a.norm, b.norm) AS jw,"
                + " 1 - levenshtein(a.norm, b.norm) / greatest(length(a.norm), length(b.norm)) AS lev,"
                + " len(list_intersect(a.toks, b.toks)) / len(list_distinct(list_concat(a.toks, b.toks))) AS tok"
                + " FROM cand JOIN l a ON a.value = lv JOIN r b ON b.value = rv),"
                + " m AS (SELECT *, CASE WHEN same_normalised THEN 1.0 ELSE greatest(jw, lev, tok) END AS score FROM s"
                + " WHERE greatest(jw, lev, tok) >= " + threshold + " OR same_normalised)";
    }

    private static final String SCORES = "round(score, 4) AS score, round(jw, 4) AS jaro_winkler,"
            + " round(lev, 4) AS levenshtein, round(tok, 4) AS token_overlap, same_normalised";

    /** The best match of each left value with its runner-up; ambiguous when the two are within {@code margin}. */
    static String join(MatchRecords.Names names, String left, String right, double threshold, double margin) {
        return scored(names, left, right, false, threshold) + ", ranked AS (SELECT *, row_number() OVER w AS rk,"
                + " lead(rv) OVER w AS runner_up, lead(score) OVER w AS runner_up_score FROM m"
                + " WINDOW w AS (PARTITION BY lv ORDER BY score DESC, rv))"
                + " SELECT lv AS value, rv AS match, " + SCORES + ", runner_up, round(runner_up_score, 4) AS runner_up_score,"
                + " coalesce(score - runner_up_score < " + margin + ", false) AS ambiguous FROM ranked WHERE rk = 1";
    }

    /** Every pair of values of one side scored at or above the threshold. */
    static String duplicates(MatchRecords.Names names, String side, double threshold) {
        return scored(names, side, side, true, threshold) + " SELECT lv AS value, rv AS duplicate, " + SCORES + " FROM m";
    }

    /** How many pairs the blocking let through to scoring. */
    static String candidateCount(MatchRecords.Names names, String left, String right, boolean dedupe) {
        return candidates(names, left, right, dedupe) + " SELECT count(*) FROM cand";
    }
}
