package dev.sift.planner.rules;

import dev.sift.knowledge.KgEntry;
import dev.sift.knowledge.KgSql;
import dev.sift.knowledge.RowNouns;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * "Jobs with more women than men", "in which jobs did women outnumber men": two values of one column compared within
 * each group the table's other columns make (one job in one year), by the people counted where the table counts people
 * (else by rows). Read as one condition on the rows: their group has more (or fewer) of the first value than of the
 * second, so "how many jobs" and "which jobs" count and list the groups as for any other condition.
 */
final class ValuesCompared {
    private ValuesCompared() { }

    /** {@code toks} with each "more A than B", "fewer A than B" and "A outnumber(ed) B" of two values of one column read as one condition. */
    static List<Tok> merge(List<Tok> toks, Lexicon lexicon) {
        List<Tok> out = new ArrayList<>(toks);
        for (int i = 0; i + 2 < out.size(); i++) {
            boolean said = out.get(i).is("more", "fewer", "less") && i + 3 < out.size() && out.get(i + 2).is("than")
                    && !(i > 0 && out.get(i - 1).is("many", "much")); // "how many more women than men": a difference
            boolean outnumber = out.get(i + 1).is("outnumber", "outnumbered", "outnumbers");
            int a = said ? i + 1 : i;
            int b = said ? i + 3 : i + 2;
            if (!said && !outnumber || !(out.get(a).sense() instanceof Sense.Cond x) || !(out.get(b).sense() instanceof Sense.Cond y)
                    || !x.sql().matches(".+ = '.*'") || !y.sql().matches(".+ = '.*'") || !x.column().equals(y.column())
                    || x.sql().equals(y.sql()) || !x.table().equals(y.table())) {
                continue;
            }
            boolean fewer = said && !out.get(i).is("more");
            Optional<String> sql = condition(lexicon, x, y, fewer ? "<" : ">");
            if (sql.isEmpty()) {
                continue;
            }
            Tok.replaceRun(out, i, b + 1, new Sense.Cond(x.table(), sql.get(), (fewer ? "fewer " : "more ") + x.describe() + " than " + y.describe()
                    .replaceFirst("^.*? = ", "") + " in the same " + String.join(" and ", groupColumns(lexicon, x).stream()
                    .map(KgEntry.Column::name).toList())));
        }
        return out;
    }

    /** The condition that a row's group has more (op "&gt;") or fewer of {@code x} than of {@code y}; empty without a group. */
    private static Optional<String> condition(Lexicon lexicon, Sense.Cond x, Sense.Cond y, String op) {
        List<KgEntry.Column> group = groupColumns(lexicon, x);
        if (group.isEmpty()) {
            return Optional.empty();
        }
        String table = x.table();
        String same = String.join(" AND ", group.stream().map(c -> "o." + KgSql.ident(c.name()) + " = " + KgSql.column(table, c.name())).toList());
        String counted = RowNouns.peopleCount(lexicon.graph().columns(table)).map(c -> "sum(o." + KgSql.ident(c.name()) + ")").orElse("count(*)");
        String column = x.column().substring(x.column().lastIndexOf('.') + 1);
        String of = "(SELECT coalesce(" + counted + ", 0) FROM " + KgSql.table(table) + " o WHERE " + same + " AND o." + column;
        return Optional.of(of + x.sql().substring(x.column().length()) + ") " + op + " " + of + y.sql().substring(y.column().length()) + ")");
    }

    /** The columns that make a group: the table's text columns and years but the compared one. */
    private static List<KgEntry.Column> groupColumns(Lexicon lexicon, Sense.Cond x) {
        return lexicon.graph().columns(x.table()).stream().filter(c -> !Lexicon.attr(c).sql().equals(x.column())
                && (c.type().startsWith("VARCHAR") || lexicon.isYearColumn(Lexicon.attr(c)))).toList();
    }
}
