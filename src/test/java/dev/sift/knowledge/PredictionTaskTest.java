package dev.sift.knowledge;

import dev.sift.TestDatasets;
import dev.sift.data.Workspace;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The curated predictions section: parsed, bound against the live schema at load, and exposed by the graph. */
class PredictionTaskTest {
    private static Workspace ws;
    private static KnowledgeGraph auto;

    @BeforeAll
    static void open() throws Exception {
        ws = Workspace.open(TestDatasets.bank(), Workspace.Limits.defaults());
        auto = KgBuilder.build(ws);
    }

    @AfterAll
    static void close() {
        ws.close();
    }

    @Test
    void bank_names_loan_default_and_its_sets_run() throws Exception {
        KnowledgeGraph kg = Knowledge.load(ws).graph();
        assertThat(kg.predictions()).extracting(PredictionTask::name).containsExactly("loan_default");
        PredictionTask t = kg.prediction("Which running loans are likely to default?").orElseThrow();
        assertThat(t.entity()).isEqualTo("loan.loan_id");
        assertThat(t.label()).isEqualTo("defaulted");
        assertThat(kg.prediction("How many loans are there?")).isEmpty();
        // History = finished loans with defaulted = status B; current = running loans; one row per loan.
        assertThat(ws.query("SELECT count(*), sum(defaulted) FROM (" + t.historySql() + ")").rows().get(0)).containsExactly(
                ws.query("SELECT count(*) FROM loan WHERE status IN ('A', 'B')").scalar(),
                ws.query("SELECT CAST(count(*) AS HUGEINT) FROM loan WHERE status = 'B'").scalar());
        assertThat(ws.query("SELECT count(*) FROM (" + t.currentSql() + ")").scalar())
                .isEqualTo(ws.query("SELECT count(*) FROM loan WHERE status IN ('C', 'D')").scalar());
        assertThat(ws.query(t.currentSql()).columnNames()).contains("loan_id", "amount", "balance_before",
                "min_balance_6m", "inflow_6m", "outflow_6m", "avg_salary").doesNotContain("defaulted", "status");
    }

    /** The quoted values an expression tests ('B', 'D'), sorted. */
    private static java.util.List<String> literals(String expression) {
        java.util.TreeSet<String> out = new java.util.TreeSet<>();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("'([^']*)'").matcher(expression);
        while (m.find()) {
            out.add(m.group(1));
        }
        return java.util.List.copyOf(out);
    }

    @Test
    void a_task_and_the_curated_entries_sharing_its_words_agree_on_its_label_or_each_names_the_other() throws Exception {
        KnowledgeGraph kg = Knowledge.load(ws).graph();
        int differing = 0;
        for (PredictionTask t : kg.predictions()) {
            java.util.Set<String> words = new java.util.HashSet<>(t.triggers().stream().map(Phrases::key).toList());
            java.util.List<KgEntry> related = new java.util.ArrayList<>();
            kg.concepts().stream().filter(c -> c.expression() != null && c.synonyms().stream().map(Phrases::key)
                    .anyMatch(words::contains)).forEach(related::add);
            kg.metrics().stream().filter(m -> m.synonyms().stream().map(Phrases::key).anyMatch(
                    w -> words.stream().anyMatch(w::contains))).forEach(related::add);
            for (KgEntry e : related) {
                String expression = e instanceof KgEntry.Concept c ? c.expression() : ((KgEntry.Metric) e).expression();
                String description = e instanceof KgEntry.Concept c ? c.description() : ((KgEntry.Metric) e).description();
                String name = e.id().substring(e.id().indexOf(':') + 1);
                if (!literals(expression).equals(literals(t.labelExpression()))) {
                    differing++;
                    assertThat(t.description()).as("task " + t.name() + " against " + e.id()).contains(name);
                    assertThat(description).as(e.id() + " against task " + t.name()).contains(t.name());
                }
            }
        }
        assertThat(differing).as("default_rate and defaulted_loan count B or D, loan_default labels B").isEqualTo(2);
        assertThat(kg.predictions().get(0).description()).contains("a running loan in debt (D) is not a default here");
    }

    @Test
    void a_broken_predictions_entry_is_a_load_error_naming_file_and_entry() {
        CuratedKg bad = KgLoader.parse("""
                predictions:
                  - name: bad_features
                    triggers: [default]
                    entity: loan.loan_id
                    label: {name: defaulted, expression: "CASE WHEN loan.status = 'B' THEN 1 ELSE 0 END"}
                    history: {filter: "loan.status IN ('A', 'B')", description: finished loans}
                    current: {filter: "loan.status IN ('C', 'D')", description: running loans, phrases: [running]}
                    features: SELECT loan.loan_id, loan.amout FROM loan
                  - name: no_entity_column
                    triggers: [default]
                    entity: loan.loan_id
                    label: {name: defaulted, expression: "loan.status = 'B'"}
                    history: {filter: "loan.status IN ('A', 'B')"}
                    current: {filter: "loan.statuz = 'C'", phrases: [running]}
                    features: SELECT loan.amount, loan.duration FROM loan
                  - name: bad_filter
                    triggers: [default]
                    entity: loan.loan_id
                    label: {name: defaulted, expression: "loan.status = 'B'"}
                    history: {filter: "loan.status IN ('A', 'B')"}
                    current: {filter: "loan.statuz = 'C'", phrases: [running]}
                    features: SELECT loan.loan_id, loan.amount FROM loan
                """, "kg/test.kg.yaml");
        assertThatThrownBy(() -> KgLoader.overlay(auto, bad, ws)).isInstanceOf(KgException.class)
                .satisfies(e -> assertThat(((KgException) e).problems()).satisfiesExactly(
                        p -> assertThat(p).startsWith("kg/test.kg.yaml: predictions[bad_features]: features SQL does not"
                                + " run: ").contains("amout"),
                        p -> assertThat(p).isEqualTo("kg/test.kg.yaml: predictions[no_entity_column]: features SQL must"
                                + " return the entity column loan_id; it returns amount, duration"),
                        p -> assertThat(p).startsWith("kg/test.kg.yaml: predictions[bad_filter]: current set (label and"
                                + " filter over loan) does not run: ").contains("statuz")));
    }

    @Test
    void a_predictions_entry_missing_parts_is_a_structural_error() {
        assertThatThrownBy(() -> KgLoader.parse("""
                predictions:
                  - name: half
                    entity: loan_id
                    features: SELECT 1
                """, "kg/c.kg.yaml")).isInstanceOf(KgException.class).hasMessage(
                "kg/c.kg.yaml: predictions[half]: needs label {name, expression}, history {filter, description},"
                        + " current {filter, description}, triggers, current.phrases");
    }
}
