package dev.sift.tool.ml;

import dev.sift.data.FixableException;
import dev.sift.data.QueryException;
import dev.sift.data.QueryResult;
import dev.sift.data.TableInfo;
import dev.sift.data.Numbers;
import dev.sift.ml.KMeans;
import dev.sift.ml.MlException;
import dev.sift.tool.Arg;
import dev.sift.tool.Tool;
import dev.sift.tool.ToolContext;
import dev.sift.tool.ToolResult;
import dev.sift.tool.ToolSpec;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Groups rows by numeric columns with k-means (standardized, seeded); k is chosen by silhouette when not
 * given. Reports each cluster's size and column means, and saves the source's rows, every column kept (the
 * entity id among them), with their cluster beside them, so "which clients are in cluster 2" is one query.
 */
public final class KMeansClusters implements Tool<KMeansClusters.Args> {
    static final long SEED = 42;

    public record Args(
            @Arg(value = "table or frame, one row per thing to group", aliases = {"table", "frame"},
                    kind = Arg.Kind.SOURCE) String source,
            @Arg(value = "numeric columns to cluster on", aliases = {"features"}, kind = Arg.Kind.COLUMNS) List<String> columns,
            @Arg(value = "number of clusters, 2 to 20 (default: chosen by silhouette among 2..8)", required = false,
                    aliases = {"n_clusters"}) Integer k,
            @Arg(value = "save the assignment as frame frames.<label> (default 'clusters')", required = false,
                    aliases = {"save_as", "name"}) String label) {
        public Args {
            if (k != null && (k < 2 || k > 20)) {
                throw new IllegalArgumentException("k must be between 2 and 20, got " + k + ".");
            }
        }
    }

    /** DuckDB's SQL over the source: on a live dataset it runs on a sample brought back ({@link dev.sift.tool.EngineSample}). */
    @Override
    public boolean computesLocally() {
        return true;
    }

    @Override
    public ToolSpec spec() {
        return new ToolSpec("kmeans_clusters", "Group rows into clusters by numeric columns (k-means; k chosen by"
                + " silhouette when omitted) and profile each cluster.", Args.class, "cluster profiles", Set.of("ml"));
    }

