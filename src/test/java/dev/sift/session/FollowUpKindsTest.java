package dev.sift.session;

import dev.sift.Sift;
import dev.sift.TestDatasets;
import dev.sift.agent.AgentConfig;
import dev.sift.agent.AnswerKind;
import dev.sift.agent.TraceStore;
import dev.sift.data.Workspace;
import dev.sift.llm.ScriptedLlm;
import dev.sift.planner.RulePlanner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The follow-up rewriter's two kinds beyond new / refine / abandon, with a scripted model resolving the turns and the
 * offline planner answering them: "ambiguous" asks the person which earlier turn a message leans on instead of
 * running a guess, "same" repeats an earlier turn's question (not always the last) with the message's change.
 */
class FollowUpKindsTest {
    @TempDir
    Path dir;

    private static final String NEW_TURN = "{\"turn\":\"new\",\"question\":\"How many accounts have a loan?\",\"references\":[]}";

    private Conversation.Engine engine(ScriptedLlm resolver) {
        return new Conversation.Engine(RulePlanner::new, Sift.defaultTools(), null, new TraceStore(dir.resolve("traces")),
                new LlmReferenceResolver(resolver, new RuleReferenceResolver()));
    }

    private Conversation open(SessionStore store) throws Exception {
        Workspace ws = Workspace.open(TestDatasets.bank(), Workspace.Limits.defaults());
        return Conversation.open(store, store.create("bank", ws.dataset().fingerprint()), ws);
    }

    @Test
    void a_message_that_could_lean_on_two_turns_is_asked_back_with_both_readings_and_not_run() throws Exception {
        ScriptedLlm model = new ScriptedLlm(NEW_TURN, "{\"turn\":\"ambiguous\",\"question\":\"What is their average"
                + " amount?\",\"references\":[],\"readings\":[\"What is the average loan amount of the clients who live in"
                + " Prague?\",\"What is the average loan amount of the accounts that have a loan?\"]}");
        SessionStore store = new SessionStore(dir.resolve("sessions"));
        try (Conversation c = open(store)) {
            c.ask("How many clients live in Prague?", engine(model), AgentConfig.defaults(), null, null, null);
            c.ask("How many accounts have a loan?", engine(model), AgentConfig.defaults(), null, null, null);
            Conversation.Outcome o = c.ask("What is their average amount?", engine(model), AgentConfig.defaults(), null,
                    null, null);

            assertThat(o.turn().kind()).isEqualTo(TurnKind.AMBIGUOUS);
            assertThat(o.run().steps()).isEmpty();
            assertThat(o.run().kind()).isEqualTo(AnswerKind.CLARIFICATION);
            assertThat(o.run().answer()).isEqualTo("Your question could lean on more than one earlier turn: 1. What is the"
                    + " average loan amount of the clients who live in Prague? 2. What is the average loan amount of the"
                    + " accounts that have a loan? Which one do you mean?");
            assertThat(o.json().path("turn").path("kind").asText()).isEqualTo("ambiguous");
            assertThat(o.json().path("turn").path("readings")).hasSize(2);
            assertThat(model.lastRequest().messages().get(0).content()).contains("\"ambiguous\": the message leans on an"
                    + " earlier turn but could lean on more than one");

            // the reply picks a reading, by its number or by the words it shares with one; no model call needed
            Conversation.Outcome picked = c.ask("the second", engine(model), AgentConfig.defaults(), null, null, null);
            assertThat(picked.turn().kind()).isEqualTo(TurnKind.REPLY);
            assertThat(picked.turn().question()).isEqualTo("What is the average loan amount of the accounts that have a loan?");
            assertThat(picked.turn().references()).containsExactly("'the second' picks reading 2 of turn 3 (\"What is"
                    + " their average amount?\")");
            assertThat(model.served()).isEqualTo(2);
        }
    }

