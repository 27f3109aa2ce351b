package dev.sift.agent;

import dev.sift.OnBankWorkspace;
import dev.sift.Sift;
import dev.sift.TestDatasets;
import dev.sift.llm.ScriptedLlm;
import dev.sift.planner.LlmPlanner;
import dev.sift.text.Evidence;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A run's evidence carries the rows asked for ({@code ask --max-rows}), and says when rows were left out. */
class EvidenceRowsTest extends OnBankWorkspace {
    private static final String ACCOUNTS = "SELECT account_id, district_id FROM account ORDER BY account_id";
    private Evidence evidence(AgentConfig config, String label) throws Exception {
        String args = "{\"sql\":\"" + ACCOUNTS + "\"" + (label == null ? "" : ",\"label\":\"" + label + "\"") + "}";
        ScriptedLlm llm = new ScriptedLlm("{\"thought\":\"list\",\"tool\":\"run_sql\",\"args\":" + args + "}",
                "{\"thought\":\"done\",\"final_answer\":\"The accounts are listed in the evidence.\"}");
        AgentRun run = new AgentLoop(new LlmPlanner(llm), Sift.defaultTools(), ws, llm, config).run("List the accounts");
        assertThat(run.evidence()).hasSize(1);
        return run.evidence().get(0);
    }

    private List<List<Object>> all() throws Exception {
        return ws.trustedQuery(ACCOUNTS, 10_000).rows();
    }

    @Test
    void by_default_evidence_holds_fifty_rows_and_says_it_was_cut() throws Exception {
        long accounts = TestDatasets.bank().rows("account");
        Evidence e = evidence(AgentConfig.defaults(), null);
        assertThat(e.rows()).hasSize(Evidence.MAX_ROWS).isEqualTo(all().subList(0, Evidence.MAX_ROWS));
        assertThat(e.rowCount()).isEqualTo(accounts);
        assertThat(e.truncated()).isTrue();
    }

    @Test
    void zero_max_rows_gives_every_row_of_the_result_and_nothing_is_cut() throws Exception {
        Evidence e = evidence(AgentConfig.defaults().withEvidenceRows(0), null);
        assertThat(e.rows()).hasSize((int) TestDatasets.bank().rows("account")).isEqualTo(all());
        assertThat(e.truncated()).isFalse();
    }

    @Test
    void more_rows_are_read_from_the_saved_frame_and_fewer_are_cut() throws Exception {
        Evidence wide = evidence(AgentConfig.defaults().withEvidenceRows(120), "accounts");
        assertThat(wide.frame()).isEqualTo("accounts");
        assertThat(wide.rows()).hasSize(120).isEqualTo(all().subList(0, 120));
        assertThat(wide.truncated()).isTrue();

        Evidence narrow = evidence(AgentConfig.defaults().withEvidenceRows(3), null);
        assertThat(narrow.rows()).isEqualTo(all().subList(0, 3));
        assertThat(narrow.truncated()).isTrue();
    }

    @Test
    void a_negative_row_count_is_refused() {
        assertThatThrownBy(() -> AgentConfig.defaults().withEvidenceRows(-1))
                .hasMessage("max rows must be 0 (all rows) or more, got -1");
    }
}
