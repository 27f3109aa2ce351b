package dev.sift.tool;

import dev.sift.data.QueryException;
import dev.sift.data.SqlDialect;
import dev.sift.data.TableInfo;
import dev.sift.data.Workspace;

import java.lang.reflect.Constructor;
import java.lang.reflect.RecordComponent;
import java.util.Locale;

/**
 * A tool that computes with DuckDB's SQL ({@link Tool#computesLocally}) called on a table of a live dataset runs
 * on a bounded sample of it brought back as frame {@code sample_<table>}: at most {@link #ROWS} rows (fewer when
 * the connection's row cap is lower), the whole table when it is that small. The frame is made once per
 * workspace and reused; the result says what it was computed on. Everything else (SQL the agent writes,
 * aggregates) still runs on the engine.
 *
 * @param args the call with its source replaced by the sample frame
 * @param note what the result was computed on, for the planner and the run's notes
 */
public record EngineSample<A extends Record>(A args, String note) {
    /** Rows brought back for a local computation over an engine table. */
    public static final int ROWS = 100_000;

    /** The call on a sample frame, or null when the tool runs as called (DuckDB data, a frame, no source). */
    static <A extends Record> EngineSample<A> of(Tool<A> tool, A args, Workspace ws) throws QueryException {
        if (!tool.computesLocally() || ws.dialect() == SqlDialect.DUCKDB) {
            return null;
        }
        RecordComponent[] components = args.getClass().getRecordComponents();
        for (int i = 0; i < components.length; i++) {
            if (ArgsBinder.arg(components[i]).kind() != Arg.Kind.SOURCE
                    || !(ToolRegistry.value(components[i], args) instanceof String source)) {
                continue;
            }
            TableInfo t = ws.table(source).orElse(null);
            if (t == null || t.kind() != TableInfo.Kind.TABLE) {
                return null;
            }
            int limit = Math.min(ROWS, ws.maxFrameRows());
            String label = label(t.name());
            if (ws.frames().stream().noneMatch(f -> f.name().equals(label))) {
                ws.saveTrustedFrame(label, "SELECT * FROM " + t.sqlName() + " LIMIT " + limit);
            }
            return new EngineSample<>(with(args, i, label), note(t, label, limit, ws.dialect()));
        }
        return null;
    }

    static String label(String table) {
        return "sample_" + table.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9_]+", "_");
    }

    private static String note(TableInfo t, String label, int limit, SqlDialect dialect) {
        String from = " brought back from " + dialect.label() + " as frame " + label;
        if (t.rows() >= 0 && t.rows() <= limit) {
            return "Computed in this session on all " + String.format("%,d", t.rows()) + " rows of " + t.name() + "," + from + ".";
        }
        return "Computed in this session on a bounded sample of " + t.name() + from + ": the first "
                + String.format("%,d", limit) + " of " + (t.rows() < 0 ? "its" : String.format("~%,d", t.rows()))
                + " rows (not the whole table; aggregate on the engine with run_sql for exact totals).";
    }

    /** A copy of {@code args} with component {@code index} set to {@code value}. */
    @SuppressWarnings("unchecked")
    private static <A extends Record> A with(A args, int index, String value) {
        RecordComponent[] components = args.getClass().getRecordComponents();
        Object[] values = new Object[components.length];
        Class<?>[] types = new Class<?>[components.length];
        for (int i = 0; i < components.length; i++) {
            values[i] = i == index ? value : ToolRegistry.value(components[i], args);
            types[i] = components[i].getType();
        }
        try {
            Constructor<?> canonical = args.getClass().getDeclaredConstructor(types);
            canonical.setAccessible(true);
            return (A) canonical.newInstance(values);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }
}
