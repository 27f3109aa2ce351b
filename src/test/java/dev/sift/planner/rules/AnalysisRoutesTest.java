package dev.sift.planner.rules;

import dev.sift.OnBankWorkspace;
import dev.sift.knowledge.KnowledgeStore;
import dev.sift.Sift;
import dev.sift.TestDatasets;
import dev.sift.agent.AgentConfig;
import dev.sift.agent.AgentLoop;
import dev.sift.agent.AgentRun;
import dev.sift.agent.AnswerKind;
import dev.sift.planner.RulePlanner;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The offline planner routes plain analysis requests to the analysis tools, and asks when they are not plain. */
class AnalysisRoutesTest extends OnBankWorkspace {
    /** One store for the class: the dataset's knowledge is built once, as the application does. */
    private static final KnowledgeStore KNOWLEDGE = new KnowledgeStore();
    private AgentRun ask(String q) throws Exception {
        return new AgentLoop(new RulePlanner(), Sift.defaultTools(), ws, null, AgentConfig.defaults()).knowledge(KNOWLEDGE).run(q);
    }

    private static String call(AgentRun run) {
        assertThat(run.steps()).hasSize(1);
        return run.steps().get(0).tool() + " " + run.steps().get(0).args();
    }

    @Test
    void profile_the_loan_table() throws Exception {
        AgentRun run = ask("profile the loan table");
        assertThat(call(run)).isEqualTo("profile_data {\"source\":\"loan\"}");
        assertThat(run.kind()).isEqualTo(AnswerKind.ANSWER);
        assertThat(run.status()).isEqualTo(AgentRun.Status.RULE_BASED);
        assertThat(run.answer()).startsWith("Profiled table loan.\nProfile of loan (" + TestDatasets.bank().rows("loan") + " rows");
    }

    @Test
    void trend_in_monthly_transaction_volume_states_how_it_read_the_words() throws Exception {
        AgentRun run = ask("Is there a trend in monthly transaction volume?");
        assertThat(call(run)).isEqualTo("trend_analysis {\"source\":\"trans\",\"date\":\"date\",\"grain\":\"month\"}");
        assertThat(run.answer()).startsWith("Trend of the monthly number of rows of table trans by date ('transaction' read"
                + " as table trans; 'volume' read as the number of rows).\nMonthly count of rows of trans by date, ")
                .contains("Trend: rising");
    }

    @Test
    void what_correlates_with_loan_amount() throws Exception {
        AgentRun run = ask("What correlates with loan amount?");
        assertThat(call(run)).isEqualTo("correlation_analysis {\"source\":\"loan\",\"target\":\"amount\"}");
        assertThat(run.answer()).startsWith("Correlated the columns of table loan, amount's pairs first.\nCorrelations in loan");
    }

    @Test
    void data_quality_of_trans() throws Exception {
        AgentRun run = ask("data quality of trans");
        assertThat(call(run)).isEqualTo("data_quality_report {\"source\":\"trans\"}");
        assertThat(run.answer()).contains("orphans along trans.account_id = account.account_id (approved join in the knowledge graph)");
    }

    @Test
    void forecast_with_a_measure_an_aggregate_and_a_horizon() throws Exception {
        AgentRun run = ask("forecast the total trans amount for the next 6 months");
        assertThat(call(run)).isEqualTo("forecast {\"source\":\"trans\",\"date\":\"date\",\"measure\":\"amount\",\"agg\":\"sum\","
                + "\"grain\":\"month\",\"horizon\":6}");
        assertThat(run.kind()).isEqualTo(AnswerKind.ANSWER);
    }

    @Test
    void asks_instead_of_guessing() throws Exception {
        assertThat(ask("Is there a trend in loan amount?").answer()).isEqualTo("The total or the average of loan.amount per"
                + " period? Say e.g. 'total amount' or 'average amount'.");
        AgentRun women = ask("is there a trend in monthly transaction volume for women?");
        assertThat(women.kind()).isEqualTo(AnswerKind.CLARIFICATION);
        assertThat(women.steps()).isEmpty();
        assertThat(women.answer()).startsWith("I could not map 'women' to anything in table trans offline, and I will not guess.");
        assertThat(ask("profile the data").answer()).isEqualTo("Which table should I use for a profile? Tables: account,"
                + " card, client, disp, district, loan, order, trans");
        assertThat(ask("correlations between loans and accounts").answer()).isEqualTo("Offline I analyse one table at a"
                + " time; you mentioned account, loan. Which one?");
        assertThat(ask("is there a trend in districts?").answer()).isEqualTo("Table district has no date column for a"
                + " trend. Which date do you mean?");
    }

    @Test
    void a_count_question_that_mentions_an_analysis_word_is_not_an_analysis() throws Exception {
        AgentRun run = ask("How many loans have a quality problem?");
        assertThat(run.steps()).isEmpty();
        assertThat(run.answer()).startsWith("I could not map 'quality' to anything in this dataset, and I will not guess.");
    }

    @Test
    void anomaly_and_cluster_requests_go_to_their_tools() throws Exception {
        AgentRun unusual = ask("Are there any unusual loan amounts?");
        assertThat(call(unusual)).isEqualTo("anomaly_scan {\"source\":\"loan\",\"columns\":[\"amount\"]}");
        assertThat(unusual.kind()).isEqualTo(AnswerKind.ANSWER);
        assertThat(unusual.answer()).startsWith("Scanned table loan for unusual values of amount.\n");
        AgentRun clusters = ask("cluster the districts");
        assertThat(call(clusters)).startsWith("kmeans_clusters {\"source\":\"district\",\"columns\":[");
        assertThat(clusters.answer()).startsWith("Clustered the rows of table district by ").contains("(its numeric columns, as none was named)");
    }
}
