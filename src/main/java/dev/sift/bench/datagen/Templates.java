package dev.sift.bench.datagen;

import dev.sift.bench.datagen.Inventory.Category;
import dev.sift.bench.datagen.Inventory.DateColumn;
import dev.sift.bench.datagen.Inventory.Measure;
import dev.sift.bench.datagen.Inventory.Table;
import dev.sift.bench.datagen.Wordings.Aggregate;
import dev.sift.data.Sql;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Function;

import static dev.sift.bench.datagen.Wordings.capital;
import static dev.sift.bench.datagen.Wordings.other;

/**
 * The question templates, each instantiated with values read from the data. Templates only propose: a draft is kept
 * when its gold query runs and gives an unambiguous result ({@link Datagen}). Names and values come from the
 * {@link Inventory}; nothing here knows a particular dataset.
 */
final class Templates {
    static final List<String> NAMES = List.of("count", "count_value", "aggregate", "group_count", "group_aggregate",
            "top_n", "threshold", "year_count", "join_count", "share", "compare", "lookup", "listing");

    private final Inventory inv;
    private final Random rnd;
    /** Reads one value from the data (a key to look up), or null when the query gives none. */
    private final Function<String, Object> scalar;

    Templates(Inventory inv, Random rnd, Function<String, Object> scalar) {
        this.inv = inv;
        this.rnd = rnd;
        this.scalar = scalar;
    }

    /** Every template's drafts, in the order of {@link #NAMES}, tables in name order. */
    List<List<Draft>> all() {
        List<List<Draft>> out = new ArrayList<>();
        for (String name : NAMES) {
            List<Draft> drafts = new ArrayList<>();
            for (Table t : inv.tables()) {
                drafts.addAll(of(name, t));
            }
            out.add(drafts);
        }
        return out;
    }

    private List<Draft> of(String name, Table t) {
        return switch (name) {
            case "count" -> List.of(count(t));
            case "count_value" -> each(t.categories(), c -> countValue(t, c, pick(c.values())));
            case "aggregate" -> each(t.measures(), m -> aggregate(t, m, pick(Wordings.AGGREGATES)));
            case "group_count" -> each(t.categories(), c -> groupCount(t, c));
            case "group_aggregate" -> t.measures().isEmpty() ? List.of()
                    : each(t.categories(), c -> groupAggregate(t, c, pick(t.measures()), pick(Wordings.AGGREGATES)));
            case "top_n" -> t.key() == null ? List.of() : each(t.measures(), m -> topN(t, m, 3 + rnd.nextInt(3)));
            case "threshold" -> each(t.measures(), m -> threshold(t, m));
            case "year_count" -> each(t.dates(), d -> d.years().isEmpty() ? null : yearCount(t, d, pick(d.years())));
            case "join_count" -> joinCounts(t);
            case "share" -> each(t.categories(), c -> share(t, c, pick(c.values())));
            case "compare" -> each(t.categories(), c -> compare(t, c));
            case "lookup" -> t.key() == null ? List.of() : lookups(t);
            case "listing" -> t.key() == null ? List.of() : each(t.categories(), c -> listing(t, c, pick(c.values())));
            default -> throw new IllegalArgumentException("unknown template " + name);
        };
    }

    Draft count(Table t) {
        return Draft.analytic("count", List.of("How many " + t.plural() + " are there?",
                "What is the number of " + t.plural() + "?", "Count the " + other(t) + "."),
                "SELECT count(*) FROM " + t.sql());
    }

    Draft countValue(Table t, Category c, String v) {
        return Draft.analytic("count_value", List.of(
                "How many " + t.plural() + " have " + c.phrase() + " " + v + "?",
                "What is the number of " + t.plural() + " whose " + c.phrase() + " is " + v + "?",
                "Count the " + other(t) + " with " + c.phrase() + " " + v + "."),
                "SELECT count(*) FROM " + t.sql() + " WHERE " + eq(c, v));
    }