    @Test
    void a_reply_to_an_ambiguous_turn_picks_the_one_reading_whose_words_it_shares() {
        Turn ambiguous = new Turn(3, "What is their average amount?", "What is their average amount?", TurnKind.AMBIGUOUS,
                List.of("reading 1: What is the average loan amount of the clients who live in Prague?",
                        "reading 2: What is the average loan amount of the accounts that have a loan?"), "model", null, "r3",
                "Your question could lean on more than one earlier turn: …", "clarification", "not_sampled", List.of(), null,
                "t", 1);
        assertThat(ClarificationReply.picked("the clients", ambiguous)).contains(1);
        assertThat(ClarificationReply.picked("two", ambiguous)).contains(2);
        assertThat(ClarificationReply.picked("the loans", ambiguous)).isEmpty(); // both readings say it: asked again
        assertThat(ClarificationReply.merge("the accounts", List.of(ambiguous), List.of())).get()
                .extracting(Resolution::question).isEqualTo("What is the average loan amount of the accounts that have a loan?");
    }

    @Test
    void a_message_repeating_an_earlier_turn_runs_that_turn_s_question_with_its_change() throws Exception {
        ScriptedLlm model = new ScriptedLlm(NEW_TURN, "{\"turn\":\"same\",\"same_as\":1,\"question\":\"How many clients"
                + " live in south Moravia?\",\"references\":[\"'in south Moravia' replaces 'in Prague' of turn 1\"]}");
        SessionStore store = new SessionStore(dir.resolve("sessions"));
        try (Conversation c = open(store)) {
            c.ask("How many clients live in Prague?", engine(model), AgentConfig.defaults(), null, null, null);
            c.ask("How many accounts have a loan?", engine(model), AgentConfig.defaults(), null, null, null);
            Conversation.Outcome o = c.ask("And in south Moravia?", engine(model), AgentConfig.defaults(), null, null, null);

            assertThat(o.turn().kind()).isEqualTo(TurnKind.SAME);
            assertThat(o.turn().question()).isEqualTo("How many clients live in south Moravia?");
            assertThat(o.turn().subject()).isEqualTo("client");
            assertThat(o.json().path("turn").path("kind").asText()).isEqualTo("same");
            assertThat(o.json().path("turn").path("same_as").asInt()).isEqualTo(1);
            assertThat(o.run().evidence()).singleElement().satisfies(e -> assertThat(e.sql()).contains("'south Moravia'"));
        }
    }

    @Test
    void a_same_turn_naming_no_earlier_turn_or_an_ambiguous_one_with_one_reading_falls_back_to_the_rules() {
        List<Turn> thread = List.of(new Turn(1, "How many loans are there?", "How many loans are there?", TurnKind.NEW,
                List.of(), "rules", "loan", "r1", "There are 10 loans.", "answer", "rule_based", List.of(), null, "t", 1));
        var tables = List.of(new dev.sift.data.TableInfo("loan", dev.sift.data.TableInfo.Kind.TABLE, 10, List.of()));
        Resolution noTurn = new LlmReferenceResolver(new ScriptedLlm("{\"turn\":\"same\",\"same_as\":7,\"question\":"
                + "\"How many loans are there in 1997?\",\"references\":[]}"), new RuleReferenceResolver())
                .resolve("and in 1997?", thread, tables);
        assertThat(noTurn.resolvedBy()).isEqualTo("rules");
        assertThat(noTurn.kind()).isEqualTo(TurnKind.REFINE);
        Resolution oneReading = new LlmReferenceResolver(new ScriptedLlm("{\"turn\":\"ambiguous\",\"question\":\"and"
                + " their amount?\",\"readings\":[\"What is the amount of the loans?\"]}"), new RuleReferenceResolver())
                .resolve("and their amount?", thread, tables);
        assertThat(oneReading.resolvedBy()).isEqualTo("rules");
        assertThat(oneReading.kind()).isNotEqualTo(TurnKind.AMBIGUOUS);
    }
}
