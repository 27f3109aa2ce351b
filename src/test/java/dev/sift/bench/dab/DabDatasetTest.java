package dev.sift.bench.dab;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DabDatasetTest {
    static final Path YELP = Path.of("../shared/data/dab");

    static void task(Path ds, String query, String questionJson) throws Exception {
        Path q = Files.createDirectories(ds.resolve(query));
        Files.writeString(q.resolve("query.json"), questionJson);
        Files.writeString(q.resolve("validate.py"), "def validate(llm_output):\n    return (True, 'ok')\n");
    }

    static Path layout(Path root) throws Exception {
        Path ds = Files.createDirectories(root.resolve("shop"));
        Files.writeString(ds.resolve("db_config.yaml"), "db_clients: {}\n");
        Files.writeString(ds.resolve("db_description.txt"), "One table, products.\n");
        Files.writeString(ds.resolve("db_description_withhint.txt"), "HINTS:\n- price is in euros.\n");
        task(ds, "query10", "{\"query\": \"Tenth?\"}");
        task(ds, "query2", "\"Second?\"");
        return root;
    }

    @Test
    void reads_tasks_in_numeric_order_from_either_question_form(@TempDir Path root) throws Exception {
        DabDataset d = DabDataset.read(layout(root), "shop");
        assertThat(d.tasks()).extracting(DabTask::query).containsExactly("query2", "query10");
        assertThat(d.tasks()).extracting(DabTask::question).containsExactly("Second?", "Tenth?");
        assertThat(d.tasks().get(0).id()).isEqualTo("shop_query2");
        assertThat(DabDataset.names(root)).containsExactly("shop");
    }

    @Test
    void composes_the_question_after_the_description_and_with_hints_appends_them(@TempDir Path root) throws Exception {
        DabDataset d = DabDataset.read(layout(root), "shop");
        assertThat(d.compose(d.tasks().get(0), false)).isEqualTo("One table, products.\n\nQuestion: Second?");
        assertThat(d.compose(d.tasks().get(0), true))
                .isEqualTo("One table, products.\n\nHINTS:\n- price is in euros.\n\nQuestion: Second?");
        Files.writeString(root.resolve("shop/db_description_withhint.txt"), "One table, products.\nHint: euros.\n");
        DabDataset whole = DabDataset.read(root, "shop");
        assertThat(whole.compose(whole.tasks().get(0), true)).as("a hint file that repeats the description")
                .isEqualTo("One table, products.\nHint: euros.\n\nQuestion: Second?");
    }

    @Test
    void reads_the_db_types_a_config_names(@TempDir Path root) throws Exception {
        Path config = Files.writeString(root.resolve("db_config.yaml"), "db_clients:\n  a: {db_type: postgresql, sql_file: a.sql}\n"
                + "  b:\n    db_type: sqlite   # a comment\n    db_path: b.db\n  c: {db_type: mongodb, dump_folder: c}\n"
                + "  d: {db_type: duckdb, db_path: d.duckdb}\n");
        assertThat(DabDataset.dbTypes(config)).containsExactly("duckdb", "mongo", "postgres", "sqlite");
    }

    @Test
    void refuses_a_layout_naming_what_is_missing(@TempDir Path root) throws Exception {
        layout(root);
        assertThatThrownBy(() -> DabDataset.read(root, "nope")).hasMessage("Dataset 'nope' has no "
                + root.resolve("nope/db_config.yaml") + "; datasets under " + root + ": shop.");
        Files.delete(root.resolve("shop/query2/validate.py"));
        assertThatThrownBy(() -> DabDataset.read(root, "shop")).hasMessage("Task shop/query2 has no validate.py.");
        Files.writeString(root.resolve("shop/query2/validate.py"), "");
        Files.writeString(root.resolve("shop/query2/query.json"), "{\"other\": 1}");
        assertThatThrownBy(() -> DabDataset.read(root, "shop")).hasMessage(root.resolve("shop/query2/query.json")
                + " holds no question: expected a JSON string or an object with \"query\".");
        assertThatThrownBy(() -> DabDataset.names(root.resolve("absent"))).hasMessageStartingWith("DataAgentBench root "
                + root.resolve("absent") + " is not a folder");
    }

    @Test
    void reads_the_real_yelp_layout() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isDirectory(YELP.resolve("yelp")),
                "../shared/data/dab/yelp not found: the DataAgentBench sample is not in this checkout; skipping");
        DabDataset d = DabDataset.read(YELP, "yelp");
        assertThat(d.tasks()).hasSize(7);
        assertThat(d.tasks().get(0).question())
                .isEqualTo("What is the average rating of all businesses located in Indianapolis, Indiana?");
        assertThat(d.hintDescription()).isNotBlank();
    }
}
