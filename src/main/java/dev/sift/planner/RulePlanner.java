package dev.sift.planner;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sift.agent.AnswerKind;
import dev.sift.agent.Decision;
import dev.sift.agent.RunState;
import dev.sift.agent.Step;
import dev.sift.data.ColumnInfo;
import dev.sift.data.Sql;
import dev.sift.data.TableInfo;
import dev.sift.tool.Evidence;
import dev.sift.tool.narrate.EvidenceText;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The offline planner: answers what it can map with certainty and asks otherwise. It routes schema
 * questions to inspect_data, "values of X" to sample_values, and counts of one table (filtered by values
 * that occur in the data, or by a year) to run_sql, and plain analysis requests to the analysis tools
 * ({@link AnalysisRoutes}). Any word it cannot map makes it ask rather than guess.
 */
public final class RulePlanner implements Planner {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}_.]+");
    private static final Pattern YEAR = Pattern.compile("\\b(19\\d\\d|20\\d\\d)\\b");
    private static final Set<String> SCHEMA_WORDS = Set.of("table", "tables", "schema", "columns", "column", "fields",
            "structure", "describe");
    private static final Set<String> VALUE_WORDS = Set.of("values", "value", "codes", "code", "categories", "distinct",
            "kinds", "types", "levels", "options");
    static final Set<String> STOP = Set.of("how", "many", "much", "are", "is", "there", "the", "a", "an", "of",
            "in", "on", "for", "with", "have", "has", "had", "do", "does", "did", "what", "which", "total", "number",
            "count", "all", "be", "were", "was", "by", "to", "and", "me", "show", "tell", "please", "i", "we", "you",
            "data", "dataset", "exist", "exists", "currently", "our", "my", "it", "its", "at", "from", "that", "those",
            "these", "this", "can", "could", "list", "give", "whose", "where", "who", "rows", "records", "entries",
            "overall", "altogether", "year", "during", "take", "takes", "possible", "each", "column", "columns",
            "table", "tables", "values", "value", "codes", "code", "categories", "distinct", "kinds", "types",
            "levels", "options", "schema", "fields", "structure", "describe", "about", "available", "exactly");

    /** What the count of this run counts ("in table card where type = 'gold'"), to phrase the answer. */
    private String countedRows;

    @Override
    public String name() {
        return "offline";
    }

    @Override
    public boolean offline() {
        return true;
    }

    @Override
    public Decision next(RunState state) {
        Step last = state.lastStep();
        if (last == null) {
            return route(state);
        }
        if (!last.ok()) {
            return Decision.answer("the only planned step failed", "I could not answer this offline: "
                    + last.observation(), AnswerKind.DECLINED, null);
        }
        return finalFrom(state, last);
    }

    @Override
    public Decision forceFinal(RunState state) {
        Step last = state.lastStep();
        return last != null && last.ok() ? finalFrom(state, last) : Decision.answer(null,
                "I could not answer this offline within the step budget.", AnswerKind.DECLINED, null);
    }

    private Decision finalFrom(RunState state, Step last) {
        if ("run_sql".equals(last.tool()) && !state.evidence().isEmpty()) {
            Evidence e = state.evidence().get(state.evidence().size() - 1);
            if (countedRows != null && e.rows().size() == 1 && e.rows().get(0).get(0) instanceof Number n) {
                return Decision.answer("answered from the count", (n.longValue() == 1 ? "There is 1 row " : "There are "
                        + n + " rows ") + countedRows + ".", AnswerKind.ANSWER, null);
            }
            String described = last.thought() == null ? "" : last.thought();
            return Decision.answer("answered from the query result", described + "\n" + EvidenceText.render(e),
                    AnswerKind.ANSWER, null);
        }
        if (AnalysisRoutes.TOOLS.contains(last.tool())) {
            return Decision.answer("the analysis answers the question", AnalysisRoutes.answer(last), AnswerKind.ANSWER, null);
        }
        return Decision.answer("the tool's output answers the question", last.observation(), AnswerKind.ANSWER, null);
    }

    private Decision route(RunState state) {
        String q = state.question().toLowerCase(Locale.ROOT);
        List<String> words = words(q);
        List<TableInfo> tables = state.workspace().datasetTables();
        List<TableInfo> mentioned = mentionedTables(words, tables);
        boolean count = q.contains("how many") || q.contains("number of") || words.contains("count");
        Optional<Decision> analysis = AnalysisRoutes.route(q, words, tables);
        if (analysis.isPresent()) {
            return analysis.get();
        }

        if (!count && words.stream().anyMatch(SCHEMA_WORDS::contains) && !words.stream().anyMatch(VALUE_WORDS::contains)) {
            ObjectNode args = JSON.createObjectNode();
            if (mentioned.size() == 1) {
                args.put("table", mentioned.get(0).name());
            }
            return Decision.call("a schema question", "inspect_data", args, null);
        }
        if (!count && words.stream().anyMatch(VALUE_WORDS::contains)) {
            return values(words, tables, mentioned);
        }
        if (count) {
            return count(state, q, words, mentioned);
        }
        return clarify(List.of(), "");
    }

    private Decision values(List<String> words, List<TableInfo> tables, List<TableInfo> mentioned) {
        List<String[]> columns = new ArrayList<>();
        for (String w : words) {
            for (TableInfo t : tables) {
                for (ColumnInfo c : t.columns()) {
                    boolean qualified = w.equals(t.name() + "." + c.name().toLowerCase(Locale.ROOT));
                    boolean bare = w.equals(c.name().toLowerCase(Locale.ROOT))
                            && (mentioned.isEmpty() || mentioned.contains(t));
                    if (qualified || bare) {
                        columns.add(new String[] {t.name(), c.name()});
                    }
                }
            }
        }
        if (columns.size() == 1) {
            ObjectNode args = JSON.createObjectNode().put("source", columns.get(0)[0]).put("column", columns.get(0)[1]);
            return Decision.call("the values of one column", "sample_values", args, null);
        }
        if (columns.size() > 1) {
            List<String> options = columns.stream().map(c -> c[0] + "." + c[1]).distinct().toList();
            return Decision.answer("more than one column matches", "Which column do you mean: "
                    + String.join(", ", options) + "? Name it as table.column.", AnswerKind.CLARIFICATION, null);
        }
        return clarify(List.of(), " Name the column as table.column, e.g. 'what values does loan.status take?'.");
    }

    private Decision count(RunState state, String q, List<String> words, List<TableInfo> mentioned) {
        if (mentioned.size() != 1) {
            return clarify(List.of(), mentioned.isEmpty() ? " Name the table to count, e.g. 'how many loans are there?'."
                    : " Offline I count one table at a time; you mentioned " + String.join(", ",
                    mentioned.stream().map(TableInfo::name).toList()) + ".");
        }
        TableInfo t = mentioned.get(0);
        Set<String> used = new LinkedHashSet<>(tableWords(t));
        List<String> where = new ArrayList<>();
        List<String> said = new ArrayList<>();
        ValueIndex values = ValueIndex.of(state.workspace());
        for (int n = 3; n >= 1; n--) {
            for (int i = 0; i + n <= words.size(); i++) {
                List<String> gram = words.subList(i, i + n);
                if (gram.stream().anyMatch(used::contains)) {
                    continue;
                }
                String phrase = String.join(" ", gram);
                List<ValueIndex.Hit> hits = values.find(t.name(), phrase);
                if (hits.size() > 1) {
                    return Decision.answer("an ambiguous value", "'" + phrase + "' occurs in more than one column of "
                            + t.name() + ": " + String.join(", ", hits.stream().map(ValueIndex.Hit::column).toList())
                            + ". Which one do you mean?", AnswerKind.CLARIFICATION, null);
                }
                if (hits.size() == 1 && (n > 1 || !STOP.contains(phrase))) {
                    ValueIndex.Hit h = hits.get(0);
                    where.add(Sql.quoteIdent(h.column()) + " = " + Sql.quoteString(h.value()));
                    said.add(h.column() + " = '" + h.value() + "'");
                    used.addAll(gram);
                    used.add(h.column().toLowerCase(Locale.ROOT)); // the column may be named too: "weekly frequency"
                }
            }
        }
        Matcher year = YEAR.matcher(q);
        if (year.find()) {
            List<ColumnInfo> dates = t.columns().stream().filter(c -> c.type().equals("DATE")).toList();
            if (dates.size() != 1) {
                return Decision.answer("the year has no single date column", "Table " + t.name() + " has "
                        + (dates.isEmpty() ? "no date column" : "several date columns ("
                        + String.join(", ", dates.stream().map(ColumnInfo::name).toList()) + ")")
                        + " for the year " + year.group(1) + ". Which date do you mean?", AnswerKind.CLARIFICATION, null);
            }
            where.add("year(" + Sql.quoteIdent(dates.get(0).name()) + ") = " + year.group(1));
            said.add("year(" + dates.get(0).name() + ") = " + year.group(1));
            used.add(year.group(1));
        }
        List<String> unmapped = words.stream().filter(w -> !used.contains(w) && !STOP.contains(w)).distinct().toList();
        if (!unmapped.isEmpty()) {
            return clarify(unmapped, "");
        }
        String sql = "SELECT count(*) AS " + Sql.quoteIdent("n_" + t.name()) + " FROM " + Sql.quoteIdent(t.name())
                + (where.isEmpty() ? "" : " WHERE " + String.join(" AND ", where));
        ObjectNode args = JSON.createObjectNode().put("sql", sql);
        countedRows = "in table " + t.name() + (said.isEmpty() ? "" : " where " + String.join(" and ", said));
        return Decision.call("Count the rows " + countedRows + ".", "run_sql", args, null);
    }

    private static Decision clarify(List<String> unmapped, String hint) {
        String lead = unmapped.isEmpty() ? "I could not map this question to the data offline."
                : "I could not map " + String.join(", ", unmapped.stream().map(w -> "'" + w + "'").toList())
                + " to anything in this dataset offline, and I will not guess.";
        return Decision.answer("cannot map the question", lead + hint + " Without a language model I can answer:"
                + " schema questions ('what tables are there?', 'describe the loan table'), the values of a column"
                + " ('what values does loan.status take?'), and counts of one table filtered by values that occur in"
                + " the data or by a year ('how many cards are gold?', 'how many loans in 1996?'). For other questions,"
                + " configure a model (SIFT_LLM_PROVIDER with SIFT_LLM_BASE_URL / SIFT_LLM_API_KEY).",
                AnswerKind.CLARIFICATION, null);
    }

    private static List<TableInfo> mentionedTables(List<String> words, List<TableInfo> tables) {
        List<TableInfo> out = new ArrayList<>();
        for (TableInfo t : tables) {
            if (words.stream().anyMatch(tableWords(t)::contains)) {
                out.add(t);
            }
        }
        return out;
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
