package dev.sift.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sift.Sift;
import dev.sift.data.CellCuts;
import dev.sift.data.Dataset;
import dev.sift.data.QueryException;
import dev.sift.data.QueryResult;
import dev.sift.data.Workspace;
import dev.sift.text.ResultText;
import dev.sift.text.SafeText;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

@Command(name = "sql", description = "Run one read-only query through the same guard the agent uses.")
final class SqlCommand implements Callable<Integer> {
    enum Format { table, csv, json }

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "SQL", description = "one SELECT (or WITH … SELECT) statement")
    String sql;

    @Option(names = "--dataset", defaultValue = Sift.DEMO_DATASET, description = "dataset name (default: ${DEFAULT-VALUE})")
    String dataset;

    @Option(names = "--format", defaultValue = "table", description = "table, csv or json (default: ${DEFAULT-VALUE})")
    Format format;

    @Option(names = "--max-rows", defaultValue = "1000", description = "rows to print at most (default: ${DEFAULT-VALUE})")
    int maxRows;

    @Option(names = "--max-cell-bytes", description = "the most bytes one cell brings; a longer value is cut to it and"
            + " the cut is stated (default: SIFT_MAX_CELL_BYTES, else 65536)")
    Long maxCellBytes;

    @Override
    public Integer call() throws Exception {
        if (maxRows < 1) {
            throw new IllegalArgumentException("--max-rows must be at least 1, got " + maxRows);
        }
        Sift sift = Runtime.offline();
        Dataset ds = sift.dataset(dataset, new ConsoleProgress(spec.commandLine().getErr(), "Building dataset '" + dataset + "'"));
        Workspace.Limits d = sift.limits();
        if (maxCellBytes != null) {
            if (maxCellBytes < 1) {
                throw new IllegalArgumentException("--max-cell-bytes must be at least 1, got " + maxCellBytes);
            }
            d = d.withBudget(maxCellBytes, d.resultBytes());
        }
        PrintWriter out = spec.commandLine().getOut();
        Printer printer = switch (format) {
            case csv -> new CsvPrinter(out);
            case json -> new JsonPrinter(out);
            default -> new TablePrinter(out);
        };
        long total;
        try (Workspace ws = sift.open(ds, d.withFetchRows(Math.min(maxRows, TablePrinter.MEASURE)))) {
            total = ws.stream(sql, maxRows, printer);
        } catch (QueryException e) {
            throw new IllegalArgumentException(e.getMessage());
        }
        boolean more = total < 0 || total > printer.rows;
        printer.finish(more ? total : printer.rows);
        out.flush();
        if (more) {
            spec.commandLine().getErr().println("sift: showing the first " + printer.rows + " of "
                    + (total < 0 ? "more" : String.valueOf(total)) + " rows (--max-rows to change)");
        }
        if (printer.cuts.any()) {
            spec.commandLine().getErr().println("sift: " + printer.cuts.statement());
        }
        return 0;
    }

    /** Writes rows as they arrive, so no format holds the whole result. */
    private abstract static class Printer implements Workspace.RowSink {
        final PrintWriter out;
        List<String> names = List.of();
        long rows;
        CellCuts cuts = CellCuts.NONE;

        Printer(PrintWriter out) {
            this.out = out;
        }

        @Override
        public void columns(List<QueryResult.Column> columns) {
            names = columns.stream().map(QueryResult.Column::name).toList();
        }

        @Override
        public void cuts(CellCuts cut) {
            cuts = cut;
        }

        /** {@code total}: all rows of the result, -1 when more than were printed but not counted. */
        void finish(long total) {
        }
    }

    private static final class CsvPrinter extends Printer {
        CsvPrinter(PrintWriter out) {
            super(out);
        }

        @Override
        public void columns(List<QueryResult.Column> columns) {
            super.columns(columns);
            out.println(String.join(",", names.stream().map(SqlCommand::csv).toList()));
        }

        @Override
        public void row(List<Object> row) {
            rows++;
            out.println(String.join(",", row.stream().map(v -> v == null ? "" : csv(String.valueOf(v))).toList()));
        }
    }

    private static final class JsonPrinter extends Printer {
        private static final ObjectMapper JSON = new ObjectMapper();

        JsonPrinter(PrintWriter out) {
            super(out);
        }

        @Override
        public void columns(List<QueryResult.Column> columns) {
            super.columns(columns);
            out.print('[');
        }

        @Override
        public void row(List<Object> row) throws java.io.IOException {
            Map<String, Object> m = new LinkedHashMap<>();
            for (int i = 0; i < row.size(); i++) {
                m.put(names.get(i), row.get(i));
            }
            out.print((rows++ == 0 ? "" : ",") + JSON.writeValueAsString(m));
        }

        @Override
        void finish(long total) {
            out.println(']');
        }
    }

    /** Column widths come from the first rows; later rows are streamed in those widths (wider cells overflow). */
    private static final class TablePrinter extends Printer {
        static final int MEASURE = 1000;
        private final List<String[]> pending = new ArrayList<>();
        private int[] width;

        TablePrinter(PrintWriter out) {
            super(out);
        }

        @Override
        public void row(List<Object> row) {
            rows++;
            String[] cells = row.stream().map(v -> SafeText.terminal(ResultText.cell(v))).toArray(String[]::new);
            if (width == null) {
                pending.add(cells);
                if (pending.size() >= MEASURE) {
                    flushPending();
                }
            } else {
                line(cells);
            }
        }

        private void flushPending() {
            String[] header = names.stream().map(SafeText::oneLine).toArray(String[]::new);
            width = new int[header.length];
            for (String[] line : pending) {
                measure(line);
            }
            measure(header);
            line(header);
            StringBuilder rule = new StringBuilder();
            for (int i = 0; i < width.length; i++) {
                rule.append(i == 0 ? "" : "-+-").append("-".repeat(width[i]));
            }
            out.println(rule);
            pending.forEach(this::line);
            pending.clear();
        }

        private void measure(String[] line) {
            for (int i = 0; i < width.length; i++) {
                width[i] = Math.max(width[i], line[i].length());
            }
        }

        private void line(String[] cells) {
            StringBuilder b = new StringBuilder();
            for (int i = 0; i < cells.length; i++) {
                b.append(i == 0 ? "" : " | ").append(String.format("%-" + width[i] + "s", cells[i]));
            }
            out.println(b.toString().stripTrailing());
        }

        @Override
        void finish(long total) {
            if (width == null) {
                flushPending();
            }
            out.println(total < 0 ? "(more than " + rows + " rows)" : "(" + total + (total == 1 ? " row)" : " rows)"));
        }
    }

    /** A CSV field; control characters other than line breaks and tabs are shown as escapes (no terminal codes). */
    static String csv(String raw) {
        String s = SafeText.terminal(raw).replace("\\x0D", "\r");
        return s.contains(",") || s.contains("\"") || s.contains("\n") || s.contains("\r")
                ? '"' + s.replace("\"", "\"\"") + '"' : s;
    }
}
