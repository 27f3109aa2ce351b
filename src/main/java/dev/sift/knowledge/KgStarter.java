package dev.sift.knowledge;

import dev.sift.data.LoadReport;
import dev.sift.data.ValueVariants;

import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The commented starter knowledge file {@code sift kg init NAME} writes from the automatic graph: every table with
 * its rows, key and columns (type, low-cardinality values, a guessed description), the joins approved automatically
 * and the candidates (ready to uncomment), value variants the load found, and empty sections with one example each.
 * Everything the user may change is a comment, so the file as written changes nothing and passes {@code kg check};
 * every line uncommented is checked against the data when Sift next reads it.
 */
public final class KgStarter {
    private KgStarter() { }

    /** The starter text for {@code kg}, with what the load report found ({@link LoadReport#EMPTY} when none). */
    public static String text(KnowledgeGraph kg, LoadReport report) {
        StringBuilder b = new StringBuilder();
        b.append("# Knowledge file of dataset '").append(kg.dataset()).append("', started by `sift kg init ")
                .append(kg.dataset()).append("` from the automatic knowledge graph.\n")
                .append("# Sift reads it before every question (ask, chat, serve, bench) and checks each entry against the data;\n")
                .append("# `sift kg check ").append(kg.dataset()).append("` lists problems with their line and the fix, `sift kg show ")
                .append(kg.dataset()).append("` prints the graph.\n")
                .append("# Uncomment and edit what you need: everything below that starts with '#' changes nothing yet.\n")
                .append("# description: what this data is about\n\n");
        tables(b, kg);
        types(b, report);
        joins(b, kg);
        concepts(b, kg, report);
        b.append("\n# ---------------------------------------------------------------- metrics\n")
                .append("# Named measures as SQL over table.column, with the table whose rows they aggregate (grain) and the\n")
                .append("# tables they read, e.g.:\n")
                .append(exampleMetric(kg))
                .append("metrics:\n");
        b.append("\n# ---------------------------------------------------------------- disambiguations\n")
                .append("# - {name: amount, synonyms: [amount], text: \"'amount' means the order amount unless the question says otherwise\"}\n")
                .append("disambiguations:\n");
        b.append("\n# ---------------------------------------------------------------- verified examples\n")
                .append("# Questions with the SQL that answers them; `sift ask \"…\" --save` and the web app's \"Save this answer\"\n")
                .append("# add them here. The offline planner answers the same question with this SQL; a model sees them as examples.\n")
                .append("examples:\n");
        return b.toString();
    }

    private static void tables(StringBuilder b, KnowledgeGraph kg) {
        b.append("# ---------------------------------------------------------------- tables and columns\n")
                .append("# Descriptions, units, codes and synonyms. The descriptions are guesses from the names; fix them.\n")
                .append("tables:\n");
        for (KgEntry.Table t : kg.tables()) {
            String key = kg.columns(t.name()).stream().filter(KgEntry.Column::key).map(KgEntry.Column::name).findFirst()
                    .orElse(null);
            b.append("  # ").append(t.name()).append(":    # ").append(t.rows()).append(" rows")
                    .append(key == null ? ", no key column" : ", key " + key).append('\n')
                    .append("  #   description: ").append(guessTable(t.name(), key)).append('\n')
                    .append("  #   synonyms: []\n")
                    .append("  #   columns:\n");
            for (KgEntry.Column c : kg.columns(t.name())) {
                b.append("  #     ").append(c.name()).append(": {description: \"").append(guessColumn(c)).append("\"}    # ")
                        .append(c.type()).append(c.key() ? ", key" : "").append(values(c)).append('\n');
            }
        }
    }

    private static void types(StringBuilder b, LoadReport report) {
        b.append("\n# ---------------------------------------------------------------- column types on load\n")
                .append("# A type here wins over what the load infers (`sift load … --refresh` applies it), e.g.\n")
                .append("#   orders.order_date: date:%d/%m/%Y        kinds: date, timestamp, number, text; formats separated by '|'\n");
        for (LoadReport.KeptText k : report.keptText()) {
            String fix = k.fix().replaceFirst("^--types\\s+", "");
            int eq = fix.indexOf('=');
            String formats = k.formats().entrySet().stream().map(e -> e.getValue() + " " + e.getKey())
                    .collect(Collectors.joining(", "));
            b.append("#   ").append(eq > 0 ? fix.substring(0, eq) + ": " + fix.substring(eq + 1) : fix).append("    # stays text now: ")
                    .append(formats).append('\n');
        }
        b.append("types:\n");
    }

