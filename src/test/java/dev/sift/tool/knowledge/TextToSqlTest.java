package dev.sift.tool.knowledge;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sift.Sift;
import dev.sift.TestDatasets;
import dev.sift.data.Workspace;
import dev.sift.llm.LlmMessage;
import dev.sift.llm.ScriptedLlm;
import dev.sift.tool.ToolContext;
import dev.sift.tool.ToolRegistry;
import dev.sift.tool.ToolResult;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** text_to_sql with a scripted model: the prompt it builds, the guard, the repair round, the predictive outputs. */
class TextToSqlTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ToolRegistry TOOLS = Sift.defaultTools();
    private static final String QUESTION = "What is the default rate of loans opened at branches in Prague?";
    private static final String GOOD_SQL = "SELECT avg(CASE WHEN loan.status IN ('B', 'D') THEN 1.0 ELSE 0.0 END)"
            + " AS default_rate FROM loan JOIN account ON loan.account_id = account.account_id JOIN district ON"
            + " account.district_id = district.A1 WHERE district.A2 = 'Hl.m. Praha'";
    private static final String CONTEXT_SQL = "SELECT loan.loan_id, loan.amount, loan.duration,"
            + " CASE WHEN loan.status = 'B' THEN 1 ELSE 0 END AS defaulted FROM loan WHERE loan.status IN ('A', 'B')";
    private static final String PREDICT_SQL = "SELECT loan.loan_id, loan.amount, loan.duration FROM loan"
            + " WHERE loan.status IN ('C', 'D')";
    private static Workspace ws;

    @BeforeAll
    static void open() throws Exception {
        ws = Workspace.open(TestDatasets.bank(), Workspace.Limits.defaults());
    }

    @AfterAll
    static void close() {
        ws.close();
    }

    private static ToolResult call(ScriptedLlm llm, String args) throws Exception {
        return TOOLS.run(TOOLS.prepare("text_to_sql", JSON.readTree(args), ws), new ToolContext(ws, llm, QUESTION));
    }

    private static String analytic(String sql) throws Exception {
        return JSON.writeValueAsString(Map.of("mode", "analytic", "sql", sql));
    }

    private static String predictive(String target, String context, String predict) throws Exception {
        return JSON.writeValueAsString(Map.of("mode", "predictive", "task", Map.of("type", "classification",
                "target", target, "entity", "loan_id"), "context_sql", context, "predict_sql", predict));
    }

    @Test
    void without_a_model_it_says_so_and_writes_nothing() throws Exception {
        ToolResult r = TOOLS.run(TOOLS.prepare("text_to_sql", JSON.readTree("{}"), ws), new ToolContext(ws, null, QUESTION));
        assertThat(r.ok()).isFalse();
        assertThat(r.error()).isEqualTo("text_to_sql needs a language model and none is configured, so it wrote no SQL"
                + " (it does not guess). Write the query with run_sql instead, using query_kg and sample_values to find"
                + " the right columns and values.");
    }

    @Test
    void analytic_sql_comes_back_checked_with_the_kg_facts_it_used() throws Exception {
        ScriptedLlm llm = new ScriptedLlm("```json\n" + analytic(GOOD_SQL) + "\n```");
        ToolResult r = call(llm, "{\"mode\":\"analytic\"}");
        assertThat(r.ok()).isTrue();
        TextToSql.Sql out = (TextToSql.Sql) r.payload();
        assertThat(out.sql()).isEqualTo(GOOD_SQL);
        assertThat(out.kgFacts()).contains("metric:default_rate", "value_alias:prague");
        assertThat(out.repaired()).isFalse();
        assertThat(r.summary()).startsWith("Analytic SQL (checked against the schema, not run yet; run it with run_sql):\n"
                + GOOD_SQL + "\nKnowledge-graph facts used: ").contains("metric:default_rate");
        String prompt = llm.requests().get(0).messages().get(0).content();
        assertThat(prompt).contains("Mode analytic: write one SQL query")
                .contains("- metric default_rate = avg(CASE WHEN loan.status IN ('B', 'D') THEN 1.0 ELSE 0.0 END)")
                .contains("- district.A2 = 'Hl.m. Praha' (the capital's district")
                .contains("table loan (" + TestDatasets.bank().rows("loan") + " rows): loan_id INTEGER key")
                .contains("TRY_CAST(code AS INTEGER)").contains("strptime(text, '%y%m%d')")
                .endsWith("## Question\n<<<QUESTION (the person's question, untrusted)\n" + QUESTION + "\nQUESTION>>>");
        assertThat(llm.requests().get(0).messages().get(1)).isEqualTo(LlmMessage.user(QUESTION));
    }

    @Test
    void a_bind_error_gets_one_repair_round_with_the_error_text() throws Exception {
        ScriptedLlm llm = new ScriptedLlm(analytic("SELECT avg(amout) FROM loan"), analytic(GOOD_SQL));
        ToolResult r = call(llm, "{}");
        assertThat(r.ok()).isTrue();
        assertThat(((TextToSql.Sql) r.payload()).repaired()).isTrue();
        assertThat(r.summary()).endsWith("(The first draft failed the check and was repaired once.)");
        List<LlmMessage> repair = llm.requests().get(1).messages();
        assertThat(repair).hasSize(4);
        assertThat(repair.get(2)).isEqualTo(LlmMessage.assistant(analytic("SELECT avg(amout) FROM loan")));
        assertThat(repair.get(3).content()).startsWith("That did not pass the check: sql: ").contains("amout")
                .endsWith(" Reply again with the corrected JSON object only.");
    }

    @Test
    void a_second_failure_is_reported_not_retried() throws Exception {
        ScriptedLlm llm = new ScriptedLlm(analytic("SELECT avg(amout) FROM loan"), "DROP TABLE loan");
        ToolResult r = call(llm, "{}");
        assertThat(r.ok()).isFalse();
        assertThat(r.error()).isEqualTo("text_to_sql could not produce valid SQL, even after one repair round: the"
                + " reply was not one JSON object. Write the query with run_sql instead.");
        assertThat(llm.served()).isEqualTo(2);
    }

    @Test
    void predictive_mode_returns_the_task_the_context_sql_and_the_predict_sql() throws Exception {
        ScriptedLlm llm = new ScriptedLlm(predictive("defaulted", CONTEXT_SQL, PREDICT_SQL));
        ToolResult r = call(llm, "{\"mode\":\"predictive\",\"question\":\"Which running loans will default?\"}");
        assertThat(r.ok()).isTrue();
        TextToSql.Sql out = (TextToSql.Sql) r.payload();
        assertThat(out.mode()).isEqualTo("predictive");
        assertThat(out.task()).containsExactly(Map.entry("type", "classification"), Map.entry("target", "defaulted"),
                Map.entry("entity", "loan_id"));
        assertThat(out.contextSql()).isEqualTo(CONTEXT_SQL);
        assertThat(out.predictSql()).isEqualTo(PREDICT_SQL);
        assertThat(out.sql()).isNull();
        assertThat(r.summary()).startsWith("Predictive task: classification of defaulted per loan_id (checked, not run"
                + " yet).\ncontext_sql (rows with a known target):\n" + CONTEXT_SQL + "\npredict_sql (rows to score):\n"
                + PREDICT_SQL);
        assertThat(llm.requests().get(0).messages().get(1).content()).isEqualTo("Which running loans will default?");
    }

    @Test
    void a_target_missing_from_the_context_sql_is_repaired() throws Exception {
        ScriptedLlm llm = new ScriptedLlm(predictive("default_flag", CONTEXT_SQL, PREDICT_SQL),
                predictive("defaulted", CONTEXT_SQL, PREDICT_SQL));
        ToolResult r = call(llm, "{\"mode\":\"auto\"}");
        assertThat(r.ok()).isTrue();
        assertThat(llm.requests().get(1).messages().get(3).content()).isEqualTo("That did not pass the check:"
                + " task.target 'default_flag' is not a column of context_sql (its columns: loan_id, amount, duration,"
                + " defaulted). Reply again with the corrected JSON object only.");
    }

    @Test
    void auto_mode_reads_a_reply_without_mode_by_its_fields_and_bad_modes_are_refused() throws Exception {
        String noMode = JSON.writeValueAsString(Map.of("task", Map.of("type", "classification", "target", "defaulted",
                "entity", "loan_id"), "context_sql", CONTEXT_SQL, "predict_sql", PREDICT_SQL));
        assertThat(((TextToSql.Sql) call(new ScriptedLlm(noMode), "{}").payload()).mode()).isEqualTo("predictive");
        assertThat(call(new ScriptedLlm(), "{\"mode\":\"magic\"}").error()).isEqualTo("mode must be analytic,"
                + " predictive or auto; got 'magic'.");
    }
}
