package dev.sift.data;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * The datasets a workspace attached after opening. The lock-down forbids files outside one private folder, so
 * each dataset is reached through a link in it ({@code <spill>/attached/<alias>.duckdb}) and attached READ_ONLY
 * as catalog {@code alias}; its {@code main} tables are described once and named {@code alias.table}. A dataset
 * file is never written after it is built, so the link always reads what was attached.
 */
final class Attached {
    private static final Pattern ALIAS = Pattern.compile("[a-z][a-z0-9_]{0,62}");
    /** Catalog and schema names DuckDB or the workspace already use. */
    private static final Set<String> RESERVED = Set.of("data", "memory", "system", "temp", "main", "frames");

    /** A statement that changes the workspace, run under its time limit. */
    interface Runner {
        void run(String sql) throws QueryException;
    }

    private record Entry(Dataset dataset, List<TableInfo> tables) { }

    private final Map<String, Entry> byAlias = new LinkedHashMap<>();

    /** The folder whose links the workspace may attach: the only one its lock-down lets ATTACH reach. */
    static Path folder(Path spill) {
        return spill.resolve("attached");
    }

    boolean isEmpty() {
        return byAlias.isEmpty();
    }

    /** {@code own} followed by the attached tables. */
    List<TableInfo> withTables(List<TableInfo> own) {
        List<TableInfo> all = new ArrayList<>(own);
        byAlias.values().forEach(e -> all.addAll(e.tables()));
        return List.copyOf(all);
    }

    List<TableInfo> attach(Dataset other, String alias, List<String> schemas, Path spill, Runner run,
                           Supplier<List<TableInfo>> describeMain) throws QueryException {
        if (alias == null || !ALIAS.matcher(alias).matches() || RESERVED.contains(alias) || schemas.contains(alias)) {
            throw new QueryException(QueryException.Kind.INVALID, "Cannot attach a source as '" + alias + "': use"
                    + " lowercase letters, digits and '_', starting with a letter, and none of "
                    + String.join(", ", new java.util.TreeSet<>(union(RESERVED, schemas))) + ".");
        }
        Entry known = byAlias.get(alias);
        if (known != null) {
            if (known.dataset().file().equals(other.file()) && known.dataset().fingerprint().equals(other.fingerprint())) {
                return known.tables();
            }
            throw new QueryException(QueryException.Kind.INVALID, "'" + alias + "' is already attached to dataset '"
                    + known.dataset().name() + "' in this session; choose another name.");
        }
        if (other.onEngine()) {
            throw new QueryException(QueryException.Kind.REFUSED, "Dataset '" + other.name() + "' lives on an engine"
                    + " and cannot be attached; open it as a dataset of its own.");
        }
        Path link = folder(spill).resolve(alias + ".duckdb");
        try {
            Files.createDirectories(link.getParent());
            Files.createSymbolicLink(link, other.file().toAbsolutePath());
        } catch (IOException e) {
            throw new IllegalStateException("Could not link dataset '" + other.name() + "' into " + link.getParent()
                    + ": " + e.getMessage(), e);
        }
        run.run("ATTACH " + Sql.quoteString(link.toString()) + " AS " + Sql.quoteIdent(alias) + " (READ_ONLY)");
        List<TableInfo> tables = new ArrayList<>();
        for (TableInfo t : describeMain.get()) {
            tables.add(new TableInfo(alias + "." + t.name(), t.kind(), t.rows(), t.columns()));
        }
        byAlias.put(alias, new Entry(other, List.copyOf(tables)));
        return List.copyOf(tables);
    }

    private static List<String> union(Set<String> a, List<String> b) {
        List<String> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }
}
