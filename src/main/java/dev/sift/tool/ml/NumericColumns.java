package dev.sift.tool.ml;

import dev.sift.data.FixableException;
import dev.sift.data.Sql;
import dev.sift.data.TableInfo;
import dev.sift.data.Workspace;
import dev.sift.ml.MlException;

import java.util.ArrayList;
import java.util.List;

/** Numeric columns of a table read into arrays ({@code values[column][row]}, NaN for null) with their rowids and a row label. */
record NumericColumns(List<String> columns, double[][] values, long[] rowids, Object[] labels, String labelColumn) {

    static final int MAX_ROWS = 1_000_000;

    static NumericColumns read(Workspace ws, TableInfo t, List<String> requested, String tool) throws FixableException {
        List<String> columns = new ArrayList<>();
        for (String c : requested) {
            var info = t.column(c).orElseThrow();
            if (!MlSupport.isNumericType(info.type())) {
                throw new MlException("Column " + info.name() + " is " + info.type() + ": " + tool + " needs numeric"
                        + " columns. Numeric columns of " + t.name() + ": " + String.join(", ", t.columns().stream()
                        .filter(x -> MlSupport.isNumericType(x.type())).map(x -> x.name()).toList())
                        + ". Turn other values into numbers in SQL first (e.g. a count or a CASE).");
            }
            if (!columns.contains(info.name())) {
                columns.add(info.name());
            }
        }
        if (t.rows() > MAX_ROWS) {
            throw new MlException(t.name() + " has " + t.rows() + " rows; " + tool + " works on at most " + MAX_ROWS
                    + ". Aggregate or sample in SQL first (e.g. USING SAMPLE 100000 ROWS).");
        }
        String label = MlSupport.entity(t, null);
        StringBuilder sql = new StringBuilder("SELECT rowid, ").append(label == null ? "NULL" : Sql.quoteIdent(label));
        for (String c : columns) {
            sql.append(", CAST(").append(Sql.quoteIdent(c)).append(" AS DOUBLE)");
        }
        sql.append(" FROM ").append(t.sqlName()).append(" ORDER BY ")
                .append(label == null ? "" : Sql.quoteIdent(label) + " NULLS LAST, ").append("rowid");
        return ws.trustedRead(sql.toString(), rs -> {
            List<Long> ids = new ArrayList<>();
            List<Object> labels = new ArrayList<>();
            List<double[]> rows = new ArrayList<>();
            while (rs.next()) {
                ids.add(rs.getLong(1));
                labels.add(rs.getObject(2));
                double[] row = new double[columns.size()];
                for (int j = 0; j < row.length; j++) {
                    double v = rs.getDouble(3 + j);
                    row[j] = rs.wasNull() ? Double.NaN : v;
                }
                rows.add(row);
            }
            double[][] values = new double[columns.size()][rows.size()];
            for (int i = 0; i < rows.size(); i++) {
                for (int j = 0; j < columns.size(); j++) {
                    values[j][i] = rows.get(i)[j];
                }
            }
            return new NumericColumns(columns, values, ids.stream().mapToLong(Long::longValue).toArray(),
                    labels.toArray(), label);
        });
    }

    int rows() {
        return rowids.length;
    }

    /** "loan_id 12" or "row 5". */
    String rowName(int i) {
        return labelColumn == null ? "row " + (i + 1) : labelColumn + " " + labels[i];
    }
}
