package dev.sift.tool.ml;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sift.Sift;
import dev.sift.TestDatasets;
import dev.sift.data.Workspace;
import dev.sift.knowledge.KnowledgeStore;
import dev.sift.ml.ModelRegistry;
import dev.sift.tool.ToolContext;
import dev.sift.tool.ToolRegistry;
import dev.sift.tool.ToolResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** prediction_frames on the bank's curated task loan_default: the frames, the filter, and the planner's mistakes. */
class PredictionFramesTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final KnowledgeStore KNOWLEDGE = new KnowledgeStore();
    private final ToolRegistry tools = Sift.defaultTools();
    private Workspace ws;
    private ToolContext ctx;

    @BeforeEach
    void open() throws Exception {
        ws = Workspace.open(TestDatasets.bank(), Workspace.Limits.defaults());
        ctx = new ToolContext(ws, null, "q", new ModelRegistry(), KNOWLEDGE.lazy(ws));
    }

    @AfterEach
    void close() {
        ws.close();
    }

    private ToolResult call(String args) throws Exception {
        return tools.run(tools.prepare("prediction_frames", JSON.readTree(args), ws), ctx);
    }

    private long scalar(String sql) throws Exception {
        return ((Number) ws.query(sql).scalar()).longValue();
    }

    @Test
    void builds_the_labelled_history_and_the_rows_to_score_with_the_curated_features() throws Exception {
        ToolResult r = call("{\"task\":\"loan_default\"}");
        assertThat(r.ok()).as(r.summary()).isTrue();
        long finished = scalar("SELECT count(*) FROM loan WHERE status IN ('A', 'B')");
        long bad = scalar("SELECT count(*) FROM loan WHERE status = 'B'");
        long running = scalar("SELECT count(*) FROM loan WHERE status IN ('C', 'D')");
        assertThat(scalar("SELECT count(*) FROM frames.loan_default_history")).isEqualTo(finished);
        assertThat(scalar("SELECT sum(defaulted) FROM frames.loan_default_history")).isEqualTo(bad);
        assertThat(scalar("SELECT count(*) FROM frames.loan_default_current")).isEqualTo(running);
        assertThat(r.summary()).startsWith("Built prediction task loan_default (probability that a running loan ends"
                + " unpaid (status B), learnt from finished loans; unlike the default_rate metric and the defaulted_loan"
                + " concept (status B or D), a running loan in debt (D) is not a default here, since it has not ended)"
                + " from the knowledge graph's curated features over"
                + " approved joins.\nSaved as frame frames.loan_default_history: " + finished + " rows of finished loans"
                + " (A paid, B not paid; defaulted = status B), " + bad + " with defaulted = 1 (the rows to learn from)."
                + "\nSaved as frame frames.loan_default_current: " + running + " rows of running loans (C OK so far, D in"
                + " debt) (the rows to score).\nColumns: loan_id (entity), amount, duration, payments, account_age_days, balance_before, ")
                .endsWith("; defaulted (label, history only).\nNext: train_model(source=loan_default_history,"
                        + " target=defaulted, entity=loan_id), then predict(source=loan_default_current), then"
                        + " explain_prediction.");
        assertThat(ctx.evidence()).extracting(e -> e.frame()).containsExactly("loan_default_history",
                "loan_default_current");
    }

    @Test
    void a_filter_narrows_the_rows_to_score_over_approved_joins_without_duplicating_loans() throws Exception {
        ToolResult r = call("{\"task\":\"loan_default\",\"filter\":\"district.A2 = 'Hl.m. Praha'\"}");
        assertThat(r.ok()).as(r.summary()).isTrue();
        long prague = scalar("SELECT count(*) FROM loan JOIN account ON loan.account_id = account.account_id"
                + " JOIN district ON account.district_id = district.A1 WHERE loan.status IN ('C', 'D')"
                + " AND district.A2 = 'Hl.m. Praha'");
        assertThat(prague).isPositive();
        assertThat(scalar("SELECT count(*) FROM frames.loan_default_current")).isEqualTo(prague);
        assertThat(scalar("SELECT count(*) FROM frames.loan_default_history"))
                .isEqualTo(scalar("SELECT count(*) FROM loan WHERE status IN ('A', 'B')"));
        assertThat(r.summary()).contains(" rows of running loans (C OK so far, D in debt) where district.A2 ="
                + " 'Hl.m. Praha' (the rows to score).\nNote: the model learns from all of the history; pass"
                + " history_filter to narrow it too.");

        // A one-to-many table in the filter is a semi-join: every loan at most once.
        assertThat(call("{\"task\":\"loan_default\",\"filter\":\"trans.amount > 1000\","
                + "\"history_filter\":\"loan.duration = 60\"}").ok()).isTrue();
        assertThat(scalar("SELECT count(*) - count(DISTINCT loan_id) FROM frames.loan_default_current")).isZero();
        assertThat(scalar("SELECT count(*) FROM frames.loan_default_history"))
                .isEqualTo(scalar("SELECT count(*) FROM loan WHERE status IN ('A', 'B') AND duration = 60"));
    }

    @Test
    void mistakes_come_back_as_errors_that_say_what_exists() throws Exception {
        assertThat(call("{\"task\":\"churn\"}").error()).isEqualTo("Unknown prediction task 'churn'. Tasks of the"
                + " knowledge graph: loan_default (probability that a running loan ends unpaid (status B), learnt from"
                + " finished loans; unlike the default_rate metric and the defaulted_loan concept (status B or D), a"
                + " running loan in debt (D) is not a default here, since it has not ended).");
        assertThat(call("{\"task\":\"loan_default\",\"filter\":\"loan.duration = 60; DROP TABLE loan\"}").error())
                .isEqualTo("The filter contains ';' (only one expression may be given, not statements): give one SQL"
                        + " condition, e.g. loan.<column> = <value>.");
        assertThat(call("{\"task\":\"loan_default\",\"filter\":\"loan.length = 60\"}").error())
                .startsWith("The filter 'loan.length = 60' does not work on loan and the tables its approved joins"
                        + " reach: ");
        assertThat(call("{\"task\":\"loan_default\",\"filter\":\"loan.duration = 7\"}").error()).isEqualTo(
                "No running loans (C OK so far, D in debt) where loan.duration = 7: nothing to score. Check the filter's"
                        + " values with sample_values.");
    }
}
