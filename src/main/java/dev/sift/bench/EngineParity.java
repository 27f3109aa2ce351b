package dev.sift.bench;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * Item-for-item parity of a suite answered on a live engine with the same suite answered on DuckDB (the same planner
 * and items, the original dataset): how many items have the same outcome, and which do not.
 */
record EngineParity(int items, List<String> differences) {

    /** Compares two runs of one suite, item by item in suite order. */
    static EngineParity of(BenchReport engine, BenchReport duckdb, String engineName) {
        List<BenchRunner.ItemResult> a = engine.items();
        List<BenchRunner.ItemResult> b = duckdb.items();
        List<String> differences = new ArrayList<>();
        for (int i = 0; i < Math.max(a.size(), b.size()); i++) {
            BenchRunner.ItemResult onEngine = i < a.size() ? a.get(i) : null;
            BenchRunner.ItemResult onDuck = i < b.size() ? b.get(i) : null;
            if (onEngine == null || onDuck == null || onEngine.outcome() != onDuck.outcome()) {
                String id = (onEngine != null ? onEngine : onDuck).item().id();
                differences.add(id + " (DuckDB " + wire(onDuck) + ", " + engineName + " " + wire(onEngine) + ")");
            }
        }
        return new EngineParity(Math.max(a.size(), b.size()), differences);
    }

    private static String wire(BenchRunner.ItemResult r) {
        return r == null ? "not run" : r.outcome().wire();
    }

    void print(PrintWriter out, String engineName) {
        out.printf("Parity with DuckDB (the same items and planner on the original dataset): %d of %d items with the same"
                + " outcome on %s%s%n", items - differences.size(), items, engineName,
                differences.isEmpty() ? "" : "; different: " + String.join(", ", differences));
        out.flush();
    }
}
