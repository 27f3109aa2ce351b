package dev.sift.planner.rules;

import dev.sift.data.QueryException;
import dev.sift.data.Workspace;
import dev.sift.knowledge.KgSql;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A year the data does not have ("the number of nurses in the 1890 census" where the census skips 1890): said with the
 * years it has, never answered with an empty total. Checked on whole-number year columns, whose values the graph does
 * not list.
 */
final class AbsentYears {
    private static final Pattern YEAR = Pattern.compile("^(\\S+) = ((?:1[5-9]|20)\\d\\d)$");

    private AbsentYears() { }

    static void check(List<QuerySpec.Filter> filters, Lexicon lexicon, Workspace ws) throws QueryBuilder.Unsupported {
        for (QuerySpec.Filter f : filters) {
            Matcher m = YEAR.matcher(f.sql());
            boolean yearColumn = m.matches() && lexicon.columnOf(f.table(), m.group(1)).map(Lexicon::attr).filter(lexicon::isYearColumn)
                    .isPresent();
            if (!yearColumn) {
                continue;
            }
            try {
                String table = KgSql.table(f.table());
                if (Boolean.TRUE.equals(ws.trustedQuery("SELECT EXISTS (SELECT 1 FROM " + table + " WHERE " + f.sql() + ")", 1).scalar())) {
                    continue; // the usual case: one cheap probe, the years listed only when the one asked for is missing
                }
                Object years = ws.trustedQuery("SELECT string_agg(DISTINCT CAST(" + m.group(1) + " AS VARCHAR), ', ' ORDER BY CAST("
                        + m.group(1) + " AS VARCHAR)) FROM " + table + " WHERE " + m.group(1) + " IS NOT NULL", 1).scalar();
                if (years != null) {
                    throw new QueryBuilder.Unsupported("the data has no " + m.group(2) + " in " + m.group(1) + "; its years are " + years);
                }
            } catch (QueryException e) {
                return; // the check only spares an empty answer; the query itself says what went wrong
            }
        }
    }
}
