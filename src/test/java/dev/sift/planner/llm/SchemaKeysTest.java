package dev.sift.planner.llm;

import dev.sift.TestDatasets;
import dev.sift.data.Workspace;
import dev.sift.knowledge.Knowledge;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The schema block names each table's key, the approved joins as conditions, and column meanings. */
class SchemaKeysTest {
    private static Workspace ws;
    private static Knowledge knowledge;

    @BeforeAll
    static void open() throws Exception {
        ws = Workspace.open(TestDatasets.bank(), Workspace.Limits.defaults());
        knowledge = Knowledge.load(ws);
    }

    @AfterAll
    static void close() {
        ws.close();
    }

    @Test
    void the_schema_block_shows_keys_join_conditions_and_column_meanings() {
        String schema = PromptBuilder.schema(ws, knowledge, "How many clients live in Prague?");
        org.slf4j.LoggerFactory.getLogger(SchemaKeysTest.class).info("schema block ({} chars):\n{}", schema.length(), schema);
        assertThat(schema).contains("table district (77 rows)")
                .containsPattern("Keys \\(unique, non-null\\): .*district\\.A1")
                .contains("client.district_id = district.A1 (")
                .contains("disp.client_id = client.client_id")
                .contains("card.disp_id = disp.disp_id")
                .contains("district.A3 region")
                .contains("district.A11 average salary [CZK per month]").contains("district.A16 number of committed crimes in 1996")
                .contains("loan.status status of paying off the loan, codes 'A' = contract finished, no problems,")
                .doesNotContain("card.disp_id the disposition").doesNotContain("card.disp_id,")
                .doesNotContain("join:account_district");
        assertThat(schema.length()).isLessThanOrEqualTo(PromptBuilder.SCHEMA_BUDGET + SchemaKeys.BUDGET + 1);
    }

    @Test
    void the_block_is_cut_between_entries_within_its_budget_and_says_so() {
        String block = SchemaKeys.render(knowledge.graph(), List.of("account", "client", "disp", "district", "loan"), 400);
        assertThat(block.length()).isLessThanOrEqualTo(400 + 90);
        assertThat(block).startsWith("Keys (unique, non-null): ").containsPattern("… \\d+ more not shown \\(query_kg"
                + " node=column:TABLE.COLUMN shows one\\)\\.$");
    }

    @Test
    void a_join_is_shown_only_when_both_its_tables_are() {
        String block = SchemaKeys.render(knowledge.graph(), List.of("loan", "account"), SchemaKeys.BUDGET);
        assertThat(block).contains("loan.account_id = account.account_id").doesNotContain("district.A1 (");
    }
}
