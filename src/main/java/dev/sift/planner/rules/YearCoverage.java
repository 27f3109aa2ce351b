package dev.sift.planner.rules;

import dev.sift.data.QueryException;
import dev.sift.data.QueryResult;
import dev.sift.data.Workspace;

import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Years a question asks about that its data does not reach: "the population of Japan in 2015" of a table whose years
 * run from 1955 to 2005 has no answer to compute, and "no rows" or "0" would read as one. A year filter ("year(d) =
 * 2015", "year BETWEEN 2020 AND 2022" on a whole-number year column) wholly outside the column's first and last year
 * is said back with the range the data covers.
 */
public final class YearCoverage {
    private static final Pattern YEAR_FILTER = Pattern.compile("^(year\\((.+)\\)|(.+)) (?:= (\\d{4})|BETWEEN (\\d{4}) AND (\\d{4}))$");

    private YearCoverage() { }

    /** What to say back when a year filter of {@code spec} lies outside its column's years; empty when every one is inside. */
    public static Optional<String> outside(QuerySpec spec, Lexicon lexicon, Workspace ws) throws QueryException {
        for (QuerySpec.Filter f : spec.filters()) {
            Matcher m = YEAR_FILTER.matcher(f.sql());
            if (!m.matches()) {
                continue;
            }
            String column = m.group(2) != null ? m.group(2) : m.group(3);
            boolean yearNumbers = m.group(2) == null;
            if (yearNumbers && lexicon.yearColumn(f.table()).filter(a -> a.sql().equals(column)).isEmpty()) {
                continue; // "amount = 2015" is a number, not a year
            }
            int from = Integer.parseInt(m.group(4) != null ? m.group(4) : m.group(5));
            int to = Integer.parseInt(m.group(4) != null ? m.group(4) : m.group(6));
            String year = yearNumbers ? column : "year(" + column + ")";
            QueryResult r = ws.query("SELECT min(" + year + "), max(" + year + ") FROM " + f.table());
            List<Object> row = r.rows().get(0);
            if (row.get(0) == null) {
                continue;
            }
            long first = ((Number) row.get(0)).longValue();
            long last = ((Number) row.get(1)).longValue();
            if (to < first || from > last) {
                String asked = from == to ? Integer.toString(from) : from + " to " + to;
                return Optional.of("The data has no " + asked + ": " + f.describe().replaceAll(" (=|BETWEEN).*", "")
                        + " runs from " + first + " to " + last + ". Ask about a year in that range");
            }
        }
        return Optional.empty();
    }
}
