package dev.sift.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sift.Sift;
import dev.sift.data.Dataset;
import dev.sift.data.QueryException;
import dev.sift.data.QueryResult;
import dev.sift.data.Workspace;
import dev.sift.text.ResultText;
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

    @Override
    public Integer call() throws Exception {
        if (maxRows < 1) {
            throw new IllegalArgumentException("--max-rows must be at least 1, got " + maxRows);
        }
        Sift sift = Runtime.offline();
        Dataset ds = sift.dataset(dataset, new ConsoleProgress(spec.commandLine().getErr(), "Building dataset '" + dataset + "'"));
        Workspace.Limits d = Workspace.Limits.defaults();
        QueryResult r;
        try (Workspace ws = Workspace.open(ds, new Workspace.Limits(d.threads(), d.memoryLimit(), d.queryTimeout(), maxRows))) {
            r = ws.query(sql);
        } catch (QueryException e) {
            throw new IllegalArgumentException(e.getMessage());
        }
        PrintWriter out = spec.commandLine().getOut();
        switch (format) {
            case csv -> printCsv(out, r);
            case json -> out.println(new ObjectMapper().writeValueAsString(asObjects(r)));
            default -> printTable(out, r);
        }
        out.flush();
        if (r.truncated()) {
            spec.commandLine().getErr().println("sift: showing the first " + r.rows().size() + " of "
                    + (r.rowCount() < 0 ? "more" : String.valueOf(r.rowCount())) + " rows (--max-rows to change)");
        }
        return 0;
    }

    private static List<Map<String, Object>> asObjects(QueryResult r) {
        List<Map<String, Object>> rows = new ArrayList<>();
        for (List<Object> row : r.rows()) {
            Map<String, Object> m = new LinkedHashMap<>();
            for (int i = 0; i < row.size(); i++) {
                m.put(r.columnNames().get(i), row.get(i));
            }
            rows.add(m);
        }
        return rows;
    }

    private static void printCsv(PrintWriter out, QueryResult r) {
        out.println(String.join(",", r.columnNames().stream().map(SqlCommand::csv).toList()));
        for (List<Object> row : r.rows()) {
            out.println(String.join(",", row.stream().map(v -> v == null ? "" : csv(String.valueOf(v))).toList()));
        }
    }

    static String csv(String s) {
        return s.contains(",") || s.contains("\"") || s.contains("\n") || s.contains("\r")
                ? '"' + s.replace("\"", "\"\"") + '"' : s;
    }

    private static void printTable(PrintWriter out, QueryResult r) {
        int n = r.columns().size();
        int[] width = new int[n];
        List<String[]> cells = new ArrayList<>();
        String[] header = r.columnNames().toArray(String[]::new);
        cells.add(header);
        for (List<Object> row : r.rows()) {
            cells.add(row.stream().map(ResultText::cell).toArray(String[]::new));
        }
        for (String[] line : cells) {
            for (int i = 0; i < n; i++) {
                width[i] = Math.max(width[i], line[i].length());
            }
        }
        for (int li = 0; li < cells.size(); li++) {
            StringBuilder b = new StringBuilder();
            for (int i = 0; i < n; i++) {
                b.append(i == 0 ? "" : " | ").append(String.format("%-" + width[i] + "s", cells.get(li)[i]));
            }
            out.println(b.toString().stripTrailing());
            if (li == 0) {
                StringBuilder rule = new StringBuilder();
                for (int i = 0; i < n; i++) {
                    rule.append(i == 0 ? "" : "-+-").append("-".repeat(width[i]));
                }
                out.println(rule);
            }
        }
        long total = r.rowCount(); // -1 when a capped result could not be counted in time
        out.println(total < 0 ? "(more than " + r.rows().size() + " rows)" : "(" + total + (total == 1 ? " row)" : " rows)"));
    }
}
