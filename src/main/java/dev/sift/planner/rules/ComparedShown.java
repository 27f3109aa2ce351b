package dev.sift.planner.rules;

import dev.sift.knowledge.KgSql;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * "Which counties have more than 90% habitat for the deer?": the values listed, each shown with the number it was compared
 * on, as an analyst would show why each qualified. A value listed once may stand for several rows, so it is shown with
 * the largest of them above a bound ("more than") and the smallest below one ("less than").
 */
final class ComparedShown {
    /** A column compared with a number: "species.habitat_yearround_pct > 0.9". */
    private static final Pattern COMPARED = Pattern.compile("^([^()\\s]+(?:\\s[^()\\s<>=]+)*?) (>=|<=|>|<) -?\\d+(?:\\.\\d+)?$");

    /** A listed column's values kept by how many rows each has: "Candidate_State IN (SELECT … HAVING count(*) > 3)". */
    private static final Pattern HAVING = Pattern.compile("^(\\S+) IN \\(SELECT \\1 FROM \\S+ GROUP BY 1 HAVING count\\(\\*\\) [<>=]+ \\d+\\)$");

    private ComparedShown() { }

    /**
     * "Which states have more than 3 candidates?": where the question lists one column of {@code table} and picks no rows
     * otherwise (another condition would have to be counted within too), the values of that column with that many rows
     * of it; false (nothing read) otherwise.
     */
    static boolean groupsHaving(ParseState w, String table, Sense.Compare c, Tok t) {
        boolean alone = w.toks.stream().filter(k -> k.sense() instanceof Sense.Cond || k.sense() instanceof Sense.Dates
                || k.sense() instanceof Sense.Compare).count() == 1;
        if (!alone || w.columns.size() != 1 || !w.columns.get(0).table().equals(table) || w.columns.get(0).numeric()) {
            return false;
        }
        String column = w.columns.get(0).sql();
        String said = w.columns.get(0).name() + " with " + c.op() + " " + c.value() + " " + table + " rows";
        w.filter(table, column + " IN (SELECT " + column + " FROM " + KgSql.table(table) + " GROUP BY 1 HAVING count(*) " + c.op()
                + " " + c.value() + ")", said);
        w.readings.add("'" + c.op() + " " + c.value() + " " + t.text() + "' → " + said);
        return true;
    }

    /** Whether a filter keeps a column's values by how many rows each has ({@link #groupsHaving}). */
    static boolean having(QuerySpec.Filter f) {
        return HAVING.matcher(f.sql()).matches();
    }

    /** The select expressions of the columns compared in {@code s}'s filters, on a table of the columns it lists. */
    static List<String> of(QuerySpec s) {
        List<String> out = new ArrayList<>();
        for (QuerySpec.Filter f : s.filters()) {
            Optional<String> summed = SummedCells.shown(f);
            if (summed.isPresent()) {
                out.add(summed.get()); // "which jobs had over a million workers": with each one's total
                continue;
            }
            if (having(f) && s.columns().stream().anyMatch(c -> f.sql().startsWith(c.sql() + " IN ("))) {
                out.add("count(*) AS n"); // "which states have more than 3 candidates": with how many each has
                continue;
            }
            Matcher m = COMPARED.matcher(f.sql());
            boolean listedTable = s.columns().stream().anyMatch(c -> c.table().equals(f.table()));
            if (m.matches() && listedTable && m.group(1).startsWith(f.table() + ".")
                    && s.columns().stream().noneMatch(c -> c.sql().equals(m.group(1)))) {
                String fn = m.group(2).startsWith(">") ? "max" : "min";
                String bare = m.group(1).substring(f.table().length() + 1).replaceAll("[^A-Za-z0-9_]+", "_").replaceAll("^_+|_+$", "");
                String expression = fn + "(" + m.group(1) + ") AS " + KgSql.ident(fn + "_" + bare);
                if (!out.contains(expression)) {
                    out.add(expression);
                }
            }
        }
        return out;
    }
}
