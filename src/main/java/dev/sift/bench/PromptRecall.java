package dev.sift.bench;

import dev.sift.knowledge.KgEntry;
import dev.sift.knowledge.Knowledge;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a lean system prompt may leave out that a question's gold SQL needs: the tables the gold SQL reads (shown
 * whole, not only named), the text values it compares with (shown quoted anywhere: a code list, a value alias, a
 * sample), and the curated metrics whose expression it uses (shown with that expression; plain counts aside). Each is counted as needed
 * and as shown; the misses are named so a fall is traceable to its question.
 */
record PromptRecall(int tables, int tablesShown, int values, int valuesShown, int metrics, int metricsShown,
                    List<String> missed) {
    private static final Pattern QUOTED = Pattern.compile("'((?:[^']|'')*)'");
    /** A count of rows or of one column's values: every SQL writer knows it, no metric needs showing for it. */
    private static final Pattern PLAIN_COUNT = Pattern.compile("(?i)count\\((distinct )?[\\w.*]+\\)");
    private static final Pattern NOT_A_VALUE = Pattern.compile("[0-9: %_-]*|.*%.*");

    /** The measures for one question. */
    static PromptRecall of(String goldSql, String system, Knowledge k) {
        List<String> missed = new ArrayList<>();
        int[] t = count(tablesRead(goldSql, k), name -> system.contains("table " + name + " ("), "table ", missed);
        int[] v = count(values(goldSql), value -> system.contains("'" + value.replace("'", "''") + "'"), "value ", missed);
        List<String> used = k.graph().metrics().stream().filter(KgEntry::curated)
                .filter(m -> !PLAIN_COUNT.matcher(m.expression()).matches())
                .filter(m -> norm(goldSql).contains(norm(m.expression()))).map(KgEntry.Metric::expression).toList();
        int[] m = count(used, e -> norm(system).contains(norm(e)), "metric ", missed);
        return new PromptRecall(t[0], t[1], v[0], v[1], m[0], m[1], missed);
    }

    private static int[] count(Iterable<String> needed, java.util.function.Predicate<String> shown, String kind,
                               List<String> missed) {
        int n = 0;
        int ok = 0;
        for (String x : needed) {
            n++;
            if (shown.test(x)) {
                ok++;
            } else {
                missed.add(kind + x);
            }
        }
        return new int[] {n, ok};
    }

    /** The dataset tables the SQL reads ({@code FROM t}, {@code JOIN "t"}). */
    static Set<String> tablesRead(String sql, Knowledge k) {
        Set<String> out = new LinkedHashSet<>();
        for (KgEntry.Table t : k.graph().tables()) {
            if (Pattern.compile("(?i)\\b(from|join)\\s+\"?" + Pattern.quote(t.name()) + "\"?(\\s|$|\\))").matcher(sql).find()) {
                out.add(t.name());
            }
        }
        return out;
    }

    /** The text literals of the SQL that are values (not dates, numbers or LIKE patterns). */
    static Set<String> values(String sql) {
        Set<String> out = new LinkedHashSet<>();
        Matcher m = QUOTED.matcher(sql);
        while (m.find()) {
            String v = m.group(1).replace("''", "'");
            if (!v.isBlank() && !NOT_A_VALUE.matcher(v).matches() && !v.matches("(?i)(year|month|day|week|quarter)")) {
                out.add(v);
            }
        }
        return out;
    }

    /** An expression compared without case, quoting, table qualifiers and spacing. */
    static String norm(String x) {
        return x.toLowerCase(Locale.ROOT).replace("\"", "").replaceAll("\\b[a-z_][a-z0-9_]*\\.", "")
                .replaceAll("\\s+", " ").replaceAll(" ?([(),=]) ?", "$1");
    }

    /** Sums over a suite's questions. */
    record Totals(int questions, int tables, int tablesShown, int values, int valuesShown, int metrics, int metricsShown,
                  List<String> missed) {
        static final Totals NONE = new Totals(0, 0, 0, 0, 0, 0, 0, List.of());

        Totals plus(PromptRecall r) {
            List<String> m = new ArrayList<>(missed);
            r.missed().forEach(x -> m.add(x));
            return new Totals(questions + 1, tables + r.tables(), tablesShown + r.tablesShown(), values + r.values(),
                    valuesShown + r.valuesShown(), metrics + r.metrics(), metricsShown + r.metricsShown(), m);
        }

        void print(PrintWriter out) {
            out.printf("  what the gold SQL of %d questions needs, shown in the first prompt: tables %d/%d (%s), values"
                            + " %d/%d (%s), metrics %d/%d (%s)%n", questions, tablesShown, tables, ratio(tablesShown, tables),
                    valuesShown, values, ratio(valuesShown, values), metricsShown, metrics, ratio(metricsShown, metrics));
            if (!missed.isEmpty()) {
                Set<String> distinct = new LinkedHashSet<>(missed);
                out.println("  not shown (each once): " + String.join(", ", distinct.stream().limit(20).toList())
                        + (distinct.size() > 20 ? ", …" : ""));
            }
        }

        private static String ratio(int a, int b) {
            return b == 0 ? "-" : String.format(Locale.ROOT, "%.3f", (double) a / b);
        }
    }
}
