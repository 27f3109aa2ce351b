package dev.sift.planner.rules;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sift.agent.AnswerKind;
import dev.sift.agent.Decision;
import dev.sift.agent.Step;
import dev.sift.data.ColumnInfo;
import dev.sift.data.TableInfo;
import dev.sift.knowledge.Phrases;
import dev.sift.knowledge.Vocabulary;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Offline routes to the analysis tools for requests whose intent and arguments are plain: "profile the loan
 * table", "data quality of trans", "what correlates with loan amount?", "is there a trend in monthly
 * transaction volume?", "forecast monthly trans amount total". Precision first, as in {@link RulePlanner}:
 * one table, every word accounted for, and a question back when the table, date column or measure is
 * ambiguous. Interpretations it does make (a word read as a table, "volume" as a row count, a default
 * grain) are stated in the answer.
 */
public final class AnalysisRoutes {
    private static final ObjectMapper JSON = new ObjectMapper();
    public static final Set<String> TOOLS = Set.of("profile_data", "data_quality_report", "correlation_analysis",
            "trend_analysis", "forecast", "anomaly_scan", "kmeans_clusters");
    private static final Vocabulary V = Vocabulary.WORDS;
    private static final Map<String, String> AGG_WORDS = Map.of("total", "sum", "sum", "sum", "average", "avg",
            "mean", "avg", "median", "median", "maximum", "max", "minimum", "min");

    private AnalysisRoutes() { }

