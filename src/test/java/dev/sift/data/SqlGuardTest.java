package dev.sift.data;

import dev.sift.TestDatasets;
import dev.sift.data.QueryException.Kind;
import dev.sift.data.source.PkddSchema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * The hostile corpus: every statement an agent could send to change the dataset, escape the workspace or
 * hide a second statement is refused with a reason, and afterwards the dataset file is byte-identical.
 */
class SqlGuardTest {
    private static final String ONE_QUERY = "Refused: only one read-only query (SELECT or WITH … SELECT) may run here;"
            + " this SQL ";
    private static final String OUTSIDE = "reads files or other resources outside the dataset, which is not allowed";
    private static final String DENIED = "may not be used here (it changes the session, runs SQL of its own or reads"
            + " raw memory)";

    private static Workspace ws;
    private static FileState before;
    private static Map<String, Long> countsBefore;

    /** One hostile statement: the kind of refusal expected and a phrase its message must contain. */
    record Case(String sql, Kind kind, String phrase) {
        @Override
        public String toString() {
            return sql.length() > 80 ? sql.substring(0, 80) + "… (" + sql.length() + " chars)" : sql;
        }
    }

    /** What must not change: content hash, size and modification time of the dataset file. */
    record FileState(String sha256, long size, FileTime modified) {
        static FileState of(Path file) throws Exception {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file));
            return new FileState(HexFormat.of().formatHex(digest), Files.size(file), Files.getLastModifiedTime(file));
        }
    }

    static Map<String, Long> rowCounts(Workspace w) throws QueryException {
        Map<String, Long> counts = new LinkedHashMap<>();
        for (String table : PkddSchema.TABLES) {
            counts.put(table, ((Number) w.trustedQuery("SELECT count(*) FROM data.main." + Sql.quoteIdent(table), 1)
                    .scalar()).longValue());
        }
        return counts;
    }

    @BeforeAll
    static void open() throws Exception {
        Dataset bank = TestDatasets.bank();
        before = FileState.of(bank.file());
        // parsing on a shared parser, as every workspace of the application does
        ws = Workspace.open(bank, Workspace.Limits.defaults().withQueryTimeout(Duration.ofSeconds(1)), null,
                new DatasetTables(1), Map.of(), new SqlParser(0));
        countsBefore = rowCounts(ws);
    }

    @AfterAll
    static void close() {
        if (ws != null) {
            ws.close();
        }
    }

    static Stream<Case> hostile() {
        return Stream.of(
                // writes to the dataset
                new Case("DROP TABLE loan", Kind.REFUSED, ONE_QUERY + "is a DROP statement."),
                new Case("DELETE FROM loan", Kind.REFUSED, ONE_QUERY + "is a DELETE statement."),
                new Case("UPDATE loan SET amount = 0", Kind.REFUSED, ONE_QUERY + "is an UPDATE statement."),
                new Case("INSERT INTO loan VALUES (1, 1, DATE '2000-01-01', 1, 1, 1.0, 'A')", Kind.REFUSED,
                        ONE_QUERY + "is an INSERT statement."),
                new Case("CREATE TABLE x AS SELECT * FROM loan", Kind.REFUSED, ONE_QUERY + "is a CREATE statement."),
                new Case("CREATE VIEW v AS SELECT * FROM loan", Kind.REFUSED, ONE_QUERY + "is a CREATE statement."),
                new Case("CREATE OR REPLACE TABLE frames.x AS SELECT 1", Kind.REFUSED, "is a CREATE statement."),
                new Case("ALTER TABLE loan ADD COLUMN z INTEGER", Kind.REFUSED, ONE_QUERY + "is an ALTER statement."),
                new Case("TRUNCATE loan", Kind.REFUSED, ONE_QUERY + "is a TRUNCATE statement."),
                new Case("CREATE MACRO twice(a) AS a * 2", Kind.REFUSED, ONE_QUERY + "is a CREATE statement."),
                new Case("MERGE INTO loan USING loan AS l2 ON true WHEN MATCHED THEN DELETE", Kind.REFUSED,
                        "is a MERGE statement."),
                new Case("INSERT INTO memory.frames.x SELECT 1", Kind.REFUSED, "is an INSERT statement."),
                new Case("COMMENT ON TABLE loan IS 'x'", Kind.REFUSED, "is a COMMENT statement."),
                new Case("WITH x AS (SELECT 1) DELETE FROM loan", Kind.REFUSED, ONE_QUERY + "is a DELETE statement."),
                new Case("WITH d AS (DELETE FROM loan RETURNING *) SELECT * FROM d", Kind.REFUSED,
                        "is a DELETE statement."),
                // more than one statement, also hidden behind literals and comments
                new Case("SELECT 1; SELECT 2", Kind.REFUSED,
                        "Refused: exactly one statement may run at a time; this SQL has 2. Send them one by one."),
                new Case("SELECT 1; DROP TABLE loan", Kind.REFUSED,
                        ONE_QUERY + "has 2 statements including a DROP statement."),
                new Case("SELECT 1 /* ; */; DROP TABLE loan", Kind.REFUSED,
                        "has 2 statements including a DROP statement."),
                new Case("SELECT '--'; DROP TABLE loan", Kind.REFUSED, "has 2 statements including a DROP statement."),
                new Case("SELECT $$;$$; DROP TABLE loan", Kind.REFUSED, "has 2 statements including a DROP statement."),
                new Case("SELECT 1 /* a /* nested */ ; */; DROP TABLE loan", Kind.REFUSED,
                        "has 2 statements including a DROP statement."),
                new Case("BEGIN TRANSACTION; DROP TABLE loan; COMMIT", Kind.REFUSED,
                        "has 3 statements including BEGIN, DROP and COMMIT statements."),
                // other databases and files
                new Case("ATTACH '/tmp/sift-evil.duckdb' AS evil", Kind.REFUSED, ONE_QUERY + "is an ATTACH statement."),
                new Case("DETACH data", Kind.REFUSED, ONE_QUERY + "is a DETACH statement."),
                new Case("COPY loan TO '/tmp/sift-loan.csv'", Kind.REFUSED, ONE_QUERY + "is a COPY statement."),
                new Case("COPY loan FROM '/etc/passwd'", Kind.REFUSED, ONE_QUERY + "is a COPY statement."),
                new Case("EXPORT DATABASE '/tmp/sift-export'", Kind.REFUSED, ONE_QUERY + "is an EXPORT statement."),
                new Case("IMPORT DATABASE '/tmp/sift-export'", Kind.REFUSED, ONE_QUERY + "is an IMPORT statement."),
                new Case("SELECT * FROM read_csv('/etc/passwd')", Kind.REFUSED, OUTSIDE + " (read_csv() reads"
                        + " files). Query the dataset's tables"
                        + " and frames only."),
                new Case("SELECT * FROM read_csv_auto('/etc/passwd')", Kind.REFUSED, OUTSIDE),
                new Case("SELECT * FROM read_parquet('/tmp/x.parquet')", Kind.REFUSED, OUTSIDE),
                new Case("SELECT * FROM read_json('/tmp/x.json')", Kind.REFUSED, OUTSIDE),
                new Case("SELECT * FROM read_text('/etc/hostname')", Kind.REFUSED, OUTSIDE),
                new Case("SELECT * FROM read_blob('/etc/hostname')", Kind.REFUSED, OUTSIDE),
                new Case("SELECT * FROM glob('/etc/*')", Kind.REFUSED, OUTSIDE),
                new Case("SELECT * FROM parquet_metadata('/tmp/x.parquet')", Kind.REFUSED, OUTSIDE),
                new Case("SELECT * FROM 'https://example.com/x.csv'", Kind.REFUSED, OUTSIDE),
                new Case("SELECT * FROM sniff_csv('/etc/passwd')", Kind.REFUSED, OUTSIDE + " (sniff_csv() reads files)."),
                new Case("SELECT * FROM '/etc/passwd'", Kind.REFUSED, OUTSIDE + " (a table named like a file path"
                        + " reads that file)."),
                new Case("SELECT * FROM 'loan.csv'", Kind.REFUSED, "a table named like a file path reads that file"),
                // extensions, settings, session state
                new Case("INSTALL httpfs", Kind.REFUSED, ONE_QUERY + "is an INSTALL statement."),
                new Case("LOAD httpfs", Kind.REFUSED, ONE_QUERY + "is a LOAD statement."),
                new Case("PRAGMA database_list", Kind.REFUSED, ONE_QUERY + "is a PRAGMA statement."),
                new Case("SET threads = 8", Kind.REFUSED, ONE_QUERY + "is a SET statement."),
                new Case("SET GLOBAL enable_external_access = true", Kind.REFUSED, "is a SET statement."),
                new Case("RESET threads", Kind.REFUSED, ONE_QUERY + "is a RESET statement."),
                new Case("SET VARIABLE v = 1", Kind.REFUSED, "is a SET statement."),
                new Case("CALL pragma_version()", Kind.REFUSED, ONE_QUERY + "is a CALL statement."),
                new Case("CHECKPOINT", Kind.REFUSED, ONE_QUERY + "is a CHECKPOINT statement."),
                new Case("FORCE CHECKPOINT data", Kind.REFUSED, "is a FORCE statement."),
                new Case("VACUUM", Kind.REFUSED, ONE_QUERY + "is a VACUUM statement."),
                new Case("ANALYZE", Kind.REFUSED, "is an ANALYZE statement."),
                new Case("USE memory", Kind.REFUSED, ONE_QUERY + "is a USE statement."),
                new Case("BEGIN", Kind.REFUSED, ONE_QUERY + "is a BEGIN statement."),
                new Case("COMMIT", Kind.REFUSED, ONE_QUERY + "is a COMMIT statement."),
                new Case("CREATE SECRET s3secret (TYPE s3, KEY_ID 'a', SECRET 'b')", Kind.REFUSED,
                        ONE_QUERY + "is a CREATE statement."),
                new Case("PREPARE p AS DELETE FROM loan", Kind.REFUSED, "is a PREPARE statement."),
                new Case("EXPLAIN ANALYZE SELECT 1", Kind.REFUSED, "is an EXPLAIN statement."),
                new Case("LOAD '/tmp/evil.duckdb_extension'", Kind.REFUSED, "is a LOAD statement."),
                // table functions a SELECT can call that change the session or run unchecked SQL
                new Case("SELECT * FROM checkpoint()", Kind.REFUSED, "Refused: checkpoint() " + DENIED),
                new Case("SELECT * FROM force_checkpoint('data')", Kind.REFUSED, "force_checkpoint() " + DENIED),
                new Case("SELECT * FROM enable_logging(storage = 'file', storage_path = '/tmp/sift-log')", Kind.REFUSED,
                        "enable_logging() " + DENIED),
                new Case("SELECT * FROM (SELECT 1) t, enable_logging(level = 'trace')", Kind.REFUSED,
                        "enable_logging() " + DENIED),
                new Case("SELECT * FROM system.main.CHECKPOINT()", Kind.REFUSED, "Refused: checkpoint() " + DENIED),
                new Case("SELECT * FROM \"Enable_Logging\"(storage = 'stdout')", Kind.REFUSED, "Refused: enable_logging() " + DENIED),
                new Case("SELECT (SELECT count(*) FROM disable_logging()) AS n", Kind.REFUSED, "disable_logging() " + DENIED),
                new Case("SELECT * FROM truncate_duckdb_logs()", Kind.REFUSED, "truncate_duckdb_logs() " + DENIED),
                new Case("SELECT write_log('x')", Kind.REFUSED, "write_log() " + DENIED),
                new Case("SELECT * FROM query('SELECT * FROM checkpoint()')", Kind.REFUSED, "query() " + DENIED),
                new Case("SELECT * FROM json_execute_serialized_sql(json_serialize_sql('SELECT 1'))", Kind.REFUSED,
                        "json_execute_serialized_sql() " + DENIED),
                new Case("SELECT * FROM arrow_scan(1, 2, 3)", Kind.REFUSED, "arrow_scan() " + DENIED),
                // not valid SQL here
                new Case("SELECT * INTO x FROM loan", Kind.INVALID, "SQL does not parse: SELECT INTO not supported!"),
                new Case("", Kind.INVALID, "SQL is empty: send one SELECT statement."),
                new Case(" \n\t ", Kind.INVALID, "SQL is empty: send one SELECT statement."),
                new Case("SELECT 1 -- " + "x".repeat(20_000), Kind.REFUSED,
                        "SQL is 20012 characters long; the limit is 20000. Send a shorter query."),
                new Case("SELECT * FROM loans", Kind.INVALID,
                        "SQL does not bind: Catalog Error: Table with name loans does not exist! Did you mean \"loan\"?"),
                new Case("SELECT amout FROM loan", Kind.INVALID, "SQL does not bind: Binder Error: Referenced column"
                        + " \"amout\" not found in FROM clause! Candidate bindings: \"amount\""),
                // far too much work
                new Case("SELECT count(*) FROM trans a, trans b, trans c", Kind.TIMEOUT, "Query cancelled after the time"
                        + " limit of 1 s. Aggregate more, filter earlier, or avoid cross joins."),
                new Case("WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r",
                        Kind.TIMEOUT, "Query cancelled after the time limit of 1 s."));
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @MethodSource("hostile")
    void hostile_sql_is_refused_with_a_reason(Case c) {
        long start = System.nanoTime();
        QueryException e = catchThrowableOfType(QueryException.class, () -> ws.query(c.sql()));
        long millis = (System.nanoTime() - start) / 1_000_000;

        assertThat(e).as("%s must be refused", c.sql()).isNotNull();
        assertThat(e.kind()).as(e.getMessage()).isEqualTo(c.kind());
        assertThat(e.getMessage()).contains(c.phrase());
        assertThat(millis).as("refused or cancelled well within the limit").isLessThan(10_000);
    }

    /**
     * DuckDB's own catalogue, not our list: every table function taking a path whose name says it reads files
     * or scans external data must be refused by name, so a DuckDB upgrade that adds one fails here until it is denied.
     */
    @Test
    void every_table_function_of_duckdb_that_reads_files_is_refused() throws Exception {
        @SuppressWarnings("unchecked")
        List<String> names = ws.trustedQuery("SELECT DISTINCT function_name FROM duckdb_functions() WHERE function_type"
                + " = 'table' AND parameter_types[1] IN ('VARCHAR', 'VARCHAR[]')"
                + " AND regexp_matches(function_name, '^(read_|parquet_|sniff_|glob$)|_scan$') ORDER BY 1", 1000).rows().stream().map(r -> (String) r.get(0)).toList();
        assertThat(names).as("DuckDB's file-reading table functions").contains("read_csv", "read_parquet", "glob");
        for (String name : names) {
            QueryException e = catchThrowableOfType(QueryException.class,
                    () -> ws.query("SELECT * FROM " + name + "('/etc/hostname')"));
            assertThat(e).as(name + " ran").isNotNull();
            assertThat(e.getMessage()).as(name).containsAnyOf(OUTSIDE, DENIED);
        }
    }

    @Test
    void plain_queries_run() throws Exception {
        assertThat(ws.query("SELECT count(*) AS n FROM loan").scalar()).isEqualTo(countsBefore.get("loan"));
        assertThat(ws.query("WITH big AS (SELECT * FROM loan WHERE amount > 0) SELECT count(*) FROM big").scalar())
                .isEqualTo(countsBefore.get("loan"));
        assertThat(ws.query("FROM \"order\" SELECT count(*)").scalar()).isEqualTo(countsBefore.get("order"));
        assertThat(ws.query("SELECT 'a; DROP TABLE loan' AS s").scalar()).isEqualTo("a; DROP TABLE loan");
        assertThat(ws.query("SELECT 1 AS one -- ; DROP TABLE loan").scalar()).isEqualTo(1);
        assertThat(ws.query("SELECT 1 AS one /* ; DROP TABLE loan */").scalar()).isEqualTo(1);
        assertThat(ws.query("SELECT 1 AS one;").scalar()).isEqualTo(1);
    }

    @Test
    void saved_frames_can_be_queried() throws Exception {
        ws.saveFrame("guard_frame", "SELECT status, count(*) AS n FROM loan GROUP BY status");

        assertThat(ws.query("SELECT sum(n) FROM frames.guard_frame").scalar()).isEqualTo(countsBefore.get("loan"));
        assertThat(ws.query("SELECT sum(n) FROM guard_frame").scalar()).isEqualTo(countsBefore.get("loan"));
        assertThat(ws.query("SELECT count(*) FROM frames.guard_frame f JOIN loan l USING (status)").scalar())
                .isEqualTo(countsBefore.get("loan"));
    }

    @Test
    void refusals_are_repeatable_and_do_not_poison_the_session() throws Exception {
        for (int i = 0; i < 3; i++) {
            assertThat(catchThrowableOfType(QueryException.class, () -> ws.query("SELECT 1; DROP TABLE loan")).kind())
                    .isEqualTo(Kind.REFUSED);
            assertThat(ws.query("SELECT 42 AS x").scalar()).isEqualTo(42);
        }
    }

    @Test
    void describes_statements_for_the_message() {
        assertThat(SqlGuard.describeStatements("DROP TABLE loan")).isEqualTo("is a DROP statement");
        assertThat(SqlGuard.describeStatements("insert into loan values (1)")).isEqualTo("is an INSERT statement");
        assertThat(SqlGuard.describeStatements("USE memory")).isEqualTo("is a USE statement");
        assertThat(SqlGuard.describeStatements("SELECT 1; SELECT 2")).isEqualTo("has 2 statements");
        assertThat(SqlGuard.describeStatements("SELECT 1; DROP TABLE loan"))
                .isEqualTo("has 2 statements including a DROP statement");
        assertThat(SqlGuard.describeStatements("BEGIN; DROP TABLE loan; COMMIT"))
                .isEqualTo("has 3 statements including BEGIN, DROP and COMMIT statements");
        assertThat(SqlGuard.describeStatements("RESET threads; SET threads = 1"))
                .isEqualTo("has 2 statements including RESET and SET statements");
        assertThat(SqlGuard.describeStatements("WITH x AS (SELECT 1) DELETE FROM loan")).isEqualTo("is a DELETE statement");
        assertThat(SqlGuard.describeStatements("WITH \"delete\" AS (SELECT 1) SELECT * FROM \"delete\""))
                .isEqualTo("is not a plain query");
        assertThat(SqlGuard.describeStatements("SELECT 'a; DROP TABLE loan'")).isEqualTo("is not a plain query");
        assertThat(SqlGuard.describeStatements("/* DROP TABLE loan; */ SELECT 1 -- ; DELETE"))
                .isEqualTo("is not a plain query");
        assertThat(SqlGuard.describeStatements("SELECT '--'; DROP TABLE loan"))
                .isEqualTo("has 2 statements including a DROP statement");
        assertThat(SqlGuard.describeStatements("SELECT E'\\'; DROP'; UPDATE loan SET amount = 0"))
                .isEqualTo("has 2 statements including an UPDATE statement");
    }

    @Test
    void strips_the_terminator_for_wrapping() {
        assertThat(SqlGuard.withoutTerminator("SELECT 1")).isEqualTo("SELECT 1");
        assertThat(SqlGuard.withoutTerminator("SELECT 1;")).isEqualTo("SELECT 1");
        assertThat(SqlGuard.withoutTerminator("SELECT 1 ;; \n")).isEqualTo("SELECT 1");
        assertThat(SqlGuard.withoutTerminator("SELECT 1; -- done")).isEqualTo("SELECT 1");
        assertThat(SqlGuard.withoutTerminator("SELECT 1 /* ; */ -- x\n;")).isEqualTo("SELECT 1");
        assertThat(SqlGuard.withoutTerminator("SELECT ';'")).isEqualTo("SELECT ';'");
        assertThat(SqlGuard.withoutTerminator("SELECT 1 AS \"a;\" ;")).isEqualTo("SELECT 1 AS \"a;\"");
    }

    /** Runs the whole corpus itself, so it holds whichever tests ran before it and in whatever order. */
    @Test
    void after_the_whole_corpus_the_dataset_is_byte_identical() throws Exception {
        hostile().forEach(c -> assertThat(catchThrowableOfType(QueryException.class, () -> ws.query(c.sql())))
                .as(c.sql()).isNotNull());
        Dataset bank = TestDatasets.bank();
        assertThat(FileState.of(bank.file())).isEqualTo(before);
        assertThat(rowCounts(ws)).isEqualTo(countsBefore);
        for (String table : PkddSchema.TABLES) {
            assertThat(countsBefore.get(table)).as(table).isEqualTo(bank.rows(table));
        }
        assertThat(ws.trustedQuery("SELECT current_setting('threads')", 1).scalar()).isEqualTo(2L);
        assertThat(ws.trustedQuery("SELECT current_setting('enable_external_access')", 1).scalar()).isEqualTo(false);
        assertThat(ws.trustedQuery("SELECT count(*) FROM duckdb_logs", 1).scalar()).isEqualTo(0L);
    }
}
