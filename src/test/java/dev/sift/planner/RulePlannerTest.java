package dev.sift.planner;

import dev.sift.Sift;
import dev.sift.TestDatasets;
import dev.sift.agent.AgentConfig;
import dev.sift.agent.AgentLoop;
import dev.sift.agent.AgentRun;
import dev.sift.agent.AnswerKind;
import dev.sift.data.Workspace;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The first offline planner: answers what it can map with certainty, asks otherwise. */
class RulePlannerTest {
    private Workspace ws;

    @BeforeEach
    void open() throws Exception {
        ws = Workspace.open(TestDatasets.bank(), Workspace.Limits.defaults());
    }

    @AfterEach
    void close() {
        ws.close();
    }

    private AgentRun ask(String q) throws Exception {
        return new AgentLoop(new RulePlanner(), Sift.defaultTools(), ws, null, AgentConfig.defaults()).run(q);
    }

    private long count(String sql) throws Exception {
        return ((Number) ws.query(sql).scalar()).longValue();
    }

    @Test
    void counts_a_table() throws Exception {
        AgentRun run = ask("How many loans are there?");
        assertThat(run.kind()).isEqualTo(AnswerKind.ANSWER);
        assertThat(run.status()).isEqualTo(AgentRun.Status.RULE_BASED);
        assertThat(run.evidence()).singleElement().satisfies(e -> {
            assertThat(e.sql()).isEqualTo("SELECT count(*) AS \"n_loan\" FROM \"loan\"");
            assertThat(e.rows()).containsExactly(List.of(TestDatasets.bank().rows("loan")));
        });
        assertThat(run.answer()).isEqualTo("There are " + TestDatasets.bank().rows("loan") + " rows in table loan.");
    }

    @Test
    void filters_on_values_that_occur_in_the_data_and_on_years() throws Exception {
        AgentRun gold = ask("How many cards are gold?");
        assertThat(gold.evidence().get(0).sql()).isEqualTo("SELECT count(*) AS \"n_card\" FROM \"card\" WHERE \"type\" = 'gold'");
        long golds = count("SELECT count(*) FROM card WHERE type = 'gold'");
        assertThat(gold.evidence().get(0).rows().get(0).get(0)).isEqualTo(golds);
        assertThat(gold.answer()).isEqualTo("There are " + golds + " rows in table card where type = 'gold'.");

        AgentRun weekly = ask("how many accounts have POPLATEK TYDNE frequency in 1996?");
        assertThat(weekly.evidence().get(0).sql()).isEqualTo("SELECT count(*) AS \"n_account\" FROM \"account\""
                + " WHERE \"frequency\" = 'POPLATEK TYDNE' AND year(\"date\") = 1996");
    }

    @Test
    void refuses_to_guess_a_word_it_cannot_map() throws Exception {
        AgentRun run = ask("How many loans are in default?");
        assertThat(run.kind()).isEqualTo(AnswerKind.CLARIFICATION);
        assertThat(run.status()).isEqualTo(AgentRun.Status.LLM_DISABLED);
        assertThat(run.evidence()).isEmpty();
        assertThat(run.steps()).isEmpty();
        assertThat(run.answer()).startsWith("I could not map 'default' to anything in this dataset offline, and I will not guess.");
    }

    @Test
    void asks_which_date_when_a_year_has_no_date_column() throws Exception {
        AgentRun run = ask("how many districts in 1995");
        assertThat(run.kind()).isEqualTo(AnswerKind.CLARIFICATION);
        assertThat(run.answer()).isEqualTo("Table district has no date column for the year 1995. Which date do you mean?");
    }

    @Test
    void asks_when_more_than_one_table_is_counted() throws Exception {
        AgentRun run = ask("how many loans and cards are there");
        assertThat(run.kind()).isEqualTo(AnswerKind.CLARIFICATION);
        assertThat(run.answer()).contains("Offline I count one table at a time; you mentioned card, loan.");
    }

    @Test
    void routes_schema_questions_to_inspect_data() throws Exception {
        AgentRun all = ask("What tables are there?");
        assertThat(all.steps()).singleElement().satisfies(s -> assertThat(s.tool()).isEqualTo("inspect_data"));
        assertThat(all.answer()).contains("table trans (").contains("table district (77 rows)");

        AgentRun one = ask("describe the loan table");
        assertThat(one.steps().get(0).args().get("table").asText()).isEqualTo("loan");
    }

    @Test
    void routes_value_questions_to_sample_values() throws Exception {
        AgentRun run = ask("What values does loan.status take?");
        assertThat(run.steps()).singleElement().satisfies(s -> {
            assertThat(s.tool()).isEqualTo("sample_values");
            assertThat(s.args().get("column").asText()).isEqualTo("status");
        });
        assertThat(run.answer()).startsWith("loan.status has 4 distinct non-null values");
    }

    @Test
    void asks_which_column_when_a_name_is_ambiguous() throws Exception {
        AgentRun run = ask("what are the distinct values of type");
        assertThat(run.kind()).isEqualTo(AnswerKind.CLARIFICATION);
        assertThat(run.answer()).startsWith("Which column do you mean: ").contains("card.type").contains("disp.type")
                .contains("trans.type");
    }

    @Test
    void anything_else_gets_a_clarification_that_says_what_works_offline() throws Exception {
        AgentRun run = ask("Which loans are likely to default, and why?");
        assertThat(run.kind()).isEqualTo(AnswerKind.CLARIFICATION);
        assertThat(run.answer()).contains("Without a language model I can answer:").contains("SIFT_LLM_PROVIDER");
    }
}
