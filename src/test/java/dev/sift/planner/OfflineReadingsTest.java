package dev.sift.planner;

import dev.sift.Sift;
import dev.sift.TestDatasets;
import dev.sift.agent.AgentConfig;
import dev.sift.agent.AgentLoop;
import dev.sift.agent.AgentRun;
import dev.sift.agent.AnswerKind;
import dev.sift.data.Workspace;
import dev.sift.knowledge.KnowledgeStore;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The offline planner on questions phrased in other orders and words than its own: each is answered with the
 * same query as the question in the planner's own order (checked against independent SQL), with the rewording said
 * in "Read as"; and a reading whose subject is not the one the question counts is a clarification.
 */
class OfflineReadingsTest {
    private static final KnowledgeStore KNOWLEDGE = new KnowledgeStore();
    private static Workspace ws;

    @BeforeAll
    static void open() throws Exception {
        ws = Workspace.open(TestDatasets.bank(), Workspace.Limits.defaults());
    }

    @AfterAll
    static void close() {
        ws.close();
    }

    static AgentRun ask(String q) throws Exception {
        return new AgentLoop(new RulePlanner(), Sift.defaultTools(), ws, null, AgentConfig.defaults()).knowledge(KNOWLEDGE).run(q);
    }

    /** Asserts {@code q} is answered with the query of {@code same}, whose rows equal those of {@code independent}. */
    static AgentRun sameAs(String q, String same, String independent) throws Exception {
        AgentRun run = ask(q);
        AgentRun own = ask(same);
        assertThat(own.kind()).as(own.answer()).isEqualTo(AnswerKind.ANSWER);
        assertThat(run.kind()).as(run.answer()).isEqualTo(AnswerKind.ANSWER);
        assertThat(run.evidence().get(0).sql()).isEqualTo(own.evidence().get(0).sql());
        assertThat(run.evidence().get(0).rows()).containsExactlyInAnyOrderElementsOf(ws.query(independent).rows());
        return run;
    }

    @Test
    void a_leading_phrase_before_the_comma_is_read_at_the_end_and_said_so() throws Exception {
        AgentRun run = sameAs("In Prague, how many accounts are there?", "How many accounts are there in Prague?",
                "SELECT count(*) FROM account a JOIN district d ON d.A1 = a.district_id WHERE d.A2 = 'Hl.m. Praha'");
        assertThat(run.answer()).contains("Read as: 'In Prague, …' read at the end of the question; 'accounts' → table account");
        sameAs("For account 16, list the loans.", "List the loans for account 16.",
                "SELECT * FROM loan WHERE account_id = 16");
    }

    @Test
    void a_possessive_of_a_row_named_by_its_id_is_read_as_of() throws Exception {
        AgentRun run = sameAs("List account 16's loans.", "List the loans of account 16.",
                "SELECT * FROM loan WHERE account_id = 16");
        assertThat(run.answer()).contains("'account 16's loans' read as 'the loans of account 16'");
    }

    @Test
    void a_count_of_another_table_than_the_one_asked_for_is_a_clarification() throws Exception {
        AgentRun run = ask("A gold card is held by how many clients?");
        assertThat(run.kind()).isEqualTo(AnswerKind.CLARIFICATION);
        assertThat(run.evidence()).isEmpty();
        assertThat(run.answer()).startsWith("The question counts 'clients' (table client), but the only reading I can build"
                + " counts the rows of table card; I will not answer a different question.");
    }

    @Test
    void an_inflection_the_light_stem_misses_is_read_by_its_wordnet_base_form_and_said_so() throws Exception {
        AgentRun run = sameAs("How many clients lived in Prague?", "How many clients live in Prague?",
                "SELECT count(*) FROM client c JOIN district d ON d.A1 = c.district_id WHERE d.A2 = 'Hl.m. Praha'");
        assertThat(run.answer()).contains("Read as: 'lived' read as 'live' (its base form in WordNet 3.1)");
    }

    @Test
    void a_synonym_is_a_reading_only_when_it_is_a_usual_sense_of_both_words() throws Exception {
        AgentRun run = ask("How many dwellers does Prague have?");
        assertThat(run.answer()).contains("'dwellers' read as 'inhabitant' (a synonym in WordNet 3.1); 'dwellers' → district.A4");
        AgentRun invoices = ask("How many invoices are there?"); // WordNet's invoice is an "account" only in a rare sense
        assertThat(invoices.kind()).isEqualTo(AnswerKind.CLARIFICATION);
        assertThat(invoices.answer()).startsWith("I could not map 'invoices' to anything in this dataset");
    }

    @Test
    void suggestions_are_words_of_the_dataset_in_the_number_asked_and_never_for_a_real_word() throws Exception {
        assertThat(ask("How many laons are there?").answer()).startsWith("I could not map 'laons' to anything in this"
                + " dataset, and I will not guess. Did you mean loans?");
        assertThat(ask("How many acounts have weekly statments?").answer()).contains("Did you mean accounts, statements?");
        AgentRun astronauts = ask("What is the average loan amount by male astronauts?");
        assertThat(astronauts.kind()).isEqualTo(AnswerKind.CLARIFICATION);
        assertThat(astronauts.answer()).startsWith("I could not map 'astronauts' to anything in this dataset, and I will not"
                + " guess. (I read:");
    }
}
