package dev.sift.knowledge;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Entries added to a user's knowledge file keep the user's text, and the file always reads back. */
class KgFileEditorTest {
    @TempDir
    Path dir;

    @Test
    void an_example_is_added_at_the_end_of_its_section_keeping_comments_and_other_sections() throws Exception {
        Path f = dir.resolve("shop.kg.yaml");
        Files.writeString(f, """
                # my notes
                examples:   # saved answers
                  - question: "How many orders?"
                    sql: "SELECT count(*) FROM orders"
                  # a comment the user keeps
                metrics: []
                """);
        KgFileEditor.addExample(f, "shop", "Total \"quantity\"?", "SELECT sum(quantity)\nFROM orders");
        assertThat(Files.readString(f)).isEqualTo("""
                # my notes
                examples:   # saved answers
                  - question: "How many orders?"
                    sql: "SELECT count(*) FROM orders"
                  - question: "Total \\"quantity\\"?"
                    sql: "SELECT sum(quantity)\\nFROM orders"
                  # a comment the user keeps
                metrics: []
                """);
        List<VerifiedExample> read = KgLoader.read(f).examples();
        assertThat(read).extracting(VerifiedExample::question).containsExactly("How many orders?", "Total \"quantity\"?");
        assertThat(read.get(1).sql()).isEqualTo("SELECT sum(quantity)\nFROM orders");
    }

    @Test
    void a_missing_file_or_section_is_created_and_items_follow_the_indentation_already_there() throws Exception {
        Path f = dir.resolve("new.kg.yaml");
        KgFileEditor.addExample(f, "shop", "q1", "SELECT 1");
        assertThat(Files.readString(f)).endsWith("\nexamples:\n  - question: \"q1\"\n    sql: \"SELECT 1\"\n");
        Files.writeString(f, "concepts:\n- {name: a, table: orders}\nexamples: []\n");
        Map<String, Object> concept = new LinkedHashMap<>();
        concept.put("name", "sales");
        concept.put("table", "orders");
        concept.put("synonyms", List.of("sales"));
        KgFileEditor.append(f, "shop", "concepts", concept);
        KgFileEditor.addExample(f, "shop", "q2", "SELECT 2");
        assertThat(Files.readString(f)).isEqualTo("concepts:\n- {name: a, table: orders}\n- name: \"sales\"\n  table: \"orders\"\n"
                + "  synonyms: [\"sales\"]\nexamples:\n  - question: \"q2\"\n    sql: \"SELECT 2\"\n");
        assertThat(KgLoader.read(f).entries()).extracting(KgEntry::id).containsExactly("concept:a", "concept:sales");
    }

    @Test
    void an_inline_section_with_items_is_left_alone_and_said_so() throws Exception {
        Path f = dir.resolve("inline.kg.yaml");
        String text = "examples: [{question: q, sql: SELECT 1}]\n";
        Files.writeString(f, text);
        assertThatThrownBy(() -> KgFileEditor.addExample(f, "shop", "q2", "SELECT 2")).isInstanceOf(KgException.class)
                .hasMessage("section 'examples' is written inline (examples: [{question: q, sql: SELECT 1}]); write it as"
                        + " a block list (one '- ' item per entry) to add to it");
        assertThat(Files.readString(f)).isEqualTo(text);
    }

    @Test
    void a_problem_is_located_at_the_line_of_the_entry_it_names() {
        String text = "tables:\n  orders:\n    columns:\n      qty: {}\nmetrics:\n  # - name: margin\n  - name: margin\n"
                + "examples:\n  - question: a\n    sql: b\n  - question: c\n    sql: d\ntypes:\n  orders.day: date\n";
        assertThat(KgLines.locate(text, "tables.orders.columns.qty: column orders.qty does not exist")).isEqualTo(4);
        assertThat(KgLines.locate(text, "metrics[margin]: expression does not run")).isEqualTo(7);
        assertThat(KgLines.locate(text, "examples[2] (\"c\"): sql does not run")).isEqualTo(11);
        assertThat(KgLines.locate(text, "types[orders.day]: unknown kind")).isEqualTo(14);
        assertThat(KgLines.locate(text, "concepts[x]: nothing")).isZero();
    }
}
