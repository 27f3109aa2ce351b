package dev.sift.planner.rules;

import dev.sift.knowledge.KgSql;

import java.util.ArrayList;
import java.util.List;
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

    private ComparedShown() { }

    /** The select expressions of the columns compared in {@code s}'s filters, on a table of the columns it lists. */
    static List<String> of(QuerySpec s) {
        List<String> out = new ArrayList<>();
        for (QuerySpec.Filter f : s.filters()) {
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
