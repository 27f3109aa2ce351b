package dev.sift.data;

import dev.sift.TestDatasets;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** The guard's parse on a shared parser, and where its binds run: the verdicts are the workspace's own parse's. */
class SqlParserTest {

    private static Connection readOnlyBank() throws Exception {
        Properties ro = new Properties();
        ro.setProperty("duckdb.read_only", "true");
        Connection c = DriverManager.getConnection("jdbc:duckdb:" + TestDatasets.bank().file(), ro);
        try (var st = c.createStatement()) {
            st.execute("SET max_expression_depth = " + Workspace.MAX_EXPRESSION_DEPTH); // as a workspace's connection
        }
        return c;
    }

    private static String chainJoin(int tables) {
        StringBuilder sql = new StringBuilder("SELECT count(*) FROM loan t0");
        for (int i = 1; i < tables; i++) {
            sql.append(" JOIN loan t").append(i).append(" ON t").append(i).append(".loan_id = t").append(i - 1)
                    .append(".loan_id");
        }
        return sql.toString();
    }

    private interface GuardUse {
        void accept(SqlGuard guard) throws Exception;
    }

    /** Runs {@code use} with a guard on a read-only bank connection that parses on {@code parser}. */
    private static void withGuard(Duration timeout, SqlParser parser, GuardUse use) throws Exception {
        try (Connection c = readOnlyBank()) {
            SqlGuard guard = new SqlGuard(c, timeout, parser);
            try {
                use.accept(guard);
            } finally {
                guard.close();
            }
        }
    }

    @Test
    void few_joins_bind_where_the_query_runs_and_many_on_the_guards_thread_within_the_time_limit() throws Exception {
        withGuard(Duration.ofMillis(1), new SqlParser(0), guard -> {
            guard.check(chainJoin(SqlGuard.INLINE_BIND_JOINS + 1)); // planning takes far longer than 1 ms
            assertThat(guard.takeBound(chainJoin(SqlGuard.INLINE_BIND_JOINS + 1))).isNotNull();
            assertThat(guard.threadBinds()).isZero();

            QueryException e = catchThrowableOfType(QueryException.class, () -> guard.check(chainJoin(33)));
            assertThat(e.kind()).isEqualTo(QueryException.Kind.TIMEOUT);
            assertThat(e.getMessage()).startsWith("Query planning was stopped after the time limit of 1 s");
        });
    }

    @Test
    void a_statement_joining_more_tables_or_nesting_deeper_binds_on_the_guards_thread() throws Exception {
        withGuard(Duration.ofSeconds(30), new SqlParser(0), guard -> {
            guard.check(chainJoin(SqlGuard.INLINE_BIND_JOINS + 2));
            assertThat(guard.threadBinds()).isEqualTo(1);
            guard.check("SELECT * FROM " + "(SELECT * FROM ".repeat(20) + "loan" + ") s".repeat(20));
            assertThat(guard.threadBinds()).isEqualTo(2);
            guard.check("WITH a AS (SELECT account_id, sum(amount) AS s FROM loan GROUP BY 1)"
                    + " SELECT * FROM a WHERE s > (SELECT avg(s) FROM a)");
            assertThat(guard.threadBinds()).as("a CTE and a subquery bind in place").isEqualTo(2);
        });
    }

    @Test
    void the_parser_opens_once_the_process_has_parsed_a_few_statements_and_outlives_its_connections()
            throws Exception {
        SqlParser parser = new SqlParser();
        for (int i = 0; i < SqlParser.OPEN_AFTER; i++) {
            assertThat(parser.connect()).as("parse %d: on the workspace's own connection", i).isNull();
        }
        java.sql.Connection first = parser.connect();
        java.sql.Connection second = parser.connect();
        assertThat(first).isNotNull();
        parser.release(first);
        assertThat(second.isClosed()).isFalse();
        parser.release(second);
        java.sql.Connection later = parser.connect();
        assertThat(later).as("the instance is still open").isNotNull();
        assertThat(later.createStatement().executeQuery("SELECT json_serialize_sql('SELECT 1')").next()).isTrue();
        parser.release(later);
    }

