package dev.sift.web;

import dev.sift.data.QueryException;
import dev.sift.data.Sql;
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
 * Candidate sample questions written from a dataset's own tables, columns and values: a count, a breakdown by a
 * low-cardinality text column (else the text column of fewest values that repeat), an average of a measure, a top 5 of a text column by that measure, a count filtered on
 * the most frequent value, counts or averages per year when there is a date, and an average by category. Each chip
 * comes with its phrasings, the most natural first ("How many la riots are there?", then "How many rows are
 * there?"); {@link SampleQuestions} asks them offline and keeps the first that gets an answer, so nothing here
 * decides what the planner reads.
 */
final class SampleCandidates {
    /** A text column with at most this many values is a category to break down by. */
    private static final int CATEGORY_VALUES = 12;
    /** A text column needs at least this many values for a top 5 of it to mean something. */
    private static final int RANKED_VALUES = 6;
    /** ... and its values must repeat this often on average: a top 5 of names by the age of one person each says nothing. */
    private static final int REPEATS = 4;
    /** Rows read to tell a measure from a number code. */
    private static final int SCANNED = 200_000;

    /** One chip: what it shows ({@code count}, {@code breakdown}…) and its phrasings, the most natural first. */
    record Chip(String kind, List<String> phrasings) { }

    private final KnowledgeGraph kg;
    private final Workspace ws;
    private final boolean single;

    private SampleCandidates(KnowledgeGraph kg, Workspace ws) {
        this.kg = kg;
        this.ws = ws;
        this.single = kg.tables().size() == 1;
    }

    /** The candidate chips of a dataset, the most telling first: counts of its two main tables, then each table's. */
    static List<Chip> of(KnowledgeGraph kg, Workspace ws) {
        return new SampleCandidates(kg, ws).chips();
    }

    private List<Chip> chips() {
        List<KgEntry.Table> tables = kg.tables().stream()
                .sorted(Comparator.comparing((KgEntry.Table t) -> outgoing(t.name()).isEmpty())
                        .thenComparing(Comparator.comparingLong(KgEntry.Table::rows).reversed())).limit(4).toList();
        List<Chip> out = new ArrayList<>();
        tables.stream().limit(2).forEach(t -> out.add(count(t)));
        for (KgEntry.Table t : tables) {
            Optional<String> noun = noun(t);
            String in = noun.map(n -> " of " + n).orElse(single ? "" : " in " + SampleWords.table(t.name()));
            Optional<KgEntry.Column> cat = pick(t, c -> text(c) && c.values().size() >= 2 && c.values().size() <= CATEGORY_VALUES,
                    Comparator.comparingInt(c -> 0)).or(() -> pick(t, c -> text(c) && c.values().size() >= 2
                    && c.values().size() * REPEATS <= t.rows(), Comparator.comparingInt(c -> c.values().size())));
            Optional<KgEntry.Column> ranked = pick(t, c -> text(c) && c.values().size() >= RANKED_VALUES
                            && c.values().size() * REPEATS <= t.rows(),
                    Comparator.comparingInt((KgEntry.Column c) -> c.values().size()).reversed());
            Optional<KgEntry.Column> measure = measure(t);
            cat.ifPresent(c -> out.add(breakdown(noun, c)));
            measure.ifPresent(m -> out.add(new Chip("average", forms(m, w -> List.of("What is the average " + w + in + "?",
                    "What is the average " + w + "?")))));
            ranked.ifPresent(g -> measure.ifPresent(m -> out.add(top(g, m))));
            cat.ifPresent(c -> frequent(t, c).ifPresent(v -> out.add(filter(noun, c, v))));
            dated(t).ifPresent(d -> out.add(perYear(noun, d, measure)));
            cat.ifPresent(c -> measure.ifPresent(m -> out.add(new Chip("average by",
                    forms(m, w -> List.of("What is the average " + w + " by " + SampleWords.plain(c.name()) + "?"))))));
            for (KgEntry.Join j : outgoing(t.name())) {
                Optional<KgEntry.Column> other = pick(kg.table(j.toTable()).orElse(t), c -> text(c)
                        && c.values().size() >= 2 && c.values().size() <= CATEGORY_VALUES, Comparator.comparingInt(c -> 0));
                if (measure.isPresent() && other.isPresent() && !j.toTable().equals(t.name())) {
                    out.add(new Chip("joined total", forms(measure.get(), w -> List.of("What is the total " + w + " by "
                            + SampleWords.plain(other.get().name()) + "?"))));
                }
            }
        }
        return List.copyOf(out);
    }

    private Chip count(KgEntry.Table t) {
        List<String> p = new ArrayList<>();
        noun(t).ifPresent(n -> p.add("How many " + n + " are there?"));
        p.add("How many rows are in " + SampleWords.table(t.name()) + "?");
        if (single) {
            p.add("How many rows are there?");
        }
        return new Chip("count", p);
    }

    private Chip breakdown(Optional<String> noun, KgEntry.Column c) {
        String by = SampleWords.plain(c.name());
        List<String> p = new ArrayList<>();
        noun.ifPresent(n -> {
            p.add("How many " + n + " are there by " + by + "?");
            p.add("Number of " + n + " by " + by);
        });
        p.add("How many rows are there by " + by + "?");
        return new Chip("breakdown", p);
    }

    private Chip top(KgEntry.Column group, KgEntry.Column measure) {
        String groups = SampleWords.pluralise(SampleWords.plain(group.name()));
        return new Chip("top", forms(measure, w -> List.of("What are the top 5 " + groups + " by average " + w + "?",
                "Which 5 " + groups + " have the highest average " + w + "?")));
    }

    private Chip filter(Optional<String> noun, KgEntry.Column c, String value) {
        String col = SampleWords.plain(c.name());
        List<String> p = new ArrayList<>();
        noun.ifPresent(n -> {
            p.add("How many " + n + " have " + col + " " + value + "?");
            p.add("How many " + n + " are " + value + "?");
        });
        p.add("How many rows have " + col + " " + value + "?");
        return new Chip("filter", p);
    }

    private Chip perYear(Optional<String> noun, KgEntry.Column date, Optional<KgEntry.Column> measure) {
        List<String> p = new ArrayList<>();
        boolean isDate = date.type().equals("DATE") || date.type().startsWith("TIMESTAMP");
        if (isDate) {
            noun.ifPresent(n -> p.add("How many " + n + " are there per year?"));
            p.add("How many rows are there per year?");
        }
        measure.ifPresent(m -> p.addAll(forms(m, w -> List.of("What is the average " + w + " per year?",
                "What is the average " + w + " by " + SampleWords.plain(date.name()) + "?"))));
        return new Chip("per year", p);
    }

    /** The phrasings of a question about a column, with its plain words first and its full words after. */
    private static List<String> forms(KgEntry.Column c, java.util.function.Function<String, List<String>> phrase) {
        Set<String> out = new LinkedHashSet<>(phrase.apply(SampleWords.plain(c.name())));
        if (SampleWords.readable(SampleWords.words(c.name()))) {
            out.addAll(phrase.apply(SampleWords.words(c.name())));
        }
        return List.copyOf(out);
    }

    /**
     * How a table's rows are called: a one-word synonym that spells the name out ("transactions" for trans), else its
     * words when they are already plural ("la riots") and at most two; a singular name ("seattle_weather") has none,
     * since "seattle weathers" names nothing.
     */
    private static Optional<String> noun(KgEntry.Table t) {
        String name = SampleWords.table(t.name());
        Optional<String> synonym = t.synonyms().stream().map(SampleWords::words)
                .filter(w -> w.matches("[a-z]+s") && w.length() > name.length() && w.startsWith(name)).findFirst();
        return synonym.isPresent() ? synonym : Optional.of(name).filter(SampleWords::plural).filter(SampleWords::readable)
                .filter(n -> n.split(" ").length <= 2); // "unemployment across industries" names no rows
    }

    private Optional<KgEntry.Column> pick(KgEntry.Table t, java.util.function.Predicate<KgEntry.Column> fits,
                                          Comparator<KgEntry.Column> order) {
        return kg.columns(t.name()).stream().filter(c -> !c.key() && SampleWords.readable(SampleWords.plain(c.name())))
                .filter(c -> !SampleWords.words(c.name()).matches("(.* )?id")).filter(fits).min(order);
    }

    private static boolean text(KgEntry.Column c) {
        return c.type().startsWith("VARCHAR");
    }

    /**
     * The first number column that is no key, id, code or part of a date and takes many values (quantity, price, deaths): a
     * number with a few values is a code ("cluster" 0 to 5), and its average says nothing.
     */
    private Optional<KgEntry.Column> measure(KgEntry.Table t) {
        List<KgEntry.Column> numbers = kg.columns(t.name()).stream().filter(c -> !c.key()
                && SampleWords.readable(SampleWords.plain(c.name()))
                && c.type().matches("(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|FLOAT|REAL|DOUBLE|DECIMAL).*")
                && !SampleWords.words(c.name()).matches("(.* )?(id|no|key|code|zip|latitude|longitude|lat|lon|lng"
                        + "|year|quarter|month|week|day|hour)")).limit(8).toList();
        if (numbers.isEmpty()) {
            return Optional.empty();
        }
        StringBuilder sql = new StringBuilder("SELECT ");
        for (int i = 0; i < numbers.size(); i++) {
            sql.append(i == 0 ? "" : ", ").append("count(DISTINCT ").append(Sql.quoteIdent(numbers.get(i).name())).append(')');
        }
        // count(DISTINCT) and an aliased subquery: SQL any live engine runs too
        sql.append(" FROM (SELECT * FROM ").append(Sql.quoteTable(t.name())).append(" LIMIT ").append(SCANNED)
                .append(") AS scanned");
        try {
            List<Object> counts = ws.trustedQuery(sql.toString(), 1).rows().get(0);
            for (int i = 0; i < numbers.size(); i++) {
                if (((Number) counts.get(i)).longValue() > CATEGORY_VALUES) {
                    return Optional.of(numbers.get(i));
                }
            }
            return Optional.empty();
        } catch (QueryException e) {
            return Optional.empty(); // no chip about a measure; the others stand
        }
    }

    /** A date or timestamp column, else a whole-number column called year. */
    private Optional<KgEntry.Column> dated(KgEntry.Table t) {
        return kg.columns(t.name()).stream().filter(c -> c.type().equals("DATE") || c.type().startsWith("TIMESTAMP")
                        || c.type().matches("(SMALLINT|INTEGER|BIGINT).*") && SampleWords.words(c.name()).equals("year"))
                .findFirst();
    }

    /** The column's most frequent value when it reads as a plain value ("Male", "Fossil Fuels"). */
    private Optional<String> frequent(KgEntry.Table t, KgEntry.Column c) {
        String col = Sql.quoteIdent(c.name());
        String sql = "SELECT " + col + " FROM " + Sql.quoteTable(t.name()) + " WHERE " + col + " IS NOT NULL GROUP BY 1"
                + " ORDER BY count(*) DESC, 1 LIMIT 5";
        try {
            return ws.trustedQuery(sql, 5).rows().stream().map(r -> String.valueOf(r.get(0)).trim())
                    .filter(v -> v.matches("[\\p{L}][\\p{L}0-9 .&'-]{1,29}"))
                    .filter(v -> !v.toLowerCase(Locale.ROOT).startsWith("all ")).findFirst();
        } catch (QueryException e) {
            return Optional.empty(); // no filter chip; the others stand
        }
    }

    private List<KgEntry.Join> outgoing(String table) {
        return kg.joins().stream().filter(KgEntry.Join::approved).filter(j -> j.fromTable().equals(table)).toList();
    }
}
