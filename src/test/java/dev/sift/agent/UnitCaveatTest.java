package dev.sift.agent;

import dev.sift.OnBankWorkspace;
import dev.sift.Sift;
import dev.sift.llm.ScriptedLlm;
import dev.sift.planner.LlmPlanner;
import dev.sift.planner.RulePlanner;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** A question in a currency the data is not in: the answer says which currency its figures are in. */
class UnitCaveatTest extends OnBankWorkspace {
    private static final String CAVEAT = "Note: the question asks in USD, but loan.amount is in CZK; the figures are in"
            + " CZK, not converted.";
    private AgentRun model(String question, String answer) throws Exception {
        ScriptedLlm llm = new ScriptedLlm(
                "{\"thought\":\"average\",\"tool\":\"run_sql\",\"args\":{\"sql\":\"SELECT avg(l.amount) AS avg_amount FROM loan l\"}}",
                "{\"thought\":\"done\",\"final_answer\":\"" + answer + "\"}");
        return new AgentLoop(new LlmPlanner(llm), Sift.defaultTools(), ws, llm, AgentConfig.defaults()).run(question);
    }

    @Test
    void a_model_answer_in_dollars_from_czk_amounts_carries_the_currency_caveat() throws Exception {
        AgentRun run = model("What is the average loan amount in USD?", "The average loan amount is in the result above.");
        assertThat(run.answer()).isEqualTo(CAVEAT + "\n\nThe average loan amount is in the result above.");
        assertThat(run.notes()).contains(CAVEAT);
    }

    @Test
    void an_answer_that_names_the_data_currency_is_left_as_it_is() throws Exception {
        AgentRun run = model("What is the average loan amount in $?", "The average loan amount, in CZK, is above.");
        assertThat(run.answer()).isEqualTo("The average loan amount, in CZK, is above.");
        assertThat(run.notes()).contains(CAVEAT);
    }

    @Test
    void a_question_without_a_currency_or_in_the_data_currency_gets_no_caveat() throws Exception {
        assertThat(model("What is the average loan amount?", "It is above.").answer()).isEqualTo("It is above.");
        assertThat(model("What is the average loan amount in CZK?", "It is above.").answer()).isEqualTo("It is above.");
    }

    @Test
    void the_offline_planner_does_not_pass_czk_off_as_dollars() throws Exception {
        AgentRun run = new AgentLoop(new RulePlanner(), Sift.defaultTools(), ws, null, AgentConfig.defaults())
                .run("What is the average loan amount in dollars?");
        assertThat(run.answer()).startsWith("I could not map 'dollars' to anything in this dataset, and I will not guess.");
    }
}
