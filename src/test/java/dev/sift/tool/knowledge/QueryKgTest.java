package dev.sift.tool.knowledge;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sift.Sift;
import dev.sift.TestDatasets;
import dev.sift.data.Workspace;
import dev.sift.knowledge.KgEntry;
import dev.sift.tool.ToolContext;
import dev.sift.tool.ToolRegistry;
import dev.sift.tool.ToolResult;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** query_kg's four modes and its errors, on the curated bank graph. */
class QueryKgTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ToolRegistry TOOLS = Sift.defaultTools();
    private static Workspace ws;

    @BeforeAll
    static void open() throws Exception {
        ws = Workspace.open(TestDatasets.bank(), Workspace.Limits.defaults());
    }

    @AfterAll
    static void close() {
        ws.close();
    }

    private static ToolResult call(String args) throws Exception {
        return TOOLS.run(TOOLS.prepare("query_kg", JSON.readTree(args), ws), new ToolContext(ws, null, "q"));
    }

    @Test
    void no_arguments_gives_the_outline() throws Exception {
        ToolResult r = call("{}");
        assertThat(r.ok()).isTrue();
        assertThat(r.summary()).startsWith("Knowledge graph of dataset 'bank' (automatic + curated kg/bank.kg.yaml)\n"
                        + "- table: 8 (account, card, client, disp, district, loan, order, trans)\n- column: 56\n")
                .contains("- join: 8 (disp_client, disp_account, loan_account, card_disp, order_account, trans_account,"
                        + " account_district, client_district)")
                .endsWith("Use query_kg with search=<the question> for the relevant entries, section=<kind> to list one"
                        + " kind, node=<id> for one entry.");
    }

    @Test
    void section_lists_one_kind() throws Exception {
        ToolResult r = call("{\"section\":\"metrics\"}");
        assertThat(r.summary()).startsWith("17 metric entries:\n- metric:default_rate: metric default_rate ="
                + " avg(CASE WHEN loan.status IN ('B', 'D') THEN 1.0 ELSE 0.0 END) (per loan row, share 0..1)");
        assertThat(call("{\"section\":\"join_paths\"}").summary()).startsWith("8 join entries:\n- join:disp_client: ");
        assertThat(call("{\"section\":\"metrix\"}").summary()).isEqualTo("Error: Unknown section 'metrix'. Sections:"
                + " table, column, concept, metric, join, disambiguation, value_alias. Did you mean 'metric'?");
    }

    @Test
    void search_ranks_entries_for_the_full_question_and_names_the_values() throws Exception {
        ToolResult r = call("{\"search\":\"What is the default rate of loans for customers living in Prague?\",\"k\":3}");
        assertThat(r.summary()).isEqualTo("""
                Top 3 knowledge-graph matches for 'What is the default rate of loans for customers living in Prague?':
                1. metric:default_rate — metric default_rate = avg(CASE WHEN loan.status IN ('B', 'D') THEN 1.0 ELSE 0.0 END) (per loan row, share 0..1): share of loans with status B or D (not paid, or in debt); multiply by 100 for percent. The prediction task loan_default learns only B (finished unpaid), since a loan in debt (D) has not ended [matched: default, rate, loan]
                2. concept:defaulted_loan — concept defaulted_loan → expression loan.status IN ('B', 'D') on loan: a loan that was not paid or is in debt (status B or D); the prediction task loan_default learns only B, since a loan in debt (D) has not ended [matched: default, loan]
                3. value_alias:prague — value alias "prague" / "Praha" / "Prague city" / "capital" → district.A2 = 'Hl.m. Praha' (the capital's district; its region district.A3 is 'Prague') [matched: prague]
                Values named in the text:
                - 'prague' → district.A2 = 'Hl.m. Praha' (the capital's district; its region district.A3 is 'Prague')""");
        assertThat(call("{\"search\":\"zebra quasar\"}").summary()).isEqualTo("Nothing in the knowledge graph matches"
                + " 'zebra quasar'. Try other words, or query_kg with no arguments for the outline.");
    }

    @Test
    void node_gives_the_full_record() throws Exception {
        ToolResult r = call("{\"node\":\"metric:default_rate\"}");
        assertThat(r.summary()).endsWith("\nSQL: SELECT avg(CASE WHEN loan.status IN ('B', 'D') THEN 1.0 ELSE 0.0 END)"
                + " FROM loan");
        assertThat(r.payload()).isInstanceOf(KgEntry.Metric.class);
        assertThat(call("{\"id\":\"table:loan\"}").summary()).contains("Columns:\n- column loan.loan_id INTEGER (key):"
                + " loan identifier").endsWith("Joins:\n- join loan.account_id = account.account_id (approved in the knowledge file): the"
                + " account the loan was granted for");
        assertThat(call("{\"node\":\"lives_in\"}").summary()).startsWith("concept:lives_in\nconcept lives_in → column"
                + " client.district_id");
        assertThat(call("{\"node\":\"default_rat\"}").summary()).isEqualTo("Error: No knowledge-graph entry"
                + " 'default_rat'. Ids look like kind:name, e.g. metric:default_rate, column:loan.status, table:loan;"
                + " query_kg with search=… finds them. Did you mean 'metric:default_rate'?");
    }

    @Test
    void more_than_one_mode_is_refused() throws Exception {
        assertThat(call("{\"section\":\"metric\",\"node\":\"metric:default_rate\"}").summary()).isEqualTo("Error:"
                + " query_kg takes at most one of section, search and node; got 2. Call it once per lookup.");
        assertThat(call("{\"search\":\"loan\",\"k\":99}").summary()).isEqualTo("Error: k must be between 1 and 30,"
                + " got 99.");
    }
}