    Draft aggregate(Table t, Measure m, Aggregate a) {
        Draft d = Draft.analytic("aggregate", List.of(
                "What is the " + a.word() + " " + m.phrase() + " of " + t.plural() + "?",
                "Across all " + t.plural() + ", what is the " + a.word() + " " + m.phrase() + "?",
                capital(a.synonym()) + " " + m.phrase() + " of the " + other(t) + "?"),
                "SELECT " + a.sql() + "(" + Sql.quoteIdent(m.column()) + ") FROM " + t.sql());
        return a.numericScoring() ? d.numeric() : d;
    }

    Draft groupCount(Table t, Category c) {
        return Draft.analytic("group_count", List.of(
                "How many " + t.plural() + " are there per " + c.phrase() + "?",
                "For each " + c.phrase() + ", what is the number of " + t.plural() + "?",
                "Count the " + other(t) + " by " + c.phrase() + "."),
                "SELECT " + col(c) + ", count(*) FROM " + t.sql() + " GROUP BY 1");
    }

    Draft groupAggregate(Table t, Category c, Measure m, Aggregate a) {
        return Draft.analytic("group_aggregate", List.of(
                "What is the " + a.word() + " " + m.phrase() + " of " + t.plural() + " by " + c.phrase() + "?",
                "For each " + c.phrase() + ", what is the " + a.word() + " " + m.phrase() + " of " + t.plural() + "?",
                capital(a.synonym()) + " " + m.phrase() + " of the " + other(t) + " per " + c.phrase() + "?"),
                "SELECT " + col(c) + ", " + a.sql() + "(" + Sql.quoteIdent(m.column()) + ") FROM " + t.sql()
                        + " WHERE " + col(c) + " IS NOT NULL GROUP BY 1");
    }

    Draft topN(Table t, Measure m, int n) {
        String key = Sql.quoteIdent(t.key());
        String mc = Sql.quoteIdent(m.column());
        String base = " FROM " + t.sql() + " WHERE " + mc + " IS NOT NULL ORDER BY " + mc + " DESC";
        return Draft.analytic("top_n", List.of(
                "What are the " + n + " " + t.plural() + " with the highest " + m.phrase() + "?",
                "Which " + n + " " + t.plural() + " have the largest " + m.phrase() + "?",
                "List the top " + n + " " + other(t) + " by " + m.phrase() + "."),
                "SELECT " + key + ", " + mc + base + " LIMIT " + n)
                .tieChecked("SELECT " + mc + base + " LIMIT " + (n + 1));
    }

    Draft threshold(Table t, Measure m) {
        String x = Wordings.number(Wordings.round(m.median()));
        return Draft.analytic("threshold", List.of(
                "How many " + t.plural() + " have " + m.phrase() + " over " + x + "?",
                "What is the number of " + t.plural() + " whose " + m.phrase() + " is above " + x + "?",
                "Count the " + other(t) + " with " + m.phrase() + " greater than " + x + "."),
                "SELECT count(*) FROM " + t.sql() + " WHERE " + Sql.quoteIdent(m.column()) + " > " + x);
    }

    Draft yearCount(Table t, DateColumn d, int year) {
        return Draft.analytic("year_count", List.of(
                "How many " + t.plural() + " have a " + d.phrase() + " in " + year + "?",
                "Of all " + t.plural() + ", how many have a " + d.phrase() + " in " + year + "?",
                "Count the " + other(t) + " whose " + d.phrase() + " falls in " + year + "."),
                "SELECT count(*) FROM " + t.sql() + " WHERE year(" + Sql.quoteIdent(d.column()) + ") = " + year);
    }

    private List<Draft> joinCounts(Table from) {
        List<Draft> out = new ArrayList<>();
        for (Inventory.Join j : inv.joins()) {
            if (!j.from().equals(from.name())) {
                continue;
            }
            inv.table(j.to()).filter(to -> !to.categories().isEmpty()).ifPresent(to -> {
                Category c = pick(to.categories());
                String v = pick(c.values());
                out.add(Draft.analytic("join_count", List.of(
                        "How many " + from.plural() + " belong to " + to.plural() + " with " + c.phrase() + " " + v + "?",
                        "What is the number of " + from.plural() + " whose " + to.singular() + " has " + c.phrase() + " "
                                + v + "?",
                        "Count the " + other(from) + " of " + other(to) + " with " + c.phrase() + " " + v + "."),
                        "SELECT count(*) FROM " + from.sql() + " JOIN " + to.sql() + " ON " + j.condition() + " WHERE "
                                + to.sql() + "." + col(c) + " = " + Sql.quoteString(v)));
            });
        }
        return out;
    }

