package dev.sift.tool.ml;

import dev.sift.data.FixableException;
import dev.sift.data.QueryException;
import dev.sift.data.QueryResult;
import dev.sift.data.TableInfo;
import dev.sift.ml.Anomalies;
import dev.sift.data.Numbers;
import dev.sift.ml.MlException;
import dev.sift.tool.Arg;
import dev.sift.tool.Tool;
import dev.sift.tool.ToolContext;
import dev.sift.tool.ToolResult;
import dev.sift.tool.ToolSpec;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Finds unusual rows by robust z-scores (median and MAD, IQR as fallback) of numeric columns, with the
 * reasons for each; saves the flagged rows as a frame.
 */
public final class AnomalyScan implements Tool<AnomalyScan.Args> {
    /** Flagged rows listed in the observation (by score); the frame keeps them all. */
    static final int SHOWN = 25;

    public record Args(
            @Arg(value = "table or frame to scan", aliases = {"table", "frame"}, kind = Arg.Kind.SOURCE) String source,
            @Arg(value = "numeric columns to check", aliases = {"features"}, kind = Arg.Kind.COLUMNS) List<String> columns,
            @Arg(value = "robust z-score above which a value is unusual (default 3.5)", required = false) Double threshold,
            @Arg(value = "save flagged rows as frame frames.<label> (default 'anomalies')", required = false,
                    aliases = {"save_as", "name"}) String label) {
        public Args {
            if (threshold != null && !(threshold > 0)) {
                throw new IllegalArgumentException("threshold must be positive, got " + threshold + ".");
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
        return new ToolSpec("anomaly_scan", "Find unusual rows by robust z-scores of numeric columns and say why each"
                + " is unusual; a column of few values (a duration of 12 to 60 months) may have no value far enough out,"
                + " and it says so.", Args.class, "unusual rows with reasons", Set.of("ml"));
    }

    @Override
    public int summaryCap() {
        return 4000;
    }

    @Override
    public ToolResult run(Args args, ToolContext ctx) throws FixableException, InterruptedException {
        TableInfo t = ctx.source(args.source());
        double threshold = args.threshold() == null ? Anomalies.DEFAULT_THRESHOLD : args.threshold();
        String label = args.label() == null ? "anomalies" : args.label();
        NumericColumns data = NumericColumns.read(ctx.workspace(), t, args.columns(), "anomaly_scan");
        Anomalies.Result r = Anomalies.scan(data.columns(), data.values(), threshold);
        List<QueryResult.Column> cols = new ArrayList<>(List.of(new QueryResult.Column("row_id", "BIGINT")));
        if (data.labelColumn() != null) {
            cols.add(new QueryResult.Column(data.labelColumn(), "VARCHAR"));
        }
        data.columns().forEach(c -> cols.add(new QueryResult.Column(c, "DOUBLE"))); // the values scanned, as read
        cols.add(new QueryResult.Column("score", "DOUBLE"));
        cols.add(new QueryResult.Column("reasons", "VARCHAR"));
        List<Object[]> rows = new ArrayList<>();
        for (Anomalies.Flagged f : r.flagged()) {
            List<Object> row = new ArrayList<>();
            row.add(data.rowids()[f.row()]);
            if (data.labelColumn() != null) {
                row.add(String.valueOf(data.labels()[f.row()]));
            }
            for (int j = 0; j < data.columns().size(); j++) {
                double v = data.values()[j][f.row()];
                row.add(Double.isNaN(v) ? null : v);
            }
            row.add(Math.round(f.score() * 100) / 100.0);
            row.add(String.join("; ", f.reasons()));
            rows.add(row.toArray());
        }
        ctx.workspace().writeFrame(label, cols, rows);
        StringBuilder b = new StringBuilder().append(r.flagged().size()).append(" of ").append(data.rows())
                .append(" rows of ").append(t.name()).append(" are unusual (robust |z| > ").append(Numbers.number(threshold))
                .append(" in ").append(String.join(", ", data.columns())).append("); saved as frame frames.")
                .append(label).append(" (with the scanned columns ").append(String.join(", ", data.columns()))
                .append(", score and reasons).");
        if (!r.skipped().isEmpty()) {
            b.append(" Skipped: ").append(String.join(", ", r.skipped())).append('.');
        }
        if (!r.unflaggable().isEmpty()) {
            b.append("\nNote: no row can be unusual in ").append(String.join("; ", r.unflaggable())).append(". For a"
                    + " column of few values, sample_values shows how rare each value is.");
        }
        int shown = Math.min(SHOWN, r.flagged().size());
        if (shown > 0) {
            b.append(shown == r.flagged().size() ? "\nAll " + shown + " flagged rows, by score:"
                    : "\nShowing the " + shown + " highest-scoring of " + r.flagged().size() + " flagged rows (all are in"
                    + " frames." + label + "):");
        }
        for (Anomalies.Flagged f : r.flagged().subList(0, shown)) {
            b.append('\n').append(data.rowName(f.row())).append(" (score ").append(Numbers.fixed(f.score(), 1))
                    .append("): ").append(String.join("; ", f.reasons()));
        }
        return ToolResult.ok(b.toString(), r, Map.of("flagged", r.flagged().size()));
    }
}
