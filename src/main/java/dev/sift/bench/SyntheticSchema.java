package dev.sift.bench;

import dev.sift.knowledge.KgEntry;
import dev.sift.knowledge.KnowledgeGraph;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * A deterministic synthetic warehouse for the schema-linking bench: {@code domains × entities} tables named
 * {@code <domain>_<entity>} with an id key, foreign keys to related entities of the same domain and
 * entity-specific attributes, as an automatic knowledge graph (names and types only, no descriptions), plus
 * questions whose gold tables are known. Questions use the words of the names in plain English
 * (plurals, spaces for underscores), never the table names themselves.
 */
public final class SyntheticSchema {
    static final String[] DOMAINS = {"sales", "inventory", "payroll", "shipping", "marketing", "support", "billing",
            "procurement", "manufacturing", "fleet", "clinic", "school", "library", "hotel", "airline", "insurance",
            "lending", "retail", "energy", "telecom", "museum", "garden", "stadium", "cinema", "bakery", "brewery",
            "farm", "harbor", "mining", "pharmacy", "laboratory", "gym", "theater", "charity", "parking", "railway",
            "ferry", "casino", "vineyard", "zoo", "observatory", "court", "election", "census", "forestry",
            "fishery", "quarry", "orchestra", "publisher", "radio"};
    static final String[] ENTITIES = {"customer", "order", "invoice", "payment", "product", "supplier", "employee",
            "shipment", "ticket", "contract"};
    static final Map<String, String[]> ATTRIBUTES = Map.of(
            "customer", new String[] {"full_name", "email", "city", "signup_date", "loyalty_tier", "birth_year"},
            "order", new String[] {"order_date", "total_amount", "channel", "discount", "status"},
            "invoice", new String[] {"amount_due", "due_date", "currency", "paid_flag", "issue_date"},
            "payment", new String[] {"paid_amount", "payment_method", "paid_at", "reference"},
            "product", new String[] {"product_name", "category", "unit_price", "weight", "color"},
            "supplier", new String[] {"supplier_name", "country", "rating", "lead_time_days"},
            "employee", new String[] {"first_name", "salary", "hire_date", "department", "job_title"},
            "shipment", new String[] {"carrier", "shipped_on", "delivered_on", "tracking_code", "freight_cost"},
            "ticket", new String[] {"priority", "opened_at", "resolved_at", "satisfaction_score"},
            "contract", new String[] {"start_date", "end_date", "contract_value", "renewal_terms"});
    /** Which entity refers to which (foreign keys within a domain). */
    static final Map<String, String[]> REFERS = Map.of(
            "order", new String[] {"customer", "employee"},
            "invoice", new String[] {"order", "customer"},
            "payment", new String[] {"invoice"},
            "product", new String[] {"supplier"},
            "shipment", new String[] {"order"},
            "ticket", new String[] {"customer", "employee"},
            "contract", new String[] {"supplier"});

    /** A question and the tables it needs. */
    public record Question(String text, List<String> gold) { }

    private SyntheticSchema() { }

    /** The graph of {@code DOMAINS.length × ENTITIES.length} (500) tables. */
    public static KnowledgeGraph graph() {
        List<KgEntry> entries = new ArrayList<>();
        List<KgEntry> columns = new ArrayList<>();
        List<KgEntry> joins = new ArrayList<>();
        SplittableRandom rng = new SplittableRandom(7);
        for (String d : DOMAINS) {
            for (String e : ENTITIES) {
                String t = d + "_" + e;
                entries.add(new KgEntry.Table(t, null, 1000 + rng.nextInt(100_000), List.of(), false));
                columns.add(col(t, e + "_id", "INTEGER", "1", true));
                for (String r : REFERS.getOrDefault(e, new String[0])) {
                    columns.add(col(t, r + "_id", "INTEGER", "17", false));
                    joins.add(new KgEntry.Join(t + "_" + r + "_id", t, r + "_id", d + "_" + r, r + "_id", null,
                            List.of(), false));
                }
                for (String a : ATTRIBUTES.get(e)) {
                    String type = a.endsWith("date") || a.endsWith("_on") || a.endsWith("_at") ? "DATE"
                            : a.contains("amount") || a.contains("price") || a.contains("cost") || a.contains("value")
                            || a.equals("salary") || a.equals("discount") || a.equals("weight") ? "DOUBLE"
                            : a.contains("year") || a.contains("days") || a.contains("score") || a.equals("rating")
                            ? "INTEGER" : "VARCHAR";
                    columns.add(col(t, a, type, type.equals("VARCHAR") ? "sample text" : type.equals("DATE")
                            ? "1997-03-01" : "42", false));
                }
            }
        }
        entries.addAll(columns);
        entries.addAll(joins);
        return new KnowledgeGraph("synthetic500", null, entries);
    }

    private static KgEntry.Column col(String table, String name, String type, String sample, boolean key) {
        return new KgEntry.Column(table, name, type, null, null, Map.of(), List.of(), sample, key, List.of(), false);
    }

    /** {@code n} questions (deterministic): one-table questions and two-table questions along a foreign key. */
    public static List<Question> questions(int n) {
        SplittableRandom rng = new SplittableRandom(11);
        List<Question> out = new ArrayList<>();
        String[] aggregates = {"average", "total", "number of", "maximum", "distribution of"};
        while (out.size() < n) {
            String d = DOMAINS[rng.nextInt(DOMAINS.length)];
            String e = ENTITIES[rng.nextInt(ENTITIES.length)];
            String[] attrs = ATTRIBUTES.get(e);
            String a = attrs[rng.nextInt(attrs.length)].replace('_', ' ');
            String agg = aggregates[rng.nextInt(aggregates.length)];
            String[] refs = REFERS.get(e);
            if (refs != null && rng.nextBoolean()) {
                String r = refs[rng.nextInt(refs.length)];
                String[] rAttrs = ATTRIBUTES.get(r);
                String ra = rAttrs[rng.nextInt(rAttrs.length)].replace('_', ' ');
                out.add(new Question("In " + d + ", what is the " + agg + " " + a + " of " + plural(e) + " by " + r
                        + " " + ra + "?", List.of(d + "_" + e, d + "_" + r)));
            } else {
                out.add(new Question("Show the " + agg + " " + a + " for " + plural(e) + " in the " + d + " data.",
                        List.of(d + "_" + e)));
            }
        }
        return out;
    }

    private static String plural(String e) {
        return e.endsWith("y") ? e.substring(0, e.length() - 1) + "ies" : e + "s";
    }
}
