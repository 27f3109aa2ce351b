package dev.sift.data;

import dev.sift.TestDatasets;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The text macros every workspace has, through the guarded query path the planner's SQL takes. */
class TextMacrosTest {
    private static Workspace ws;

    @BeforeAll
    static void open() throws Exception {
        ws = Workspace.open(TestDatasets.bank(), Workspace.Limits.defaults());
    }

    @AfterAll
    static void close() {
        ws.close();
    }

    private static Object one(String sql) throws Exception {
        return ws.query(sql).scalar();
    }

    @Test
    void a_list_written_as_a_python_literal_or_json_explodes_to_rows() throws Exception {
        QueryResult r = ws.query("SELECT id, unnest(text_list(cats)) AS cat FROM (VALUES (1, '[''Fiction'', ''Sci-Fi'']'),"
                + " (2, '[\"History\", \"War, Peace\"]'), (3, '[]'), (4, '(1, 2.5, None)'), (5, NULL)) t(id, cats)"
                + " ORDER BY id, cat");
        assertThat(r.rows()).containsExactly(List.of(1, "Fiction"), List.of(1, "Sci-Fi"), List.of(2, "History"),
                List.of(2, "War, Peace"), List.of(4, "1"), List.of(4, "2.5"), List.of(4, "None"));
        assertThat(one("SELECT text_list('[''it''''s'', \"a\"]')")).asString().contains("a");
    }

    @Test
    void dates_written_in_words_parse_to_the_same_day() throws Exception {
        for (String text : List.of("the fifth of March, 2023", "March 5th 2023", "5 Mar 23", "2023-03-05", "Mar. 5, 2023",
                "5th of march 2023", "Sunday, March 5, 2023")) {
            assertThat(one("SELECT word_date('" + text.replace("'", "''") + "')")).as(text)
                    .isEqualTo("2023-03-05");
        }
        assertThat(one("SELECT word_date('the twenty-first of September 1999')")).isEqualTo("1999-09-21");
        assertThat(one("SELECT word_date('31 February 2023')")).isNull();
        assertThat(one("SELECT word_date('no date here')")).isNull();
        assertThat(one("SELECT count(word_date(s)) / count(s) FROM (VALUES ('May 1 2020'), ('soon'), ('1 Jun 21'),"
                + " ('later')) t(s)")).isEqualTo(0.5);
    }

    @Test
    void decorated_ids_compare_equal_once_bare() throws Exception {
        assertThat(one("SELECT bare_id(' #001Wt00000PFj4zIAD  ') = bare_id('001Wt00000PFj4zIAD')")).isEqualTo(true);
        assertThat(one("SELECT bare_id('#A-12')")).isEqualTo("A-12");
        assertThat(one("SELECT bare_id('A12') = bare_id('a12')")).isEqualTo(false);
        assertThat(one("SELECT bare_id(42)")).isEqualTo("42");
    }
}
