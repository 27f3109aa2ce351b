package dev.sift.planner.rules;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A text column kept by how its values begin or end: "counties whose id starts with 48" keeps the rows where county_id
 * LIKE '48%', "ids ending in 000" those where it LIKE '%000', "jobs that mention Professor" those whose value has
 * the word in any case. The column is the text column named just before (past a
 * few words such as "whose id"), and the words become one condition, read before anything else.
 */
final class ColumnPrefix {
    private static final Set<String> STARTS = Set.of("start", "starts", "starting", "begin", "begins", "beginning");
    private static final Set<String> ENDS = Set.of("end", "ends", "ending");
    private static final Set<String> CONTAINS = Set.of("mention", "mentions", "mentioning", "contain", "contains", "containing",
            "include", "includes", "including");
    /** Words that may stand between the column and the verb ("counties whose id", "county codes that"). */
    private static final Set<String> BETWEEN = Set.of("whose", "with", "id", "ids", "code", "codes", "that", "which", "is", "are",
            "number", "numbers", "value", "values", "title", "titles", "name", "names");
    private static final Pattern LITERAL = Pattern.compile("[A-Za-z0-9]+");

    private ColumnPrefix() { }

    /** {@code toks} with each "&lt;text column&gt; … starts with X" (or "ends in X") read as one condition. */
    static List<Tok> merge(List<Tok> toks) {
        List<Tok> out = new ArrayList<>(toks);
        for (int v = 1; v + 1 < out.size(); v++) {
            String verb = out.get(v).text().toLowerCase(java.util.Locale.ROOT);
            boolean starts = STARTS.contains(verb);
            boolean contains = CONTAINS.contains(verb) && LITERAL.matcher(out.get(v + 1).text()).matches();
            if (!contains && (!starts && !ENDS.contains(verb) || v + 2 >= out.size() || !out.get(v + 1).text().matches("(?i)with|in")
                    || !LITERAL.matcher(out.get(v + 2).text()).matches())) {
                continue;
            }
            int end = contains ? v + 2 : v + 3; // "jobs that mention Professor": the word anywhere in the value, in any case
            int c = v - 1;
            while (c > 0 && c >= v - 3 && out.get(c).plain() && BETWEEN.contains(out.get(c).word())) {
                c--;
            }
            if (!(out.get(c).sense() instanceof Sense.Attr a) || a.numeric() || a.date()) {
                continue;
            }
            while (c > 0 && a.equals(out.get(c - 1).sense())) {
                c--; // "counties (county ids beginning with 48)": the column said twice
            }
            int from = c;
            while (from > 0 && out.get(from - 1).is("the", "of", "all")) {
                from--;
            }
            if (from > 0 && out.get(from - 1).is("many")) { // "how many jobs start with X": the jobs counted, as named
                c++;
            }
            String literal = out.get(end - 1).text();
            String sql = contains ? "lower(" + a.sql() + ") LIKE '%" + literal.toLowerCase(java.util.Locale.ROOT) + "%'"
                    : a.sql() + " LIKE '" + (starts ? literal + "%" : "%" + literal) + "'";
            String said = a.name() + (contains ? " contains '" : starts ? " begins with '" : " ends with '") + literal + "'";
            List<Tok> span = out.subList(c, end);
            Tok merged = new Tok(String.join(" ", span.stream().map(Tok::text).toList()),
                    span.stream().flatMap(t -> t.words().stream()).toList(), new Sense.Cond(a.table(), sql, said));
            span.clear();
            out.add(c, merged);
            v = c;
        }
        return out;
    }
}
