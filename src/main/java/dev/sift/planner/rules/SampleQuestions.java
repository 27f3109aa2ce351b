package dev.sift.planner.rules;

import dev.sift.data.Workspace;
import dev.sift.knowledge.KgEntry;
import dev.sift.knowledge.KnowledgeGraph;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Questions about one dataset written from its own names: counts of its tables, a breakdown by a low-cardinality
 * column, an average of a measure, a count filtered by a stored value, counts per year, and a total across an approved
 * join. Table names become plural nouns ("customers" stays, "client" becomes "clients", "order_items" reads "order
 * items"). These are candidates: the app runs each offline before offering it, and a clarification quotes only those
 * the offline parser reads ({@link #readable}).
 */
public final class SampleQuestions {
    private static final int MAX_VALUES = 12;

    private SampleQuestions() { }

    /** Candidate questions, the most telling first; none is checked yet. */
    public static List<String> candidates(KnowledgeGraph kg) {
        Set<String> out = new LinkedHashSet<>();
        List<KgEntry.Table> tables = kg.tables().stream()
                .sorted(Comparator.comparing((KgEntry.Table t) -> outgoing(kg, t.name()).isEmpty())
                        .thenComparing(Comparator.comparingLong(KgEntry.Table::rows).reversed())).toList();
        tables.stream().limit(2).forEach(t -> out.add("How many " + noun(t) + " are there?"));
        for (KgEntry.Table t : tables) {
            String n = noun(t);
            category(kg, t.name()).ifPresent(c -> out.add("Number of " + n + " by " + words(c.name())));
            measure(kg, t.name()).ifPresent(m -> out.add("What is the average " + words(m.name()) + " of " + n + "?"));
            category(kg, t.name()).flatMap(SampleQuestions::plainValue)
                    .ifPresent(v -> out.add("How many " + n + " are " + v + "?"));
            if (kg.columns(t.name()).stream().anyMatch(c -> c.type().equals("DATE") || c.type().startsWith("TIMESTAMP"))) {
                out.add("How many " + n + " are there per year?");
            }
            for (KgEntry.Join j : outgoing(kg, t.name())) {
                Optional<KgEntry.Column> m = measure(kg, t.name());
                Optional<KgEntry.Column> c = category(kg, j.toTable());
                if (m.isPresent() && c.isPresent()) {
                    out.add("What is the total " + words(m.get().name()) + " by " + words(c.get().name()) + "?");
                }
            }
        }
        out.add("What tables are there?");
        return List.copyOf(out);
    }

    /**
     * Up to {@code n} candidates the offline parser reads into a query it builds on this workspace (parsed, shaped and
     * built, not run): the examples a clarification quotes.
     */
    public static List<String> readable(Lexicon lexicon, Workspace ws, int n) {
        List<String> out = new ArrayList<>();
        for (String q : candidates(lexicon.graph())) {
            if (out.size() >= n) {
                break;
            }
            if (q.startsWith("What tables")) {
                continue;
            }
            List<Tok> toks = new Reader(lexicon).read(q);
            if (new SpecParser(lexicon).parse(toks) instanceof Parse.Parsed p && AnswerShape.mismatch(toks, p.spec()).isEmpty()) {
                try {
                    new QueryBuilder(lexicon, ws).build(p.spec());
                    out.add(q);
                } catch (QueryBuilder.Unsupported e) {
                    // not an example of what works
                }
            }
        }
        return out;
    }

    /** "what values does orders.status take?" for the first table with a low-cardinality text column, or empty. */
    public static Optional<String> valuesQuestion(KnowledgeGraph kg) {
        return kg.tables().stream().flatMap(t -> category(kg, t.name()).stream())
                .map(c -> "what values does " + c.qualified() + " take?").findFirst();
    }

    /**
     * How a table's rows are called: a one-word synonym that spells the name out ("transactions" for trans), else the
     * name as a plural noun.
     */
    static String noun(KgEntry.Table t) {
        String name = words(t.name().contains(".") ? t.name().substring(t.name().lastIndexOf('.') + 1) : t.name());
        return t.synonyms().stream().map(SampleQuestions::words).filter(w -> w.matches("[a-z]+s") && w.length() > name.length()
                && w.startsWith(name)).findFirst().orElse(noun(t.name()));
    }

    /** A table's name as a plural noun in words: "customers", "clients", "order items", "categories". */
    public static String noun(String table) {
        String w = words(table.contains(".") ? table.substring(table.lastIndexOf('.') + 1) : table);
        if (w.endsWith("ss") || w.endsWith("x") || w.endsWith("ch") || w.endsWith("sh")) {
            return w + "es";
        }
        if (w.endsWith("s")) {
            return w; // already plural: customers, orders, trans
        }
        if (w.matches(".*[^aeiou]y")) {
            return w.substring(0, w.length() - 1) + "ies";
        }
        return w + "s";
    }

    private static String words(String name) {
        return name.replace('_', ' ').trim().toLowerCase(Locale.ROOT);
    }

    private static List<KgEntry.Join> outgoing(KnowledgeGraph kg, String table) {
        return kg.joins().stream().filter(KgEntry.Join::approved).filter(j -> j.fromTable().equals(table)).toList();
    }

    /** A readable text column with a few stored values (status, city, category). */
    private static Optional<KgEntry.Column> category(KnowledgeGraph kg, String table) {
        return kg.columns(table).stream().filter(c -> !c.key() && c.type().startsWith("VARCHAR") && readable(c.name()))
                .filter(c -> c.values().size() >= 2 && c.values().size() <= MAX_VALUES).findFirst();
    }

    /** A readable number column that is no key or id (quantity, unit price, amount). */
    private static Optional<KgEntry.Column> measure(KnowledgeGraph kg, String table) {
        return kg.columns(table).stream().filter(c -> !c.key() && readable(c.name())
                        && !c.name().toLowerCase(Locale.ROOT).matches(".*(_id|_no|_key|_code|id)$")
                        && c.type().matches("(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|FLOAT|REAL|DOUBLE|DECIMAL).*"))
                .findFirst();
    }

    /** A stored value of one plain word that no other value of the column spells in another case ('Web' beside 'web'). */
    private static Optional<String> plainValue(KgEntry.Column c) {
        return c.values().stream().filter(v -> v.matches("[A-Za-z]{3,}"))
                .filter(v -> c.values().stream().noneMatch(o -> !o.equals(v) && o.equalsIgnoreCase(v)))
                .findFirst();
    }

    private static boolean readable(String name) {
        return name.matches("[A-Za-z][A-Za-z_]{2,}");
    }
}