    Draft share(Table t, Category c, String v) {
        return Draft.analytic("share", List.of(
                "What percentage of " + t.plural() + " have " + c.phrase() + " " + v + "?",
                "Of all " + t.plural() + ", what share in percent has " + c.phrase() + " " + v + "?",
                "Percentage of the " + other(t) + " whose " + c.phrase() + " is " + v + "?"),
                "SELECT 100.0 * avg(CASE WHEN " + eq(c, v) + " THEN 1 ELSE 0 END) FROM " + t.sql()).numeric();
    }

    Draft compare(Table t, Category c) {
        List<String> two = c.values().subList(0, 2); // the two most frequent values: a question people ask
        String a = two.get(rnd.nextInt(2));
        String b = two.get(0).equals(a) ? two.get(1) : two.get(0);
        String base = " FROM " + t.sql() + " WHERE " + col(c) + " IN (" + Sql.quoteString(a) + ", " + Sql.quoteString(b)
                + ") GROUP BY " + col(c) + " ORDER BY count(*) DESC";
        return Draft.analytic("compare", List.of(
                "Which has more " + t.plural() + ": " + c.phrase() + " " + a + " or " + c.phrase() + " " + b + "?",
                "Are there more " + t.plural() + " with " + c.phrase() + " " + a + " or with " + c.phrase() + " " + b + "?",
                capital(c.phrase()) + " " + a + " or " + b + ": which has more " + other(t) + "?"),
                "SELECT " + col(c) + base + " LIMIT 1").tieChecked("SELECT count(*)" + base);
    }

    private List<Draft> lookups(Table t) {
        List<String[]> columns = new ArrayList<>();
        t.categories().forEach(c -> columns.add(new String[] {c.column(), c.phrase()}));
        t.measures().forEach(m -> columns.add(new String[] {m.column(), m.phrase()}));
        if (columns.isEmpty()) {
            return List.of();
        }
        String[] chosen = pick(columns);
        String key = Sql.quoteIdent(t.key());
        Object id = scalar.apply("SELECT " + key + " FROM " + t.sql() + " ORDER BY " + key + " LIMIT 1 OFFSET "
                + rnd.nextInt((int) Math.max(1, Math.min(t.rows(), 1000))));
        if (id == null) {
            return List.of();
        }
        String literal = id instanceof Number ? id.toString() : Sql.quoteString(id.toString());
        String phrase = chosen[1];
        return List.of(Draft.analytic("lookup", List.of(
                "What is the " + phrase + " of " + t.singular() + " " + id + "?",
                "For " + t.singular() + " " + id + ", what is the " + phrase + "?",
                "Show the " + phrase + " of the " + t.singular() + " with id " + id + "."),
                "SELECT " + Sql.quoteIdent(chosen[0]) + " FROM " + t.sql() + " WHERE " + key + " = " + literal));
    }

    Draft listing(Table t, Category c, String v) {
        return Draft.analytic("listing", List.of(
                "List the " + t.plural() + " with " + c.phrase() + " " + v + ".",
                "Which " + t.plural() + " have " + c.phrase() + " " + v + "?",
                "Show all " + other(t) + " whose " + c.phrase() + " is " + v + "."),
                "SELECT " + Sql.quoteIdent(t.key()) + " FROM " + t.sql() + " WHERE " + eq(c, v));
    }

    private static String col(Category c) {
        return Sql.quoteIdent(c.column());
    }

    private static String eq(Category c, String v) {
        return col(c) + " = " + Sql.quoteString(v);
    }

    private <T> T pick(List<T> list) {
        return list.get(rnd.nextInt(list.size()));
    }

    private static <T> List<Draft> each(List<T> xs, Function<T, Draft> make) {
        List<Draft> out = new ArrayList<>();
        for (T x : xs) {
            Draft d = make.apply(x);
            if (d != null) {
                out.add(d);
            }
        }
        return out;
    }
}