    @Test
    void a_parser_instance_that_cannot_open_leaves_the_parse_on_the_workspaces_connection() throws Exception {
        java.util.concurrent.atomic.AtomicInteger tries = new java.util.concurrent.atomic.AtomicInteger();
        SqlParser broken = new SqlParser(0, () -> {
            tries.incrementAndGet();
            throw new java.sql.SQLException("Out of Memory Error: could not allocate");
        });
        withGuard(Duration.ofSeconds(30), broken, guard -> {
            guard.check("SELECT count(*) FROM loan");
            guard.check("SELECT count(*) FROM account");
            assertThatThrownBy(() -> guard.check("SELECT 1; DROP TABLE loan")).isInstanceOf(QueryException.class)
                    .hasMessageContaining("has 2 statements including a DROP statement.");
        });
        assertThat(tries).as("tried once, not on every parse").hasValue(1);
    }

    @Test
    void one_read_of_the_parse_counts_nesting_outside_strings_functions_joins_and_path_like_tables() throws Exception {
        assertThat(SerializedSql.read("{\"a\":[{\"b\":\"[{\\\"\"}]}").depth()).isEqualTo(3);
        assertThat(SerializedSql.read("{}").depth()).isEqualTo(1);
        SerializedSql parsed = SerializedSql.read("{\"error\":false,\"statements\":[{\"node\":{\"from_table\":{\"type\":"
                + "\"JOIN\",\"left\":{\"type\":\"BASE_TABLE\",\"table_name\":\"loan\"},\"right\":{\"type\":\"JOIN\","
                + "\"left\":{\"type\":\"BASE_TABLE\",\"table_name\":\"a\\\"b\"},\"right\":{\"type\":\"BASE_TABLE\","
                + "\"table_name\":\"x\"}}},\"select_list\":[{\"function_name\":\"sum\",\"children\":[{\"function_name\":"
                + "\"read_csv\",\"alias\":\"function_name\"}]}]}}]}");
        assertThat(parsed.error()).isFalse();
        assertThat(parsed.statements()).isEqualTo(1);
        assertThat(parsed.joins()).isEqualTo(2);
        assertThat(parsed.functions()).containsExactly("sum", "read_csv");
        assertThat(parsed.pathTable()).as("a quote in a table name, as the text pattern caught it").isTrue();
        assertThat(SerializedSql.pathLike("loan")).isFalse();
        assertThat(SerializedSql.pathLike("données")).isFalse();
        assertThat(SerializedSql.pathLike("x.csv")).isTrue();
        assertThat(SerializedSql.pathLike("dir/x")).isTrue();
        SerializedSql failed = SerializedSql.read("{\"error\":true,\"error_type\":\"parser\",\"error_message\":\"syntax\"}");
        assertThat(failed.error()).isTrue();
        assertThat(failed.errorType()).isEqualTo("parser");
        assertThat(failed.statements()).isZero();
    }

    @Test
    void the_shared_parser_keeps_the_workspaces_depth_limit_for_guard_after_guard() throws Exception {
        SqlParser parser = new SqlParser(0);
        String deep = "SELECT * FROM (" + "SELECT * FROM (".repeat(400) + "SELECT 1 AS x" + ") s".repeat(400) + ") t";
        for (int round = 0; round < 2; round++) { // the second guard uses the instance the first one opened
            withGuard(Duration.ofSeconds(30), parser, guard -> {
                assertThatThrownBy(() -> guard.check(deep)).isInstanceOf(QueryException.class)
                        .hasMessage(SqlGuard.TOO_DEEP);
                assertThatThrownBy(() -> guard.check("SELECT 1; DROP TABLE loan")).isInstanceOf(QueryException.class)
                        .hasMessageContaining("has 2 statements including a DROP statement.");
                guard.check("SELECT count(*) FROM loan");
            });
        }
    }
}
