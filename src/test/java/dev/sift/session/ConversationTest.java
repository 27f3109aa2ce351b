package dev.sift.session;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sift.Sift;
import dev.sift.TestDatasets;
import dev.sift.agent.AgentConfig;
import dev.sift.agent.TraceStore;
import dev.sift.data.Workspace;
import dev.sift.llm.LlmMessage;
import dev.sift.llm.ScriptedLlm;
import dev.sift.planner.LlmPlanner;
import dev.sift.planner.RulePlanner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ConversationTest {
    @TempDir
    Path dir;

    private Conversation.Engine offline() {
        return new Conversation.Engine(RulePlanner::new, Sift.defaultTools(), null, new TraceStore(dir.resolve("traces")),
                new RuleReferenceResolver());
    }

    private Conversation open(SessionStore store) throws Exception {
        Workspace ws = Workspace.open(TestDatasets.bank(), Workspace.Limits.defaults());
        return Conversation.open(store, store.create("bank", ws.dataset().fingerprint()), ws);
    }

    @Test
    void refining_turn_is_resolved_against_the_earlier_one_and_answered_offline() throws Exception {
        SessionStore store = new SessionStore(dir.resolve("sessions"));
        try (Conversation c = open(store)) {
            c.ask("How many cards are there?", offline(), AgentConfig.defaults(), null, null, null);
            List<Resolution> seen = new ArrayList<>();
            Conversation.Outcome o = c.ask("How many of those are gold?", offline(), AgentConfig.defaults(), null, null,
                    seen::add);

            assertThat(seen).singleElement().extracting(Resolution::kind).isEqualTo(TurnKind.REFINE);
            assertThat(o.turn().kind()).isEqualTo(TurnKind.REFINE);
            assertThat(o.turn().question()).isEqualTo("How many cards are there that are gold?");
            assertThat(o.run().evidence()).singleElement().satisfies(e ->
                    assertThat(e.sql()).isEqualTo("SELECT count(*) AS n FROM card WHERE card.type = 'gold'"));
            assertThat(o.json().path("turn").path("kind").asText()).isEqualTo("refine");
            assertThat(o.json().path("status").asText()).isEqualTo("rule_based");

            Session saved = store.find(c.session().id()).orElseThrow();
            assertThat(saved.turns()).extracting(Turn::asked)
                    .containsExactly("How many cards are there?", "How many of those are gold?");
            assertThat(saved.turns().get(1).subject()).isEqualTo("card");
        }
    }

    @Test
    void a_value_a_follow_up_replaced_stays_replaced_in_the_turn_after_it() throws Exception {
        SessionStore store = new SessionStore(dir.resolve("sessions"));
        try (Conversation c = open(store)) {
            c.ask("How many gold cards are there?", offline(), AgentConfig.defaults(), null, null, null);
            Conversation.Outcome junior = c.ask("what about junior ones?", offline(), AgentConfig.defaults(), null, null, null);
            assertThat(junior.run().evidence()).singleElement().satisfies(e ->
                    assertThat(e.sql()).isEqualTo("SELECT count(*) AS n FROM card WHERE card.type = 'junior'"));

            // turn 3 says no card type: the one turn 2 said replaces turn 1's still, not both kept
            Conversation.Outcome issued = c.ask("how many of those were issued in 1998?", offline(), AgentConfig.defaults(), null,
                    null, null);
            assertThat(issued.turn().question()).contains("gold").contains("junior");
            assertThat(issued.run().evidence()).singleElement().satisfies(e -> assertThat(e.sql())
                    .contains("card.type = 'junior'").doesNotContain("'gold'").contains("1998"));
        }
    }

    @Test
    void frames_come_back_from_their_sql_when_a_session_is_reopened() throws Exception {
        SessionStore store = new SessionStore(dir.resolve("sessions"));
        ScriptedLlm llm = new ScriptedLlm(
                "{\"thought\":\"keep gold cards\",\"tool\":\"run_sql\",\"args\":{\"sql\":\"SELECT * FROM card WHERE type = 'gold'\",\"label\":\"gold_cards\"}}",
                "{\"thought\":\"done\",\"final_answer\":\"Saved the gold cards.\"}");
        Conversation.Engine engine = new Conversation.Engine(() -> new LlmPlanner(llm), Sift.defaultTools(), null,
                new TraceStore(dir.resolve("traces")), new RuleReferenceResolver());
        String id;
        long gold;
        try (Conversation c = open(store)) {
            Conversation.Outcome o = c.ask("Keep the gold cards", engine, AgentConfig.defaults(), null, null, null);
            id = c.session().id();
            gold = o.run().evidence().get(0).rowCount();
            assertThat(o.turn().frames()).containsExactly("gold_cards");
        }
        Session back = store.find(id).orElseThrow();
        assertThat(back.frames()).containsExactly(new SavedFrame("gold_cards", "SELECT * FROM card WHERE type = 'gold'", 1));
        try (Conversation again = Conversation.open(store, back, Workspace.open(TestDatasets.bank(), Workspace.Limits.defaults()))) {
            assertThat(again.restoreNotes()).isEmpty();
            assertThat(again.workspace().query("SELECT count(*) FROM frames.gold_cards").scalar()).isEqualTo(gold);
        }
    }

    @Test
    void a_source_connected_in_one_turn_is_the_dataset_of_the_next_turn_and_of_the_reopened_session() throws Exception {
        Path orders = java.nio.file.Files.writeString(dir.resolve("orders.csv"), "order_id,amount\n1,10.5\n2,20\n3,4.5\n");
        dev.sift.data.DatasetStore datasets = new dev.sift.data.DatasetStore(dir.resolve("home/datasets"));
        ScriptedLlm llm = new ScriptedLlm(
                "{\"thought\":\"the user named a file\",\"tool\":\"connect_source\",\"args\":{\"source\":\"orders.csv\","
                        + "\"name\":\"sales\"}}",
                "{\"thought\":\"done\",\"final_answer\":\"Connected the orders file.\"}",
                "{\"thought\":\"count\",\"tool\":\"run_sql\",\"args\":{\"sql\":\"SELECT count(*) AS n FROM orders\"}}",
                "{\"thought\":\"done\",\"final_answer\":\"There are 3 orders.\"}");
        Conversation.Engine engine = new Conversation.Engine(() -> new LlmPlanner(llm), Sift.defaultTools(
                new dev.sift.tool.data.ConnectSource(datasets, dev.sift.data.source.AllowedSources.of(null,
                        dir.resolve("home"), dir, java.util.Map.of()))), null, new TraceStore(dir.resolve("traces")),
                new RuleReferenceResolver());
        SessionStore store = new SessionStore(dir.resolve("sessions"));
        Sessions.WorkspaceOpener opener = name -> Workspace.open(name.equals("bank") ? TestDatasets.bank()
                : datasets.get(name), Workspace.Limits.defaults());
        String id;
        try (Sessions open = new Sessions(store, opener, 2)) {
            Conversation c = open.create("bank");
            id = c.session().id();
            Conversation.Outcome first = c.ask("Use the orders in " + orders, engine, AgentConfig.defaults(), null, null, null);
            assertThat(first.run().steps().get(0).ok()).as(first.run().steps().get(0).observation()).isTrue();
            assertThat(first.session().dataset()).isEqualTo("sales");

            Conversation.Outcome second = c.ask("How many orders are there?", engine, AgentConfig.defaults(), null, null, null);
            assertThat(second.run().dataset()).isEqualTo("sales");
            assertThat(second.run().evidence()).singleElement().satisfies(e -> assertThat(e.rows()).containsExactly(List.of(3L)));
            assertThat(llm.requests().get(2).messages().get(1).content()).contains("table orders (3 rows)").doesNotContain("table loan (");
        }
        Session saved = store.find(id).orElseThrow();
        assertThat(saved.dataset()).isEqualTo("sales");
        assertThat(saved.datasetFingerprint()).isEqualTo(datasets.get("sales").fingerprint());
        try (Sessions again = new Sessions(store, opener, 2)) {
            Conversation back = again.get(id).orElseThrow();
            assertThat(back.workspace().dataset().name()).isEqualTo("sales");
            assertThat(back.restoreNotes()).isEmpty();
        }
    }

    @Test
    void the_planner_is_handed_the_resolved_references_explicitly() throws Exception {
        SessionStore store = new SessionStore(dir.resolve("sessions"));
        ScriptedLlm llm = new ScriptedLlm(
                "{\"thought\":\"t\",\"final_answer\":\"There are 5 cards.\"}",
                "{\"thought\":\"t\",\"final_answer\":\"Two of them are gold.\"}");
        Conversation.Engine engine = new Conversation.Engine(() -> new LlmPlanner(llm), Sift.defaultTools(), null,
                new TraceStore(dir.resolve("traces")), new RuleReferenceResolver());
        try (Conversation c = open(store)) {
            c.ask("How many cards are there?", engine, AgentConfig.defaults(), null, null, null);
            c.ask("How many of those are gold?", engine, AgentConfig.defaults(), null, null, null);
        }
        List<LlmMessage> second = llm.requests().get(1).messages();
        // the question's part of the prompt comes first, then the conversation and the question
        assertThat(second.get(1).content()).contains("\n## Dataset\n").endsWith("""

                Earlier in this conversation:
                - Turn 1: How many cards are there? → There are 5 cards.
                This turn is a refine question; the person wrote: "How many of those are gold?".
                References resolved:
                - 'how many of those' → the card rows of turn 1 ("How many cards are there?")

                Question: How many cards are there that are gold?""");
    }

    @Test
    void abandoning_with_nothing_after_it_answers_without_a_run() throws Exception {
        SessionStore store = new SessionStore(dir.resolve("sessions"));
        try (Conversation c = open(store)) {
            c.ask("How many cards are there?", offline(), AgentConfig.defaults(), null, null, null);
            Conversation.Outcome o = c.ask("never mind", offline(), AgentConfig.defaults(), null, null, null);
            assertThat(o.turn().kind()).isEqualTo(TurnKind.ABANDON);
            assertThat(o.run().steps()).isEmpty();
            assertThat(o.run().answer()).isEqualTo("Understood: the earlier questions are set aside. What would you like to know?");
            assertThat(c.session().thread()).extracting(Turn::index).containsExactly(2);
        }
    }

    @Test
    void model_resolver_is_used_when_it_replies_and_rules_when_it_does_not() throws Exception {
        List<Turn> thread = List.of(new Turn(1, "How many loans are there?", "How many loans are there?", TurnKind.NEW,
                List.of(), "rules", "loan", "r1", "There are 10 loans.", "answer", "rule_based", List.of(), null, "t", 1));
        var tables = List.of(new dev.sift.data.TableInfo("loan", dev.sift.data.TableInfo.Kind.TABLE, 10, List.of()));
        ScriptedLlm good = new ScriptedLlm("{\"turn\":\"refine\",\"question\":\"How many loans have status A?\","
                + "\"references\":[\"'those' → the loans of turn 1\"]}");
        Resolution r = new LlmReferenceResolver(good, new RuleReferenceResolver()).resolve("and those with status A?", thread, tables);
        assertThat(r).isEqualTo(new Resolution(TurnKind.REFINE, "How many loans have status A?",
                List.of("'those' → the loans of turn 1"), "model"));
        assertThat(good.lastRequest().messages().get(0).content()).contains("1. How many loans are there? → There are 10 loans.");

        ScriptedLlm bad = new ScriptedLlm("I am not JSON");
        Resolution fallback = new LlmReferenceResolver(bad, new RuleReferenceResolver()).resolve("and those with status A?", thread, tables);
        assertThat(fallback.resolvedBy()).isEqualTo("rules");
        assertThat(fallback.question()).isEqualTo("How many loans are there that with status A?");
    }

    @Test
    void json_is_the_ask_json_mapping_of_the_same_run_plus_turn_and_charts() throws Exception {
        SessionStore store = new SessionStore(dir.resolve("sessions"));
        try (Conversation c = open(store)) {
            Conversation.Outcome o = c.ask("How many loans are there?", offline(), AgentConfig.defaults(), null, null, null);
            ObjectNode expected = dev.sift.agent.RunJson.of(o.run(), o.trace());
            ObjectNode j = o.json().deepCopy();
            assertThat(j.remove("turn")).isNotNull();
            assertThat(j.remove("charts")).isNotNull();
            assertThat(j).isEqualTo(expected);
        }
    }

    @Test
    void a_model_trained_in_one_turn_is_there_in_the_next() throws Exception {
        ScriptedLlm llm = new ScriptedLlm(
                "{\"tool\":\"run_sql\",\"args\":{\"sql\":\"SELECT loan_id, amount, duration, payments,"
                        + " CASE WHEN duration >= 36 THEN 1 ELSE 0 END AS long_loan FROM loan\",\"label\":\"loans_labelled\"}}",
                "{\"tool\":\"train_model\",\"args\":{\"source\":\"loans_labelled\",\"target\":\"long_loan\","
                        + "\"entity\":\"loan_id\",\"features\":[\"amount\",\"payments\"]}}",
                "{\"final_answer\":\"Trained.\"}",
                "{\"tool\":\"list_models\",\"args\":{}}",
                "{\"final_answer\":\"Listed.\"}");
        Conversation.Engine engine = new Conversation.Engine(() -> new LlmPlanner(llm), Sift.defaultTools(), llm,
                new TraceStore(dir.resolve("traces")), new RuleReferenceResolver());
        SessionStore store = new SessionStore(dir.resolve("sessions"));
        try (Conversation c = open(store)) {
            Conversation.Outcome first = c.ask("Train a model for long loans", engine, AgentConfig.defaults(), null, null, null);
            assertThat(first.run().steps()).allMatch(st -> st.ok());
            Conversation.Outcome second = c.ask("Which models do we have?", engine, AgentConfig.defaults(), null, null, null);
            assertThat(second.run().steps()).singleElement().satisfies(st -> {
                assertThat(st.tool()).isEqualTo("list_models");
                assertThat(st.ok()).isTrue();
                assertThat(st.observation()).contains("m1").contains("long_loan");
            });
        }
    }

    @Test
    void a_reply_to_a_clarification_completes_the_clarified_question_and_the_next_turn_builds_on_it() throws Exception {
        SessionStore store = new SessionStore(dir.resolve("sessions"));
        try (Conversation c = open(store)) {
            Conversation.Outcome asked = c.ask("What is the total amount?", offline(), AgentConfig.defaults(), null, null, null);
            assertThat(asked.run().kind().wire()).isEqualTo("clarification");

            Conversation.Outcome reply = c.ask("loans", offline(), AgentConfig.defaults(), null, null, null);
            assertThat(reply.turn().kind()).isEqualTo(TurnKind.REPLY);
            assertThat(reply.turn().question()).isEqualTo("What is the total amount of loans?");
            assertThat(reply.json().path("turn").path("kind").asText()).isEqualTo("reply");
            assertThat(reply.run().kind().wire()).isEqualTo("answer");
            assertThat(reply.run().evidence()).singleElement().satisfies(e ->
                    assertThat(e.sql()).contains("sum(loan.amount)"));

            Conversation.Outcome next = c.ask("in 1997?", offline(), AgentConfig.defaults(), null, null, null);
            assertThat(next.turn().kind()).isEqualTo(TurnKind.REFINE);
            assertThat(next.turn().question()).isEqualTo("What is the total amount of loans in 1997?");
            assertThat(next.run().evidence()).singleElement().satisfies(e ->
                    assertThat(e.sql()).contains("sum(loan.amount)").contains("1997"));
        }
    }

    @Test
    void a_fresh_question_after_a_clarification_is_asked_on_its_own() throws Exception {
        SessionStore store = new SessionStore(dir.resolve("sessions"));
        try (Conversation c = open(store)) {
            c.ask("What is the total amount?", offline(), AgentConfig.defaults(), null, null, null);
            Conversation.Outcome o = c.ask("How many cards are there?", offline(), AgentConfig.defaults(), null, null, null);
            assertThat(o.turn().kind()).isEqualTo(TurnKind.NEW);
            assertThat(o.turn().question()).isEqualTo("How many cards are there?");
        }
    }

    @Test
    void a_follow_up_after_turns_that_were_all_asked_back_asks_for_the_whole_question() throws Exception {
        SessionStore store = new SessionStore(dir.resolve("sessions"));
        try (Conversation c = open(store)) {
            c.ask("What is the total amount?", offline(), AgentConfig.defaults(), null, null, null);
            Conversation.Outcome o = c.ask("and their average?", offline(), AgentConfig.defaults(), null, null, null);
            assertThat(o.turn().kind()).isEqualTo(TurnKind.UNANCHORED);
            assertThat(o.run().evidence()).isEmpty(); // nothing answered over every row
            assertThat(o.run().answer()).contains("no earlier question in this conversation was answered");
            Conversation.Outcome fresh = c.ask("How many cards are there?", offline(), AgentConfig.defaults(), null, null, null);
            assertThat(fresh.turn().kind()).isEqualTo(TurnKind.NEW); // a question of its own still runs
            assertThat(fresh.run().evidence()).isNotEmpty();
        }
    }

    @Test
    void split_that_by_regroups_and_another_superlative_replaces_the_one_before() throws Exception {
        SessionStore store = new SessionStore(dir.resolve("sessions"));
        try (Conversation c = open(store)) {
            c.ask("How many loans are there?", offline(), AgentConfig.defaults(), null, null, null);
            Conversation.Outcome split = c.ask("split that by status", offline(), AgentConfig.defaults(), null, null, null);
            assertThat(split.turn().kind()).isEqualTo(TurnKind.REFINE);
            assertThat(split.run().evidence().get(split.run().evidence().size() - 1).sql()).contains("GROUP BY");
            c.ask("Which is the largest loan?", offline(), AgentConfig.defaults(), null, null, null);
            Conversation.Outcome newest = c.ask("how about the newest one?", offline(), AgentConfig.defaults(), null, null, null);
            assertThat(newest.turn().question()).isEqualTo("Which is the newest loan?");
        }
    }
}