    @Override
    public ToolResult run(Args args, ToolContext ctx) throws FixableException, InterruptedException {
        TableInfo t = ctx.source(args.source());
        String label = args.label() == null ? "clusters" : args.label();
        NumericColumns data = NumericColumns.read(ctx.workspace(), t, args.columns(), "kmeans_clusters");
        int n = data.rows();
        int minRows = args.k() == null ? 3 : args.k() + 1;
        if (n < minRows) {
            throw new MlException(t.name() + " has " + n + " rows: clustering into "
                    + (args.k() == null ? "2 or more" : String.valueOf(args.k())) + " groups needs at least " + minRows + ".");
        }
        double[][] rows = new double[n][data.columns().size()];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < data.columns().size(); j++) {
                rows[i][j] = data.values()[j][i];
            }
        }
        KMeans.Result r = KMeans.fit(rows, args.k(), SEED);
        List<QueryResult.Column> cols = new ArrayList<>(List.of(new QueryResult.Column("row_id", "BIGINT")));
        if (data.labelColumn() != null) {
            cols.add(new QueryResult.Column(data.labelColumn(), "VARCHAR"));
        }
        data.columns().forEach(c -> cols.add(new QueryResult.Column(c, "DOUBLE")));
        cols.add(new QueryResult.Column("cluster", "INTEGER"));
        List<Object[]> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            List<Object> row = new ArrayList<>();
            row.add(data.rowids()[i]);
            if (data.labelColumn() != null) {
                row.add(data.labels()[i] == null ? null : String.valueOf(data.labels()[i]));
            }
            for (double v : rows[i]) {
                row.add(Double.isNaN(v) ? null : v);
            }
            row.add(r.assignment()[i] + 1);
            out.add(row.toArray());
        }
        String assignment = label + "_assignment";
        ctx.workspace().writeFrame(assignment, cols, out);
        if (!keepRows(ctx, t, label, assignment)) {
            ctx.workspace().writeFrame(label, cols, out);
        }
        return ToolResult.ok(summary(t, data, rows, r, label), profiles(data, rows, r));
    }

    /**
     * Replaces the assignment frame by the source's rows (all columns, its own column named cluster replaced) with
     * their cluster, in the order they were clustered; false for a source without rowids (a view).
     */
    private static boolean keepRows(ToolContext ctx, TableInfo t, String label, String assignment) {
        boolean own = t.column("cluster").isPresent();
        try {
            ctx.workspace().saveTrustedFrame(label, "SELECT s.*" + (own ? " EXCLUDE (cluster)" : "") + ", a.cluster FROM "
                    + t.sqlName() + " AS s JOIN frames." + dev.sift.data.Sql.quoteIdent(assignment)
                    + " AS a ON s.rowid = a.row_id ORDER BY a.row_id");
            return true;
        } catch (QueryException e) {
            return false; // a view has no rowid: the frame keeps the clustered columns and the row label
        }
    }

    private static List<Map<String, Object>> profiles(NumericColumns data, double[][] rows, KMeans.Result r) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (int c = 0; c < r.k(); c++) {
            Map<String, Object> p = new LinkedHashMap<>();
            p.put("cluster", c + 1);
            p.put("size", count(r.assignment(), c));
            for (int j = 0; j < data.columns().size(); j++) {
                p.put(data.columns().get(j), mean(rows, r.assignment(), c, j));
            }
            out.add(p);
        }
        return out;
    }

    private static String summary(TableInfo t, NumericColumns data, double[][] rows, KMeans.Result r, String label) {
        StringBuilder b = new StringBuilder("Clustered ").append(rows.length).append(" rows of ").append(t.name())
                .append(" on ").append(String.join(", ", data.columns())).append(" into k = ").append(r.k())
                .append(" clusters (silhouette ").append(Numbers.fixed(r.silhouette(), 3));
        if (r.silhouetteByK().length > 0) {
            List<String> tried = new ArrayList<>();
            for (int k = 2; k < r.silhouetteByK().length; k++) {
                tried.add("k=" + k + ": " + Numbers.fixed(r.silhouetteByK()[k], 3));
            }
            b.append("; chosen by silhouette among ").append(String.join(", ", tried));
        }
        b.append("); saved as frame frames.").append(label).append(" (every column of ").append(t.name())
                .append(", with column cluster).");
        for (int c = 0; c < r.k(); c++) {
            int size = count(r.assignment(), c);
            b.append("\nCluster ").append(c + 1).append(": ").append(size).append(" rows (")
                    .append(Numbers.fixed(100.0 * size / rows.length, 1)).append("%)");
            for (int j = 0; j < data.columns().size(); j++) {
                b.append(j == 0 ? ", means " : ", ").append(data.columns().get(j)).append(' ')
                        .append(Numbers.number(mean(rows, r.assignment(), c, j)));
            }
        }
        b.append("\nOverall means: ");
        for (int j = 0; j < data.columns().size(); j++) {
            b.append(j == 0 ? "" : ", ").append(data.columns().get(j)).append(' ').append(Numbers.number(mean(rows, null, 0, j)));
        }
        return b.toString();
    }

    private static int count(int[] a, int c) {
        int n = 0;
        for (int v : a) {
            n += v == c ? 1 : 0;
        }
        return n;
    }

    private static double mean(double[][] rows, int[] a, int c, int j) {
        double s = 0;
        int n = 0;
        for (int i = 0; i < rows.length; i++) {
            if ((a == null || a[i] == c) && !Double.isNaN(rows[i][j])) {
                s += rows[i][j];
                n++;
            }
        }
        return n == 0 ? Double.NaN : s / n;
    }
}
