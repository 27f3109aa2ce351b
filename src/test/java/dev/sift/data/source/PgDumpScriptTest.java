package dev.sift.data.source;

import org.junit.jupiter.api.Test;

import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Splitting a pg_dump script as psql does: quotes, dollar quotes, comments, meta-commands and COPY data. */
class PgDumpScriptTest {
    private static List<String> statements(String script) throws Exception {
        PgDumpScript s = new PgDumpScript(new StringReader(script));
        List<String> out = new ArrayList<>();
        PgDumpScript.Statement st;
        while ((st = s.next()) != null) {
            out.add(st.line() + ": " + st.sql());
            if (st.isCopyFromStdin()) {
                String l;
                while ((l = s.copyLine(st.line())) != null) {
                    out.add("data " + l);
                }
            }
        }
        return out;
    }

    @Test
    void semicolons_inside_quotes_dollar_bodies_and_comments_do_not_end_a_statement() throws Exception {
        assertThat(statements("""
                -- a comment; with a semicolon
                \\restrict abc
                SET x = 'a;b';
                CREATE FUNCTION f() RETURNS int AS $body$ SELECT 1; $body$ LANGUAGE sql;
                COMMENT ON TABLE t IS 'it''s; here' /* and; this */;
                SELECT E'\\\\'';' , "semi;colon"; INSERT INTO t VALUES ($$a;$$);
                """)).containsExactly(
                "3: SET x = 'a;b'",
                "4: CREATE FUNCTION f() RETURNS int AS $body$ SELECT 1; $body$ LANGUAGE sql",
                "5: COMMENT ON TABLE t IS 'it''s; here' ",
                "6: SELECT E'\\\\'';' , \"semi;colon\"",
                "6:  INSERT INTO t VALUES ($$a;$$)");
    }

    @Test
    void copy_data_runs_to_its_end_marker_and_keeps_a_lone_carriage_return() throws Exception {
        assertThat(statements("COPY t (a, b) FROM stdin;\n1\tx\\ty\n2\t\\N\n\\.\nINSERT INTO t VALUES ('a\rb\nc');\n"))
                .containsExactly("1: COPY t (a, b) FROM stdin", "data 1\tx\\ty", "data 2\t\\N", "5: INSERT INTO t VALUES ('a\rb\nc')");
    }

    @Test
    void a_statement_or_copy_cut_off_by_the_end_of_the_file_names_where_it_began() {
        assertThatThrownBy(() -> statements("SET a = 1;\nCREATE TABLE t (\n  a text DEFAULT 'x\n"))
                .hasMessage("line 2: the file ends inside this statement (no closing ;; a quoted string is not closed)");
        assertThatThrownBy(() -> statements("\n\nCOPY t (a) FROM stdin;\n1\n2\n"))
                .hasMessage("line 3: the data of this COPY has no end marker \\. (the file ends at line 5; a cut-off copy?)");
    }
}
