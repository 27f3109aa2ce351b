package dev.sift.planner.rules;

import dev.sift.data.Sql;
import dev.sift.knowledge.KgEntry;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A value of a listed text column that stands for all the others ("All natural disasters", "Total", "World"): real exports
 * often carry such rows beside their parts. Grouped, ranked or counted by that column, the total is left out (it would
 * win every ranking); a measure added up, averaged or ranked over rows that pick no value of the column uses only the
 * total's rows (the parts would count everything twice); a share of one part is of the parts' sum. Each is said in the
 * answer's reading.
 */
final class TotalRows {
    private static final Pattern TOTAL = Pattern.compile("(?i)all|all .+|total|total .+|.+ total|overall|world|grand total");

    private TotalRows() { }

    /** The total value of a column of {@code table}: its column and the value, when exactly one listed value is one. */
    record Total(Sense.Attr column, String value) {
        QuerySpec.Filter filter(String op) {
            String sql = column.sql() + " " + op + " " + Sql.quoteString(value);
            return new QuerySpec.Filter(column.table(), sql, column.name() + " " + op + " '" + value + "'");
        }
    }

    static Optional<Total> of(Lexicon lexicon, String table) {
        List<Total> found = new ArrayList<>();
        for (KgEntry.Column c : lexicon.graph().columns(table)) {
            if (c.type().startsWith("VARCHAR") && c.values().size() > 2) {
                c.values().stream().filter(v -> TOTAL.matcher(v.trim()).matches()).forEach(v -> found.add(new Total(Lexicon.attr(c), v)));
            }
        }
        return found.size() == 1 ? Optional.of(found.get(0)) : Optional.empty();
    }

    /** The spec with its total rows left out or kept alone, as above; the spec itself when its table has no total value. */
    static QuerySpec apply(QuerySpec s, Lexicon lexicon, List<String> readings) {
        Optional<Total> total = s.subject() == null ? Optional.empty() : of(lexicon, s.subject());
        if (total.isEmpty() || s.filters().stream().anyMatch(f -> f.sql().contains(total.get().column().sql()))) {
            return s;
        }
        Total t = total.get();
        boolean byColumn = s.group() != null && s.group().sql().equals(t.column().sql()) // a share of the parts, too
                || s.share().stream().anyMatch(f -> f.sql().contains(t.column().sql()))
                || s.measure() != null && s.measure().sql().equals(t.column().sql())
                || s.columns().stream().anyMatch(c -> c.sql().equals(t.column().sql()));
        if (byColumn) {
            readings.add("'" + t.value() + "' is the total of the other values of " + t.column().name() + ": left out");
            return with(s, t.filter("<>"));
        }
        boolean measured = s.measure() != null && s.measure().numeric() && s.measure().table().equals(t.column().table())
                && s.shape() != QuerySpec.Shape.COUNT && s.shape() != QuerySpec.Shape.COLUMNS && s.shape() != QuerySpec.Shape.LIST;
        if (measured) {
            readings.add("only the rows of " + t.column().name() + " '" + t.value() + "' (the totals; the other rows are its"
                    + " parts)");
            return with(s, t.filter("="));
        }
        return s;
    }

    private static QuerySpec with(QuerySpec s, QuerySpec.Filter f) {
        List<QuerySpec.Filter> filters = new ArrayList<>(s.filters());
        filters.add(f);
        return new QuerySpec(s.shape(), s.subject(), s.aggFn(), s.measure(), s.metric(), s.group(), List.copyOf(filters), s.links(),
                s.limit(), s.descending(), s.share(), s.columns(), s.distinct());
    }
}