    private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}_.]+");
    /** A decision for an analysis request, or empty when the question is not one (other routes then apply). */
    public static Optional<Decision> route(Intent intent, String question, List<TableInfo> tables) {
        String q = question.toLowerCase(Locale.ROOT);
        List<String> words = words(q);
        if (!intent.analysis()) {
            return Optional.empty();
        }
        List<String> notes = new ArrayList<>();
        List<TableInfo> mentioned = mentioned(words, tables, notes);
        if (mentioned.size() != 1) {
            return Optional.of(whichTable(intent, tables, mentioned));
        }
        TableInfo t = mentioned.get(0);
        Set<String> used = new LinkedHashSet<>(tableWords(t));
        words.stream().filter(w -> notes.stream().anyMatch(n -> n.startsWith("'" + w + "'"))).forEach(used::add);
        List<ColumnInfo> columns = columnsNamed(words, t);
        columns.forEach(c -> used.add(c.name().toLowerCase(Locale.ROOT)));
        ObjectNode args = JSON.createObjectNode().put("source", t.name());
        String thought;
        switch (intent) {
            case PROFILE -> thought = "Profiled table " + t.name() + ".";
            case QUALITY -> thought = "Checked the data quality of table " + t.name() + ".";
            case ANOMALY, CLUSTER -> {
                List<ColumnInfo> numeric = columns.isEmpty() ? numericColumns(t) : columns;
                if (numeric.isEmpty()) {
                    return Optional.of(ask("Table " + t.name() + " has no numeric columns for " + intent.what + "."));
                }
                numeric.forEach(c -> args.withArray("columns").add(c.name()));
                thought = (intent == Intent.ANOMALY ? "Scanned table " + t.name() + " for unusual values of "
                        : "Clustered the rows of table " + t.name() + " by ") + names(numeric)
                        + (columns.isEmpty() ? " (its numeric columns, as none was named)." : ".");
            }
            case CORRELATION -> {
                if (columns.size() > 1) {
                    return Optional.of(ask("Which column's correlations do you mean: " + names(columns) + "?"));
                }
                if (!columns.isEmpty()) {
                    args.put("target", columns.get(0).name());
                }
                thought = "Correlated the columns of table " + t.name()
                        + (columns.isEmpty() ? "." : ", " + columns.get(0).name() + "'s pairs first.");
            }
            default -> {
                Optional<Decision> series = series(intent, q, words, t, columns, args, used, notes);
                if (series.isPresent()) {
                    return series;
                }
                thought = (intent == Intent.TREND ? "Trend of the " : "Forecast of the ") + args.get("grain").asText()
                        + "ly " + (args.has("measure") ? args.get("agg").asText() + " of " + args.get("measure").asText()
                        : "number of rows") + " of table " + t.name() + " by " + args.get("date").asText() + ".";
            }
        }
        Optional<Decision> unmapped = unmapped(intent, words, used, t);
        if (unmapped.isPresent()) {
            return unmapped;
        }
        String said = notes.isEmpty() ? "" : " (" + String.join("; ", notes) + ")";
        return Optional.of(Decision.call(thought.substring(0, thought.length() - 1) + said + ".", intent.tool, args, null));
    }

    /** No table, or more than one, named: ask which (offline, one table is analysed at a time). */
    private static Decision whichTable(Intent intent, List<TableInfo> tables, List<TableInfo> mentioned) {
        return Decision.answer("no single table", (mentioned.isEmpty() ? "Which table should I use for "
                + intent.what + "? Tables: " + String.join(", ", tables.stream().map(TableInfo::name).toList())
                : "Offline I analyse one table at a time; you mentioned " + String.join(", ",
                mentioned.stream().map(TableInfo::name).toList()) + ". Which one?"), AnswerKind.CLARIFICATION, null);
    }

    /** The table's numeric columns that are not keys: what an anomaly scan or clustering uses when none is named. */
    private static List<ColumnInfo> numericColumns(TableInfo t) {
        return t.columns().stream().filter(c -> isNumber(c.type()) && !c.name().toLowerCase(Locale.ROOT).endsWith("_id"))
                .toList();
    }

    /** A question back naming the words that map to nothing in the table: every word must be accounted for. */
    private static Optional<Decision> unmapped(Intent intent, List<String> words, Set<String> used, TableInfo t) {
        List<String> unmapped = words.stream().filter(w -> !used.contains(w) && !used.contains(Phrases.stem(w)) && !V.has(w, "filler.stop", "filler.analysis",
                "grains", "count_words", "intents." + intent.name().toLowerCase(Locale.ROOT)) && !AGG_WORDS.containsKey(w)
                && !w.matches("\\d+")).distinct().toList();
        if (unmapped.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(ask("I could not map " + String.join(", ", unmapped.stream().map(w -> "'" + w + "'").toList())
                + " to anything in table " + t.name() + " offline, and I will not guess. Name columns as they are"
                + " (" + String.join(", ", t.columnNames()) + ")."));
    }

    private static Optional<Decision> series(Intent intent, String q, List<String> words, TableInfo t,
                                             List<ColumnInfo> columns, ObjectNode args, Set<String> used, List<String> notes) {
        List<ColumnInfo> dates = t.columns().stream().filter(c -> c.type().equals("DATE") || c.type().startsWith("TIMESTAMP"))
                .toList();
        List<ColumnInfo> namedDates = columns.stream().filter(dates::contains).toList();
        ColumnInfo date;
        if (namedDates.size() == 1) {
            date = namedDates.get(0);
        } else if (dates.size() == 1) {
            date = dates.get(0);
        } else {
            return Optional.of(ask("Table " + t.name() + " has " + (dates.isEmpty() ? "no date column" : "several date columns ("
                    + names(dates) + ")") + " for a " + intent.what + ". Which date do you mean?"));
        }
        args.put("date", date.name());
        List<ColumnInfo> measures = columns.stream().filter(c -> !c.equals(date)).toList();
        String agg = words.stream().filter(AGG_WORDS::containsKey).map(AGG_WORDS::get).findFirst().orElse(null);
        boolean count = words.stream().anyMatch(w -> V.has(w, "count_words"));
        if (measures.size() > 1) {
            return Optional.of(ask("Which measure do you mean: " + names(measures) + "?"));
        }
        if (measures.size() == 1) {
            if (agg == null) {
                return Optional.of(ask("The total or the average of " + t.name() + "." + measures.get(0).name()
                        + " per period? Say e.g. 'total " + measures.get(0).name() + "' or 'average " + measures.get(0).name() + "'."));
            }
            args.put("measure", measures.get(0).name()).put("agg", agg);
        } else if (count) {
            notes.add("'" + words.stream().filter(w -> V.has(w, "count_words")).findFirst().orElseThrow() + "' read as the number of rows");
        } else {
            return Optional.of(ask("Which measure of " + t.name() + " should I follow over time: the number of rows, or a"
                    + " total or average of one of " + names(t.columns().stream().filter(c -> isNumber(c.type())
                    && !c.name().toLowerCase(Locale.ROOT).endsWith("_id")).toList())
                    + "?"));
        }
        String grain = words.stream().filter(w -> V.has(w, "grains")).map(w -> V.map("grains").get(w)).findFirst().orElse(null);
        if (grain == null) {
            grain = "month";
            notes.add("by month, as no period was named");
        }
        args.put("grain", grain);
        if (intent == Intent.FORECAST) {
            Matcher m = Pattern.compile("next (\\d{1,2})\\b").matcher(q);
            if (m.find()) {
                args.put("horizon", Integer.parseInt(m.group(1)));
            }
        }
        return Optional.empty();
    }

    private static boolean isNumber(String type) {
        return type.matches("(U?(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT))|FLOAT|DOUBLE|REAL|DECIMAL.*");
    }

    /**
     * Tables named by the words: their name or plural, or a longer word that starts with a table name of five
     * or more letters ("transaction" for trans), which is noted so the answer states the reading.
     */
    private static List<TableInfo> mentioned(List<String> words, List<TableInfo> tables, List<String> notes) {
        List<TableInfo> out = new ArrayList<>();
        for (TableInfo t : tables) {
            if (words.stream().anyMatch(tableWords(t)::contains)) {
                out.add(t);
            }
        }
        if (out.isEmpty() && tables.size() == 1) { // one table: there is nothing to ask
            notes.add("the dataset's only table, " + tables.get(0).name());
            out.add(tables.get(0));
        }
        if (out.isEmpty()) {
            for (String w : words) {
                List<TableInfo> prefixed = tables.stream().filter(t -> t.name().length() >= 5
                        && w.startsWith(t.name().toLowerCase(Locale.ROOT)) && w.length() > t.name().length()).toList();
                if (prefixed.size() == 1 && !out.contains(prefixed.get(0))) {
                    out.add(prefixed.get(0));
                    notes.add("'" + w + "' read as table " + prefixed.get(0).name());
                }
            }
        }
        return out;
    }

    private static List<ColumnInfo> columnsNamed(List<String> words, TableInfo t) {
        List<ColumnInfo> out = new ArrayList<>();
        for (ColumnInfo c : t.columns()) {
            String n = c.name().toLowerCase(Locale.ROOT);
            if (words.contains(n) || words.contains(t.name().toLowerCase(Locale.ROOT) + "." + n)
                    || words.stream().anyMatch(w -> Phrases.stem(w).equals(n))) { // "amounts"
                out.add(c);
            }
        }
        return out;
    }

    private static String names(List<ColumnInfo> cols) {
        return String.join(", ", cols.stream().map(ColumnInfo::name).toList());
    }

    private static Decision ask(String text) {
        return Decision.answer("ambiguous analysis request", text, AnswerKind.CLARIFICATION, null);
    }

    /** The final answer after an analysis tool ran: what was done (and how the words were read), then its result. */
    public static String answer(Step last) {
        return (last.thought() == null ? "" : last.thought() + "\n") + last.observation();
    }

    /** The words that name a table: itself and its plural. */
    static Set<String> tableWords(TableInfo t) {
        String n = t.name().toLowerCase(Locale.ROOT);
        String plural = n.endsWith("y") ? n.substring(0, n.length() - 1) + "ies"
                : n.endsWith("s") || n.endsWith("x") || n.endsWith("ch") ? n + "es" : n + "s";
        return Set.of(n, plural);
    }

    static List<String> words(String q) {
        List<String> out = new ArrayList<>();
        Matcher m = WORD.matcher(q);
        while (m.find()) {
            String w = m.group().replaceAll("^\\.+|\\.+$", "");
            if (!w.isEmpty()) {
                out.add(w.endsWith("'s") ? w.substring(0, w.length() - 2) : w);
            }
        }
        return out;
    }
}
