package dev.sift.bench.dab;

import dev.sift.Sift;
import dev.sift.agent.AgentConfig;
import dev.sift.data.Dataset;
import dev.sift.data.Progress;
import dev.sift.data.Workspace;
import dev.sift.data.source.DatasetSources;
import dev.sift.data.source.PgDumpTool;
import dev.sift.data.source.TestPostgres;
import dev.sift.llm.LlmMessage;
import dev.sift.llm.LlmRequest;
import dev.sift.llm.ScriptedLlm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A DataAgentBench dataset in the benchmark's layout with three databases, as most of its datasets are: a
 * PostgreSQL {@code sql_file} written by a real pg_dump, a SQLite file and a DuckDB file. The runner folds them
 * into one dataset, a scripted model joins across all three, and the task's own validator scores the answer.
 */
class DabThreeEnginesTest {
    static final String SQL = "SELECT round(avg(r.rating), 3) AS avg_rating FROM books_database.books b"
            + " JOIN review_database.review r ON r.book_id = b.id JOIN user_database.reader u ON u.id = r.reader_id"
            + " WHERE b.published >= DATE '2020-01-01' AND u.country = 'CZ'";

    @TempDir
    Path tmp;

    @Test
    void a_postgres_dump_a_sqlite_and_a_duckdb_database_fold_into_one_dataset_and_a_task_passes() throws Exception {
        assumeTrue(PgDumpTool.available(), PgDumpTool.MISSING);
        assumeTrue(new DabValidator("python3", Duration.ofSeconds(5)).unavailable() == null,
                "python3 is not installed: DataAgentBench validators need it; skipping");
        Path ds = Files.createDirectories(tmp.resolve("bench/library/query_dataset")).getParent();
        writeDatabases(ds.resolve("query_dataset"));
        Files.writeString(ds.resolve("db_config.yaml"), "db_clients:\n"
                + "  books_database:\n    db_type: postgres\n    db_name: books_db\n    sql_file: query_dataset/books.sql\n"
                + "  review_database:\n    db_type: sqlite\n    db_path: query_dataset/review.db\n"
                + "  user_database:\n    db_type: duckdb\n    db_path: query_dataset/user.duckdb\n");
        Files.writeString(ds.resolve("db_description.txt"), "Books (PostgreSQL), their reviews (SQLite), readers (DuckDB).\n");
        Path q = Files.createDirectories(ds.resolve("query1"));
        Files.writeString(q.resolve("query.json"), "\"What is the average rating Czech readers give books published since 2020?\"");
        Files.writeString(q.resolve("validate.py"), "def validate(llm_output: str):\n"
                + "    return ('4.333' in llm_output, 'looked for 4.333')\n");

        Path home = tmp.resolve("home");
        ScriptedLlm llm = new ScriptedLlm((Function<LlmRequest, String>) r -> r.messages().stream()
                .map(LlmMessage::content).anyMatch(c -> c.contains("avg_rating"))
                ? "{\"thought\":\"done\",\"final_answer\":\"Czech readers rate books published since 2020 4.333 on average.\"}"
                : "{\"thought\":\"join the three databases\",\"tool\":\"run_sql\",\"args\":{\"sql\":\"" + SQL + "\"}}");
        Sift sift = new Sift(home, llm, Workspace.Limits.defaults());
        DabRunner.Datasets fold = (d, p) -> sift.store().ensure("dab_" + d.name(),
                DatasetSources.of(List.of(d.dbConfig().toAbsolutePath().toString()), d.dir().toAbsolutePath(), Map.of()), p);
        DabRunner runner = new DabRunner(m -> new Sift(home, m, Workspace.Limits.defaults()), llm, fold,
                new DabValidator("python3", Duration.ofSeconds(20)), new DabRunner.Options(1, false, AgentConfig.defaults()));
        DabDataset library = DabDataset.read(tmp.resolve("bench"), "library");
        List<DabResult> results = runner.run(library, library.tasks(), tmp.resolve("out"),
                new PrintWriter(new StringWriter()), Progress.NONE);

        assertThat(results).singleElement().satisfies(r -> {
            assertThat(r.passed()).as(r.reason() + " / " + r.error()).isTrue();
            assertThat(r.reason()).isEqualTo("looked for 4.333");
        });
        Dataset folded = sift.store().get("dab_library");
        assertThat(folded.tables()).extracting(Dataset.TableSummary::name, Dataset.TableSummary::rows).containsExactly(
                org.assertj.core.api.Assertions.tuple("books_database.books", 3L),
                org.assertj.core.api.Assertions.tuple("review_database.review", 5L),
                org.assertj.core.api.Assertions.tuple("user_database.reader", 2L));
        assertThat(DabDataset.dbTypes(library.dbConfig())).containsExactly("duckdb", "postgres", "sqlite");
    }

    /** books.sql by pg_dump from a real server, review.db by SQLite, user.duckdb by DuckDB. */
    private static void writeDatabases(Path dir) throws Exception {
        try (TestPostgres pg = TestPostgres.start()) {
            pg.exec("postgres", "CREATE DATABASE books_db");
            pg.exec("books_db", "CREATE TABLE books (id serial PRIMARY KEY, title text, published date, price numeric(8,2))",
                    "INSERT INTO books (title, published, price) VALUES ('Old', '2015-05-01', 9.50),"
                            + " ('New', '2021-03-02', 20.00), ('Newer', '2023-07-08', 15.25)");
            PgDumpTool.dump(pg, "books_db", dir.resolve("books.sql"));
        }
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("review.db"));
             Statement st = c.createStatement()) {
            st.execute("CREATE TABLE review (book_id INTEGER, reader_id INTEGER, rating INTEGER)");
            st.execute("INSERT INTO review VALUES (1, 1, 1), (2, 1, 5), (3, 1, 4), (2, 2, 2), (3, 1, 4)");
        }
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + dir.resolve("user.duckdb"));
             Statement st = c.createStatement()) {
            st.execute("CREATE TABLE reader AS SELECT * FROM (VALUES (1, 'CZ'), (2, 'DE')) t(id, country)");
        }
    }
}