    private static void joins(StringBuilder b, KnowledgeGraph kg) {
        b.append("\n# ---------------------------------------------------------------- joins\n");
        List<KgEntry.Join> approved = kg.joins().stream().filter(KgEntry.Join::approved).toList();
        List<KgEntry.Join> candidates = kg.joins().stream().filter(j -> !j.approved()).toList();
        b.append("# Approved automatically (a unique key and at least 99 % of the other column's values found in it);\n")
                .append("# nothing to do unless one is wrong:\n");
        approved.forEach(j -> b.append("#   ").append(j.written()).append(j.cardinality() == null ? "" : "  (" + j.cardinality() + ")")
                .append('\n'));
        if (approved.isEmpty()) {
            b.append("#   (none)\n");
        }
        b.append("# Candidates, never followed until approved here (uncomment to approve; add a meaning in words):\n");
        candidates.forEach(j -> b.append("# - {name: ").append(j.name()).append(", from: ").append(side(j.fromTable(), j.fromColumns()))
                .append(", to: ").append(side(j.toTable(), j.toColumns()))
                .append(String.format(Locale.ROOT, "}    # %.1f %% of values found", 100 * j.coverage())).append('\n'));
        if (candidates.isEmpty()) {
            b.append("#   (none)\n");
        }
        b.append("join_paths:\n");
    }

    /** {@code t.c}, or {@code [t.a, t.b]} for a join on several columns (the file's list form). */
    private static String side(String table, List<String> columns) {
        return columns.size() == 1 ? table + "." + columns.get(0)
                : "[" + String.join(", ", columns.stream().map(c -> table + "." + c).toList()) + "]";
    }

    private static void concepts(StringBuilder b, KnowledgeGraph kg, LoadReport report) {
        b.append("\n# ---------------------------------------------------------------- business words\n")
                .append("# concepts: a word for a condition or a column; value_aliases: a word for one stored value.\n");
        for (ValueVariants.Group g : report.variants()) {
            b.append("# The load found ").append(g.describe()).append(": one thing written several ways?\n");
            String table = g.column().substring(0, g.column().lastIndexOf('.'));
            String first = g.values().keySet().iterator().next();
            b.append("# - {name: ").append(slug(first)).append(", synonyms: [").append(first.toLowerCase(Locale.ROOT))
                    .append("], table: ").append(table).append(", expression: \"").append(g.column()).append(" IN (")
                    .append(g.values().keySet().stream().map(v -> "'" + v.replace("'", "''") + "'").collect(Collectors.joining(", ")))
                    .append(")\"}\n");
        }
        kg.entries(KgEntry.Column.class).stream().filter(c -> !c.values().isEmpty()).findFirst().ifPresent(c -> b
                .append("# - {name: ").append(slug(c.values().get(0))).append("_alias, synonyms: [another word], table: ")
                .append(c.table()).append(", column: ").append(c.name()).append(", value: \"").append(c.values().get(0))
                .append("\"}    # under value_aliases\n"));
        b.append("concepts:\nvalue_aliases:\n");
    }

    private static String exampleMetric(KnowledgeGraph kg) {
        for (KgEntry.Join j : kg.joins()) {
            if (!j.approved()) {
                continue;
            }
            var num = kg.columns(j.fromTable()).stream().filter(c -> !c.key() && !c.name().toLowerCase(Locale.ROOT).endsWith("id")
                    && c.type().matches("(?i)(BIGINT|INTEGER|DOUBLE|DECIMAL.*|FLOAT|SMALLINT)")).findFirst();
            if (num.isPresent()) {
                return "# - {name: total_" + slug(num.get().name()) + ", synonyms: [], expression: \"sum(" + num.get().qualified()
                        + ")\", grain: " + j.fromTable() + ", tables: [" + j.fromTable() + "]}\n";
            }
        }
        return "# - {name: total_amount, synonyms: [turnover], expression: \"sum(sales.amount)\", grain: sales, tables: [sales]}\n";
    }

    private static String values(KgEntry.Column c) {
        if (c.values().isEmpty()) {
            return c.sample() == null ? "" : "; e.g. '" + c.sample().replace("\n", " ") + "'";
        }
        int shown = Math.min(8, c.values().size());
        return "; values: " + c.values().subList(0, shown).stream().map(v -> "'" + v.replace("\n", " ") + "'")
                .collect(Collectors.joining(", ")) + (c.values().size() > shown ? ", … (" + c.values().size() + ")" : "");
    }

    private static String guessTable(String table, String key) {
        return "\"one row per " + Phrases.stem(table.toLowerCase(Locale.ROOT)).replace('_', ' ') + (key == null ? "" : " (" + key + ")")
                + "\"";
    }

    /** A first guess from the name alone: "customer_id" → identifier of a customer, "order_date" → order date. */
    static String guessColumn(KgEntry.Column c) {
        String words = c.name().replace('_', ' ').trim();
        if (c.key()) {
            String noun = Phrases.stem(c.table().toLowerCase(Locale.ROOT)).replace('_', ' ');
            return "identifies " + ("aeiou".indexOf(noun.charAt(0)) >= 0 ? "an " : "a ") + noun + " row";
        }
        if (words.toLowerCase(Locale.ROOT).endsWith(" id")) {
            return "the " + words.substring(0, words.length() - 3) + " it belongs to";
        }
        return words.replace("\"", "'");
    }

    private static String slug(String s) {
        String x = s.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "_").replaceAll("^_+|_+$", "");
        return x.isEmpty() ? "value" : x;
    }
}
