package dev.sift.ml;

import dev.sift.data.Numbers;

import dev.sift.data.QueryException;
import dev.sift.data.Sql;
import dev.sift.data.TableInfo;
import dev.sift.data.Workspace;

import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Rows of a table or frame read for a model: the encoded feature matrix (row-major floats, NaN = missing),
 * the entity of each row, the raw target (text, or null), the DuckDB rowid of each row and each used
 * column's value as text (for explanations; null when not kept), in entity order (then rowid).
 */
public record MlData(int rows, int width, float[] x, Entities entities, String[] target, long[] rowids,
                     String[][] display) {

    /**
     * Reads {@code table} through {@code encoder}, as Arrow batches from DuckDB ({@link ArrowFeatures}).
     * {@code entity} and {@code target} may be null; {@code where} (SQL Sift wrote, or null) filters rows.
     * With {@code keepDisplay} each used value is also kept as text (for explanations).
     */
    public static MlData read(Workspace ws, TableInfo table, FeatureEncoder encoder, String entity, String target,
                              String where, boolean keepDisplay) throws QueryException {
        return ArrowFeatures.read(ws, table, encoder, entity, target, where, keepDisplay);
    }

    /**
     * The same rows as {@link #read}, read row by row over JDBC and encoded in Java: the reference the Arrow
     * path is checked against, and the baseline {@code sift bench ml} measures it by.
     */
    public static MlData readRows(Workspace ws, TableInfo table, FeatureEncoder encoder, String entity, String target,
                                  String where, boolean keepDisplay) throws QueryException {
        List<FeatureEncoder.ColumnPlan> plans = encoder.columns();
        List<String> select = new ArrayList<>();
        plans.forEach(p -> select.addAll(encoder.selectExpressions(p)));
        String sql = query(table, entity, target, where, select);
        int width = encoder.width();
        RowDecoder decoder = new RowDecoder(plans, keepDisplay);
        return ws.trustedRead(sql, rs -> {
            FloatBuffer x = new FloatBuffer(width);
            List<Object> entities = new ArrayList<>();
            List<String> targets = new ArrayList<>();
            List<Long> rowids = new ArrayList<>();
            List<String[]> display = new ArrayList<>();
            float[] row = new float[width];
            while (rs.next()) {
                rowids.add(rs.getLong(1));
                entities.add(entityValue(rs, 2));
                targets.add(rs.getString(3));
                String[] shown = decoder.decode(rs, row);
                if (keepDisplay) {
                    display.add(shown);
                }
                x.add(row);
            }
            long[] ids = rowids.stream().mapToLong(Long::longValue).toArray();
            return new MlData(ids.length, width, x.toArray(), Entities.of(entities), targets.toArray(new String[0]), ids,
                    keepDisplay ? display.toArray(new String[0][]) : null);
        });
    }

    /** Encodes one JDBC row's feature columns (from the fourth) into a matrix row, as the encoder's plans say. */
    private static final class RowDecoder {
        private final List<FeatureEncoder.ColumnPlan> plans;
        private final List<Map<String, Integer>> levels;
        private final boolean keepDisplay;

        RowDecoder(List<FeatureEncoder.ColumnPlan> plans, boolean keepDisplay) {
            this.plans = plans;
            this.levels = plans.stream().map(FeatureEncoder::levelIndex).toList();
            this.keepDisplay = keepDisplay;
        }

        /** Fills {@code row}; returns each column's value as text when display is kept, else null. */
        String[] decode(ResultSet rs, float[] row) throws java.sql.SQLException {
            int col = 4;
            int offset = 0;
            String[] shown = keepDisplay ? new String[plans.size()] : null;
            for (int c = 0; c < plans.size(); c++) {
                FeatureEncoder.ColumnPlan plan = plans.get(c);
                String text;
                switch (plan.kind()) {
                    case NUMERIC -> {
                        double v = rs.getDouble(col++);
                        boolean missing = rs.wasNull();
                        row[offset++] = missing ? Float.NaN : (float) v;
                        text = missing ? null : Numbers.number(v);
                    }
                    case ONE_HOT, ORDINAL -> {
                        text = rs.getString(col++);
                        offset = levels(plan, levels.get(c), text, row, offset);
                    }
                    default -> { // DATE: the text, then year, month, day of week and age in days
                        text = rs.getString(col++);
                        for (int k = 0; k < 4; k++) {
                            long part = rs.getLong(col++);
                            row[offset++] = rs.wasNull() ? Float.NaN : part;
                        }
                    }
                }
                if (keepDisplay) {
                    shown[c] = text;
                }
            }
            return shown;
        }

        /** A categorical value as its ordinal index, or one-hot over the levels; returns the next offset. */
        private static int levels(FeatureEncoder.ColumnPlan plan, Map<String, Integer> index, String v, float[] row,
                                  int offset) {
            Integer idx = v == null ? null : index.get(v);
            if (plan.kind() == FeatureEncoder.Kind.ORDINAL) {
                row[offset++] = idx == null ? Float.NaN : idx;
                return offset;
            }
            for (int l = 0; l < plan.levels().size(); l++) {
                row[offset++] = v == null ? Float.NaN : (idx != null && idx == l ? 1f : 0f);
            }
            return offset;
        }
    }

    /**
     * rowid, entity, target (as text), then {@code features}, in entity order (then rowid): a frame rebuilt
     * by a parallel query has the same rows in another order, and the split, the model and the fingerprint
     * must not depend on that.
     */
    static String query(TableInfo table, String entity, String target, String where, List<String> features) {
        return select(table, entity, targetText(target), where, features) + orderBy(entity);
    }

    /** {@link #query}'s columns and rows, in whatever order DuckDB returns them. */
    static String select(TableInfo table, String entity, String targetExpression, String where, List<String> features) {
        StringBuilder sql = new StringBuilder("SELECT rowid");
        sql.append(", ").append(entity == null ? "CAST(NULL AS BIGINT)" : entityExpression(table, entity));
        sql.append(", ").append(targetExpression);
        features.forEach(e -> sql.append(", ").append(e));
        return sql.append(from(table, where)).toString();
    }

    /** The target as text (NULL without a target), as both readers give it. */
    static String targetText(String target) {
        return target == null ? "CAST(NULL AS VARCHAR)" : "CAST(" + Sql.quoteIdent(target) + " AS VARCHAR)";
    }

    /** How many rows {@link #query} returns. */
    static String count(TableInfo table, String where) {
        return "SELECT count(*)" + from(table, where);
    }

    private static String from(TableInfo table, String where) {
        return " FROM " + table.sqlName() + (where == null ? "" : " WHERE " + where);
    }

    static String orderBy(String entity) {
        return " ORDER BY " + (entity == null ? "" : Sql.quoteIdent(entity) + " NULLS LAST, ") + "rowid";
    }

    /** Whole-number ids as BIGINT (read as longs), any other id as its text, so both readers see the same values. */
    static String entityExpression(TableInfo table, String entity) {
        return "CAST(" + Sql.quoteIdent(entity) + (wholeNumbers(table, entity) ? " AS BIGINT)" : " AS VARCHAR)");
    }

    /** Whether {@code column} holds whole numbers that fit a BIGINT (whose text is then Java's text of the long). */
    static boolean wholeNumbers(TableInfo table, String column) {
        String type = table.column(column).map(c -> c.type().toUpperCase(java.util.Locale.ROOT)).orElse("");
        return List.of("TINYINT", "SMALLINT", "INTEGER", "BIGINT", "UTINYINT", "USMALLINT", "UINTEGER").contains(type);
    }

    /** These rows in entity order (NULLS LAST), then rowid: {@link #query}'s order, sorted here instead of in DuckDB. */
    MlData inEntityOrder() {
        int[] order = entities.order(rowids);
        return order == null ? this : subset(order);
    }

    private static Object entityValue(ResultSet rs, int i) throws java.sql.SQLException {
        Object v = rs.getObject(i);
        if (v == null) {
            return null;
        }
        if (v instanceof Integer || v instanceof Long || v instanceof Short || v instanceof Byte) {
            return ((Number) v).longValue();
        }
        return v.toString();
    }

    /** The rows at {@code idx}, in that order. */
    public MlData subset(int[] idx) {
        float[] sx = new float[idx.length * width];
        String[] st = new String[idx.length];
        long[] sr = new long[idx.length];
        String[][] sd = display == null ? null : new String[idx.length][];
        for (int i = 0; i < idx.length; i++) {
            System.arraycopy(x, idx[i] * width, sx, i * width, width);
            st[i] = target[idx[i]];
            sr[i] = rowids[idx[i]];
            if (sd != null) {
                sd[i] = display[idx[i]];
            }
        }
        return new MlData(idx.length, width, sx, entities.subset(idx), st, sr, sd);
    }

    /** A growable float array, one row at a time. */
    private static final class FloatBuffer {
        private final int width;
        private float[] data;
        private int size;

        FloatBuffer(int width) {
            this.width = width;
            this.data = new float[Math.max(16, width * 256)];
        }

        void add(float[] row) {
            if (size + width > data.length) {
                data = java.util.Arrays.copyOf(data, Math.max(data.length * 2, size + width));
            }
            System.arraycopy(row, 0, data, size, width);
            size += width;
        }

        float[] toArray() {
            return java.util.Arrays.copyOf(data, size);
        }
    }
}
