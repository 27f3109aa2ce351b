package dev.sift.planner.rules;

import dev.sift.knowledge.KgEntry;
import dev.sift.knowledge.KgSql;
import dev.sift.knowledge.RowNouns;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A number of people compared for each value of a column, in a table of counts of people by sex ("how many jobs had over
 * a million people in 2000"): each row holds one sex of the value, so the comparison is on the value's rows added up
 * (men and women together), never on either row alone, which would keep a job whose men alone pass; within one year
 * when no year is picked. Read where the question counts or lists the values of one text column of that table and
 * picks no sex.
 */
final class SummedCells {
    /**
     * A filter this class wrote where a year is picked: "jobs.job IN (SELECT jobs.job FROM jobs … GROUP BY jobs.job HAVING
     * sum(jobs.count) > 1000000)" (one grouped by year too has no one total to show).
     */
    private static final Pattern SUMMED = Pattern.compile("^(\\S+) IN \\(SELECT \\1 FROM .+ GROUP BY \\1 HAVING (sum\\((\\S+)\\)) [<>=]+ -?[\\d.]+\\)$");

    private SummedCells() { }

    /** The spec with its comparison of the count of people made on each value's rows added up; the spec itself otherwise. */
    static QuerySpec apply(QuerySpec s, Lexicon lexicon, List<String> readings) {
        Sense.Attr values = valuesOf(s);
        if (values == null || values.numeric() || !s.links().isEmpty()) {
            return s;
        }
        String table = values.table();
        List<KgEntry.Column> columns = lexicon.graph().columns(table);
        Optional<KgEntry.Column> people = RowNouns.peopleCount(columns);
        Optional<KgEntry.Column> sex = RowNouns.sexColumn(columns);
        if (people.isEmpty() || sex.isEmpty()) {
            return s;
        }
        String count = KgSql.column(table, people.get().name());
        String bySex = KgSql.column(table, sex.get().name());
        Pattern compared = Pattern.compile("^" + Pattern.quote(count) + " (>=|<=|>|<|=) (-?\\d+(?:\\.\\d+)?)$");
        List<QuerySpec.Filter> hits = s.filters().stream().filter(f -> compared.matcher(f.sql()).matches()).toList();
        if (hits.size() != 1 || values.sql().equals(bySex) || s.filters().stream().anyMatch(f -> f.sql().contains(bySex))) {
            return s;
        }
        QuerySpec.Filter hit = hits.get(0);
        Matcher m = compared.matcher(hit.sql());
        m.matches();
        List<QuerySpec.Filter> others = s.filters().stream().filter(f -> f != hit).toList();
        // a year no filter picks: the people of one year at a time (a total over years counts them again each year)
        Optional<Sense.Attr> year = lexicon.yearColumn(table).filter(y -> others.stream().noneMatch(f -> f.sql().contains(y.sql())));
        String inner = "SELECT " + values.sql() + " FROM " + KgSql.table(table) + (others.isEmpty() ? "" : " WHERE "
                + String.join(" AND ", others.stream().map(QuerySpec.Filter::sql).toList())) + " GROUP BY " + values.sql()
                + year.map(y -> ", " + y.sql()).orElse("") + " HAVING sum(" + count + ") " + m.group(1) + " " + m.group(2);
        String said = values.name() + " with a total " + people.get().name() + " " + m.group(1) + " " + m.group(2) + " (every "
                + sex.get().name() + " together" + year.map(y -> ", in at least one " + y.name()).orElse("") + ")";
        readings.add("'" + hit.describe() + "' → " + said + ": each row holds one " + sex.get().name() + " of a " + values.name());
        List<QuerySpec.Filter> filters = new ArrayList<>(others);
        filters.add(new QuerySpec.Filter(table, values.sql() + " IN (" + inner + ")", said));
        return new QuerySpec(s.shape(), s.subject(), s.aggFn(), s.measure(), s.metric(), s.group(), List.copyOf(filters), s.links(),
                s.limit(), s.descending(), s.share(), s.columns(), s.distinct());
    }

    /** The total a listed value qualified on, to show beside it ("sum(jobs.count) AS total_count"), when {@code f} is one of ours. */
    static Optional<String> shown(QuerySpec.Filter f) {
        Matcher m = SUMMED.matcher(f.sql());
        return m.matches() ? Optional.of(m.group(2) + " AS " + KgSql.ident("total_" + m.group(3).substring(m.group(3).lastIndexOf('.') + 1)
                .replaceAll("[^A-Za-z0-9_]+", ""))) : Optional.empty();
    }

    /** The text column whose values the spec counts ("how many jobs") or lists ("which jobs"), or null. */
    private static Sense.Attr valuesOf(QuerySpec s) {
        if (s.shape() == QuerySpec.Shape.AGG && "distinct".equals(s.aggFn())) {
            return s.measure();
        }
        return s.shape() == QuerySpec.Shape.COLUMNS && s.distinct() && s.columns().size() == 1 ? s.columns().get(0) : null;
    }
}
