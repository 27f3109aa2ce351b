package dev.sift.data;

import dev.sift.TestDatasets;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

class SqlGuardTest {
    @Test
    void explore() throws Exception {
        List<String> sqls = List.of(
            "SELECT * FROM checkpoint()", "SELECT * FROM force_checkpoint()", "SELECT * FROM checkpoint('data')", "SELECT * FROM enable_logging()",
            "SELECT * FROM disable_logging()", "SELECT * FROM truncate_duckdb_logs()", "SELECT * FROM duckdb_logs", "SELECT * FROM test_all_types()",
            "SELECT * FROM duckdb_databases()", "SELECT * FROM pragma_storage_info('loan')", "SELECT * FROM duckdb_temporary_files()",
            "SELECT * FROM pragma_database_size()", "SELECT * FROM pragma_metadata_info()", "SELECT * FROM enable_profiling()",
            "SELECT * FROM read_csv('data.duckdb')", "SELECT * FROM query('SELECT 1')", "SELECT * FROM query('ATTACH ''x''')",
            "SELECT * FROM sql_auto_complete('SEL')", "SELECT * FROM duckdb_secret_types()", "SELECT * FROM trans;", "SELECT * FROM trans -- all",
            "SELECT * FROM trans; -- all", "SELECT * FROM trans USING SAMPLE 10%", "SELECT * FROM repeat_row(1, num_rows=5000)",
            "SELECT * FROM range(10) t(x); SELECT 1", "VALUES (1),(2)", "TABLE loan", "SELECT * FROM loan UNION ALL SELECT * FROM loan",
            "(SELECT 1)", "SELECT * FROM frames.x", "SELECT * FROM x", "SELECT 1 WHERE 1 = (SELECT count(*) FROM data.main.loan)",
            "INSERT INTO frames.x VALUES (1)", "SET VARIABLE v = 1", "SELECT getvariable('v')", "SELECT current_database()",
            "SELECT * FROM \"order\"", "SELECT * FROM order", "SELECT * FROM memory.main.x",
            "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM r) SELECT count(*) FROM r",
            "SELECT 1 -- ; DROP TABLE loan", "SELECT '--'; DROP TABLE loan", "SELECT $$;$$; DROP TABLE loan",
            "SELECT 1 /* nested /* */ ; DROP TABLE loan */", "SELECT * FROM read_csv('/etc/passwd'); -- x",
            "WITH d AS (DELETE FROM loan RETURNING *) SELECT * FROM d", "SELECT * FROM (DELETE FROM loan RETURNING *)",
            "DESCRIBE SELECT 1", "SUMMARIZE SELECT 1", "SHOW ALL TABLES", "SELECT * FROM duckdb_functions() LIMIT 1"
        );
        Dataset ds = TestDatasets.bank();
        StringBuilder out = new StringBuilder();
        java.util.TimeZone.setDefault(java.util.TimeZone.getTimeZone("Europe/Prague"));
        try (Workspace ws = Workspace.open(ds, Workspace.Limits.defaults().withQueryTimeout(Duration.ofSeconds(1)))) {
            for (String s : sqls) {
                long t0 = System.nanoTime();
                String shown = s.length() > 100 ? s.substring(0, 100) + "..." : s;
                try {
                    QueryResult r = ws.query(s);
                    out.append("RAN  ").append(shown).append(" -> ").append(r.rows().size()).append(" rows, count ").append(r.rowCount()).append(' ').append(r.rows().isEmpty() ? "" : r.rows().get(0)).append('\n');
                } catch (QueryException e) {
                    out.append(e.kind()).append(' ').append(shown).append(" -> ").append(e.getMessage()).append(" [").append((System.nanoTime()-t0)/1_000_000).append("ms]\n");
                } catch (Exception e) {
                    out.append("EXC  ").append(shown).append(" -> ").append(e).append('\n');
                }
            }
            ws.saveFrame("x", "SELECT 1 AS a");
            for (String s : List.of("SELECT * FROM x", "SELECT * FROM frames.x", "SELECT * FROM memory.frames.x")) {
                QueryResult r = ws.query(s);
                out.append(s).append(" -> ").append(r.rowCount()).append(" ").append(r.truncated()).append(" ").append(r.rows().size()).append("\n");
            }
            for (String s : List.of("SELECT 18446744073709551615::UBIGINT ubm, 340282366920938463463374607431768211455::UHUGEINT uh, '\\x00ab'::BLOB b2, 'abc'::BLOB b3, 4294967295::UINTEGER uim, 65535::USMALLINT us, 255::UTINYINT ut, 1e20::DECIMAL(38,0) dbig, 12345678901234567::DECIMAL(18,0) d18, 123456789012345678::DECIMAL(38,0) d38, 'NaN'::DOUBLE nan, 'infinity'::DATE dinf, DATE '1500-03-01' dold, TIMESTAMP '1500-03-01 10:00:00' told, TIMESTAMP '2021-03-28 02:30:00' tdst, 1.23456789::DECIMAL(18,8) d8, -5::DECIMAL(4,0) dneg, TIMESTAMP_NS '2020-01-02 03:04:05.123456789' tns, TIMESTAMP '2020-01-02 03:04:05.5' tfrac, 'infinity'::TIMESTAMP tinf, DATE '-0044-03-15' dbc, TIMESTAMPTZ '2020-06-01 10:00:00+02' tz2, TIMESTAMP_S '2020-01-02 03:04:05' tss, TIMESTAMP_MS '2020-01-02 03:04:05.123' tms")) {
                QueryResult r = ws.query(s);
                out.append(r.columns()).append('\n');
                for (Object o : r.rows().get(0)) out.append(o == null ? "null" : o.getClass().getSimpleName() + ":" + o).append(" | ");
                out.append('\n');
            }
        }
        Files.writeString(Path.of("/tmp/explore.txt"), out.toString());
    }
}
