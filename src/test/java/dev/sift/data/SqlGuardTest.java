package dev.sift.data;

import dev.sift.TestDatasets;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

class SqlGuardTest {
    @Test
    void explore() throws Exception {
        List<String> sqls = List.of(
            "DROP TABLE loan", "DELETE FROM loan", "UPDATE loan SET amount = 0", "INSERT INTO loan VALUES (1,1,DATE '2000-01-01',1,1,1,'A')",
            "CREATE TABLE x AS SELECT 1", "CREATE VIEW v AS SELECT 1", "ALTER TABLE loan ADD COLUMN z INT", "TRUNCATE loan",
            "CREATE MACRO m(a) AS a + 1", "SELECT 1; SELECT 2", "SELECT 1; DROP TABLE loan", "ATTACH '/tmp/evil.duckdb' AS evil",
            "DETACH data", "COPY loan TO '/tmp/loan.csv'", "COPY loan FROM '/etc/passwd'", "EXPORT DATABASE '/tmp/exp'",
            "IMPORT DATABASE '/tmp/exp'", "SELECT * FROM read_csv('/etc/passwd')", "SELECT * FROM read_csv_auto('/etc/passwd')",
            "SELECT * FROM read_parquet('/tmp/x.parquet')", "SELECT * FROM read_json('/tmp/x.json')", "SELECT * FROM read_text('/etc/hostname')",
            "SELECT * FROM glob('/etc/*')", "INSTALL httpfs", "LOAD httpfs", "PRAGMA database_list", "PRAGMA show_tables", "SET threads = 8", "RESET threads",
            "SELECT * INTO x FROM loan", "CALL pragma_version()", "CALL duckdb_tables()", "CHECKPOINT", "VACUUM", "USE memory", "BEGIN", "COMMIT",
            "BEGIN TRANSACTION; DROP TABLE loan; COMMIT",
            "CREATE SECRET s (TYPE s3, KEY_ID 'a', SECRET 'b')", "", "   ", "SELECT 1 -- " + "x".repeat(20_001),
            "SELECT * FROM loans", "SELECT amout FROM loan", "SELECT 1 /* ; */; DROP TABLE loan",
            "WITH x AS (SELECT 1) DELETE FROM loan", "WITH x AS (SELECT 1) INSERT INTO loan SELECT * FROM loan",
            "SELECT * FROM '/etc/passwd'", "SELECT * FROM 'https://example.com/x.csv'", "FROM read_blob('/etc/hostname')",
            "SELECT getenv('HOME')", "SELECT current_setting('threads')", "SELECT * FROM duckdb_settings()", "DESCRIBE loan", "SUMMARIZE loan",
            "SHOW TABLES", "EXPLAIN SELECT 1", "EXPLAIN ANALYZE SELECT 1", "PIVOT loan ON status USING count(*)", "FROM loan",
            "SELECT * FROM query('DROP TABLE loan')", "SELECT * FROM query_table('loan')", "SELECT * FROM sniff_csv('/etc/passwd')",
            "SELECT * FROM data.main.loan LIMIT 1", "SELECT * FROM frames.nope", "SELECT setseed(0.5)", "SELECT nextval('s')",
            "CREATE TEMP TABLE t AS SELECT 1", "CREATE SEQUENCE s", "DETACH DATABASE data", "LOAD '/tmp/x.duckdb_extension'",
            "UPDATE EXTENSIONS", "FORCE CHECKPOINT", "ANALYZE", "PREPARE p AS SELECT 1", "EXECUTE p", "DEALLOCATE p",
            "SELECT * FROM parquet_metadata('/tmp/x.parquet')", "SELECT * FROM duckdb_secrets()", "SELECT * FROM which_secret('s3://x', 's3')",
            "SET GLOBAL threads = 8", "SELECT 'a; DROP TABLE loan' AS s", "WITH t AS (SELECT 1 AS a) SELECT a FROM t",
            "SELECT count(*) FROM trans a, trans b, trans c", "ABORT", "ROLLBACK", "CREATE OR REPLACE TABLE frames.x AS SELECT 1",
            "SELECT * FROM loan; ", "SELECT 1;;", "COMMENT ON TABLE loan IS 'x'", "SELECT * FROM iceberg_scan('x')",
            "SELECT * FROM read_csv(['/etc/passwd'])", "SELECT * FROM read_xlsx('/tmp/x.xlsx')",
            "SELECT * FROM pragma_table_info('loan')", "SELECT * FROM duckdb_extensions()", "SELECT * FROM range(3)",
            "SELECT * FROM main.loan", "INSERT INTO memory.frames.x SELECT 1", "MERGE INTO loan USING loan AS l2 ON true WHEN MATCHED THEN DELETE"
        );
        Dataset ds = TestDatasets.bank();
        StringBuilder out = new StringBuilder();
        try (Workspace ws = Workspace.open(ds, Workspace.Limits.defaults().withQueryTimeout(Duration.ofSeconds(1)))) {
            for (String s : sqls) {
                long t0 = System.nanoTime();
                String shown = s.length() > 100 ? s.substring(0, 100) + "..." : s;
                try {
                    QueryResult r = ws.query(s);
                    out.append("RAN  ").append(shown).append(" -> ").append(r.rows().size()).append(" rows ").append(r.rows().isEmpty() ? "" : r.rows().get(0)).append('\n');
                } catch (QueryException e) {
                    out.append(e.kind()).append(' ').append(shown).append(" -> ").append(e.getMessage()).append(" [").append((System.nanoTime()-t0)/1_000_000).append("ms]\n");
                } catch (Exception e) {
                    out.append("EXC  ").append(shown).append(" -> ").append(e).append('\n');
                }
            }
            out.append("\n=== trusted\n");
            for (String s : List.of("SET threads = 8", "SET enable_external_access = true", "SET lock_configuration = false", "RESET threads",
                    "SELECT * FROM read_csv('/etc/passwd')", "INSERT INTO loan SELECT * FROM loan", "DROP TABLE loan", "SELECT current_setting('threads')",
                    "ATTACH '/tmp/e.duckdb' AS e", "COPY loan TO '/tmp/x.csv'", "DETACH data", "PRAGMA threads=8", "INSTALL httpfs", "LOAD httpfs",
                    "SELECT * FROM trans LIMIT 3")) {
                try {
                    QueryResult r = ws.trustedQuery(s, 10);
                    out.append("RAN  ").append(s).append(" -> ").append(r.rows()).append('\n');
                } catch (QueryException e) {
                    out.append(e.kind()).append(' ').append(s).append(" -> ").append(e.getMessage()).append('\n');
                } catch (Exception e) {
                    out.append("EXC  ").append(s).append(" -> ").append(e).append('\n');
                }
            }
            out.append("\n=== tables\n");
            for (TableInfo t : ws.tables()) out.append(t).append('\n');
            for (String s : List.of("SELECT DATE '2020-01-02' d, 1.5::DECIMAL(10,2) de, 12::DECIMAL(10,0) dz, 5::BIGINT b, NULL n, 170141183460469231731687303715884105727::HUGEINT h, TIMESTAMP '2020-01-02 03:04:05' ts, TIMESTAMPTZ '2020-01-02 03:04:05+00' tz, 1.5::FLOAT f, 1::TINYINT ti, [1,2] l, {'a':1} st, '00000000-0000-0000-0000-000000000000'::UUID u, INTERVAL 1 DAY iv, TIME '01:02:03' tm, 'a'::BLOB bl, 3::UBIGINT ub, 2::UINTEGER ui, 1.0e300::DOUBLE dd, 123456789012345678901234567.12::DECIMAL(38,2) bigdec")) {
                QueryResult r = ws.query(s);
                out.append(r.columns()).append('\n');
                for (Object o : r.rows().get(0)) out.append(o == null ? "null" : o.getClass().getSimpleName() + ":" + o).append(" | ");
                out.append('\n');
            }
        }
        Files.writeString(Path.of("/tmp/explore.txt"), out.toString());
    }
}
