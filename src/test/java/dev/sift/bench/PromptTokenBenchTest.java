package dev.sift.bench;

import dev.sift.bench.suite.Suite;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sift.Sift;
import dev.sift.TestDatasets;
import dev.sift.data.Workspace;
import dev.sift.knowledge.Knowledge;
import dev.sift.llm.LlmMessage;
import dev.sift.llm.LlmRequest;
import dev.sift.llm.ToolDefinition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class PromptTokenBenchTest {

    @Test
    void percentiles_are_nearest_rank() {
        List<Integer> sorted = List.of(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20);
        assertThat(PromptTokenBench.percentile(sorted, 50)).isEqualTo(10);
        assertThat(PromptTokenBench.percentile(sorted, 95)).isEqualTo(19);
        assertThat(PromptTokenBench.percentile(List.of(7), 95)).isEqualTo(7);
        assertThat(PromptTokenBench.percentile(List.of(), 50)).isZero();
    }

    @Test
    void a_request_counts_its_messages_and_the_tool_definitions_sent_with_it() throws Exception {
        PromptTokenBench bench = new PromptTokenBench();
        LlmRequest plain = LlmRequest.of(LlmMessage.system("You are Sift."), LlmMessage.user("Question: How many loans?"));
        int text = bench.tokens(plain);
        assertThat(text).isBetween(8, 20);
        LlmRequest withTools = plain.withTools(List.of(new ToolDefinition("run_sql", "Run one read-only SQL query",
                new ObjectMapper().readTree("{\"type\":\"object\",\"properties\":{\"sql\":{\"type\":\"string\"}}}"))));
        assertThat(bench.tokens(withTools)).isGreaterThan(text + 10);
    }

    @Test
    void a_whole_run_counts_every_request_the_gold_sql_step_and_the_answer(@TempDir Path home) throws Exception {
        Suite.Item withGold = new Suite.Item("a", Suite.Tier.ANALYTIC, "How many loans are there?",
                "SELECT count(*) FROM loan", null, Suite.Scoring.ROW_SET, 0, null);
        Suite.Item withoutGold = new Suite.Item("b", Suite.Tier.CLARIFY, "Show me the best accounts.", null,
                Suite.Expect.CLARIFY, Suite.Scoring.ROW_SET, 0, null);
        Suite suite = new Suite("s", "bank", null, null, Path.of("s.yaml"), Map.of(), List.of(withGold, withoutGold));
        PromptTokenBench.Result r = new PromptTokenBench().run(suite, TestDatasets.bank(),
                llm -> new Sift(home, llm, Workspace.Limits.defaults()), true);
        assertThat(r.questions()).isEqualTo(2);
        assertThat(r.requests()).isEqualTo(1.5); // two requests for the gold SQL item, one for the other
        assertThat(r.run().max()).isGreaterThan(2 * r.first().median() - 200);
        assertThat(r.recall().questions()).isEqualTo(1);
        assertThat(r.recall().tables()).isEqualTo(1);
        assertThat(r.recall().tablesShown()).isEqualTo(1);
    }

    @Test
    void recall_names_what_the_gold_sql_needs_and_the_prompt_left_out() throws Exception {
        try (Workspace ws = Workspace.open(TestDatasets.bank(), Workspace.Limits.defaults())) {
            Knowledge k = Knowledge.load(ws);
            String gold = "SELECT avg(CASE WHEN loan.status IN ('B', 'D') THEN 1.0 ELSE 0.0 END) FROM loan"
                    + " JOIN account a ON a.account_id = loan.account_id WHERE a.frequency = 'POPLATEK TYDNE'"
                    + " AND loan.date >= '1996-01-01'";
            PromptRecall r = PromptRecall.of(gold, "table loan (682 rows): status VARCHAR e.g. 'B' | codes 'B', 'D'", k);
            assertThat(r.tables()).isEqualTo(2);
            assertThat(r.tablesShown()).isEqualTo(1);
            assertThat(r.values()).isEqualTo(3); // 'B', 'D', 'POPLATEK TYDNE'; the date is not a value
            assertThat(r.valuesShown()).isEqualTo(2);
            assertThat(r.metrics()).isEqualTo(1);
            assertThat(r.metricsShown()).isZero();
            assertThat(r.missed()).containsExactly("table account", "value POPLATEK TYDNE",
                    "metric avg(CASE WHEN loan.status IN ('B', 'D') THEN 1.0 ELSE 0.0 END)");
        }
    }
}
