package dev.sift.knowledge;

import dev.sift.data.Sql;

import java.util.List;
import java.util.Optional;
import java.util.Set;

/** SQL text built from the knowledge graph: readable identifiers and FROM clauses along join paths. */
public final class KgSql {
    private static final Set<String> RESERVED = Set.of("all", "analyse", "analyze", "and", "any", "array", "as", "asc",
            "asymmetric", "both", "case", "cast", "check", "collate", "column", "constraint", "create", "default",
            "deferrable", "desc", "distinct", "do", "else", "end", "except", "false", "fetch", "for", "foreign", "from",
            "grant", "group", "having", "in", "initially", "intersect", "into", "lateral", "leading", "limit", "not",
            "null", "offset", "on", "only", "or", "order", "placing", "primary", "references", "returning", "select",
            "some", "symmetric", "table", "then", "to", "trailing", "true", "union", "unique", "user", "using",
            "variadic", "when", "where", "window", "with", "join", "by");

    private KgSql() { }

    /** An identifier as written in SQL: bare when that is safe ({@code loan}, {@code A2}), quoted otherwise ({@code "order"}). */
    public static String ident(String name) {
        return name.matches("[A-Za-z_][A-Za-z0-9_]*") && !RESERVED.contains(name.toLowerCase(java.util.Locale.ROOT))
                ? name : Sql.quoteIdent(name);
    }

    /** {@code table.column} with each part as {@link #ident}; a table of a source's schema is {@code schema.table}. */
    public static String column(String table, String column) {
        return table(table) + "." + ident(column);
    }

    /** A table as written in SQL: {@code loan}, or {@code user_database.review} for a table of a source's schema. */
    public static String table(String name) {
        int dot = name.indexOf('.');
        return dot < 0 ? ident(name) : ident(name.substring(0, dot)) + "." + ident(name.substring(dot + 1));
    }

    /**
     * A FROM clause joining {@code tables} (first one first) along the graph's join paths, each table under its
     * own name: {@code loan JOIN account ON loan.account_id = account.account_id}. Empty when not connected.
     */
    public static Optional<String> from(KnowledgeGraph kg, List<String> tables) {
        if (tables.isEmpty()) {
            return Optional.empty();
        }
        Optional<List<KgEntry.Join>> tree = kg.joinTree(tables);
        if (tree.isEmpty()) {
            return Optional.empty();
        }
        StringBuilder b = new StringBuilder(table(tables.get(0)));
        java.util.Set<String> in = new java.util.HashSet<>(List.of(tables.get(0).toLowerCase(java.util.Locale.ROOT)));
        List<KgEntry.Join> pending = new java.util.ArrayList<>(tree.get());
        while (!pending.isEmpty()) {
            boolean progressed = false;
            for (java.util.Iterator<KgEntry.Join> it = pending.iterator(); it.hasNext(); ) {
                KgEntry.Join j = it.next();
                boolean fromIn = in.contains(j.fromTable().toLowerCase(java.util.Locale.ROOT));
                boolean toIn = in.contains(j.toTable().toLowerCase(java.util.Locale.ROOT));
                if (fromIn == toIn) {
                    if (fromIn) {
                        it.remove();
                    }
                    continue;
                }
                String add = fromIn ? j.toTable() : j.fromTable();
                b.append(" JOIN ").append(table(add)).append(" ON ").append(j.equalities());
                in.add(add.toLowerCase(java.util.Locale.ROOT));
                it.remove();
                progressed = true;
            }
            if (!progressed && !pending.isEmpty()) {
                return Optional.empty();
            }
        }
        return Optional.of(b.toString());
    }
}
