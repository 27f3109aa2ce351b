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

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The offline planner's shapes beyond counts and aggregates, on the small bank: key lookups and chosen columns, shares
 * of a filtered subset, superlatives over a joined group and hint sentences — each answer checked against independently
 * written SQL, and each reading that does not fit the question asked back.
 */
class OfflineShapesTest {
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

    /** Asserts an answer whose query returns the rows of {@code independent}, in any order, with the gold columns first. */
    static AgentRun rows(String q, String independent) throws Exception {
        AgentRun run = ask(q);
        assertThat(run.kind()).as(run.answer()).isEqualTo(AnswerKind.ANSWER);
        List<List<Object>> gold = ws.query(independent).rows();
        int width = gold.isEmpty() ? 0 : gold.get(0).size();
        List<List<Object>> got = ws.query(run.evidence().get(0).sql()).rows().stream().map(r -> r.subList(0, width)).toList();
        assertThat(got).containsExactlyInAnyOrderElementsOf(gold);
        return run;
    }

    /** Asserts an answer whose single value is that of {@code independent}, to 1e-6. */
    static void value(String q, String independent) throws Exception {
        AgentRun run = ask(q);
        assertThat(run.kind()).as(run.answer()).isEqualTo(AnswerKind.ANSWER);
        assertThat(((Number) run.evidence().get(0).rows().get(0).get(0)).doubleValue())
                .isCloseTo(((Number) scalar(independent)).doubleValue(), org.assertj.core.data.Offset.offset(1e-6));
    }

    /** Asserts that the question is not answered, and that the reply says {@code why}. */
    static void askedBack(String q, String why) throws Exception {
        AgentRun run = ask(q);
        assertThat(run.kind()).as(run.answer()).isNotEqualTo(AnswerKind.ANSWER);
        assertThat(run.answer()).contains(why);
    }

    static Object scalar(String sql) throws Exception {
        return ws.query(sql).scalar();
    }

    @Test
    void a_column_of_one_row_named_by_its_id_is_looked_up_across_a_join() throws Exception {
        Object id = scalar("SELECT min(client_id) FROM client");
        Object region = scalar("SELECT d.A3 FROM client c JOIN district d ON d.A1 = c.district_id WHERE c.client_id = " + id);
        AgentRun run = rows("What is the region of the client with the id " + id + "?", "SELECT d.A3 FROM client c JOIN district d"
                + " ON d.A1 = c.district_id WHERE c.client_id = " + id);
        assertThat(run.answer()).startsWith("Region of client " + id + ": " + region + ".\nRead as: 'region' → district.A3 (asked"
                + " for); 'client' → table client; 'client with the id " + id + "' → client.client_id = " + id + ";");
        rows("Which region does client " + id + " live in?", "SELECT d.A3 FROM client c JOIN district d ON d.A1 = c.district_id"
                + " WHERE c.client_id = " + id);
    }

    @Test
    void a_code_looked_up_is_given_with_its_meaning_and_a_date_by_when() throws Exception {
        Object gender = scalar("SELECT gender FROM client WHERE client_id = 2");
        assertThat(ask("What is the gender of client 2?").answer()).startsWith("Gender of client 2: " + gender + " ("
                + ("F".equals(gender) ? "female" : "male") + ").");
        Object opened = scalar("SELECT date FROM account WHERE account_id = 1");
        assertThat(ask("When was account 1 opened?").answer()).startsWith("Opening date of account 1: " + opened + ".");
    }

    @Test
    void chosen_columns_of_the_rows_a_question_names_are_listed_one_line_per_row() throws Exception {
        rows("List the account ID and opening date for accounts from Prague.", "SELECT a.account_id, a.date FROM account a"
                + " JOIN district d ON d.A1 = a.district_id WHERE d.A2 = 'Hl.m. Praha'");
        Object loan = scalar("SELECT min(loan_id) FROM loan");
        rows("State the district and region for loan ID " + loan + ".", "SELECT d.A2, d.A3 FROM loan l JOIN account a"
                + " ON a.account_id = l.account_id JOIN district d ON d.A1 = a.district_id WHERE l.loan_id = " + loan);
        rows("List the account IDs with monthly issuance of statements.", "SELECT account_id FROM account"
                + " WHERE frequency = 'POPLATEK MESICNE'");
        rows("List all regions", "SELECT DISTINCT A3 FROM district");
    }

    @Test
    void a_value_of_one_row_asked_of_many_rows_is_asked_back() throws Exception {
        AgentRun run = ask("What is the birth date of the clients in Prague?");
        assertThat(run.kind()).isEqualTo(AnswerKind.CLARIFICATION);
        assertThat(run.evidence()).isEmpty();
        assertThat(run.answer()).startsWith("The question asks for the client.birth_date of one client row, but does not say"
                + " which: name it by its id (e.g. 'client 123'), or ask to list them for the clients.");
    }

    @Test
    void a_share_of_a_filtered_subset_counts_each_row_once_across_the_join() throws Exception {
        AgentRun run = ask("What percentage of male clients have weekly statements?");
        assertThat(run.kind()).as(run.answer()).isEqualTo(AnswerKind.ANSWER);
        double expected = ((Number) scalar("SELECT 100.0 * count(*) FILTER (WHERE c.client_id IN (SELECT dp.client_id FROM disp dp"
                + " JOIN account a ON a.account_id = dp.account_id WHERE a.frequency = 'POPLATEK TYDNE')) / count(*) FROM client c"
                + " WHERE c.gender = 'M'")).doubleValue();
        assertThat(((Number) run.evidence().get(0).rows().get(0).get(0)).doubleValue()).isCloseTo(expected,
                org.assertj.core.data.Offset.offset(1e-9));
        assertThat(run.answer()).contains(" of clients where client.gender = 'M' have account.frequency = 'POPLATEK TYDNE'");
        AgentRun within = ask("What percentage of running loans are in debt?");
        assertThat(((Number) within.evidence().get(0).rows().get(0).get(0)).doubleValue()).isCloseTo(((Number) scalar(
                "SELECT 100.0 * count(*) FILTER (WHERE status = 'D') / count(*) FROM loan WHERE status IN ('C', 'D')")).doubleValue(),
                org.assertj.core.data.Offset.offset(1e-9));
    }

    @Test
    void the_largest_of_a_table_ranks_by_its_amount_never_by_how_many_rows() throws Exception {
        rows("Which account has the largest loan?", "SELECT account_id, amount FROM loan ORDER BY amount DESC, account_id LIMIT 1");
        AgentRun client = ask("Which client has the largest loan?"); // two clients may share an account: asked, not counted
        assertThat(client.kind()).isEqualTo(AnswerKind.CLARIFICATION);
        assertThat(client.answer()).startsWith("I will not build this query: an account can have several disp rows");
        rows("Which branch has the highest average salary?", "SELECT d.A2 FROM district d WHERE d.A1 IN (SELECT district_id"
                + " FROM account) ORDER BY d.A11 DESC, d.A1 LIMIT 1");
    }

    @Test
    void a_hint_defines_what_the_question_s_words_mean_and_says_so() throws Exception {
        AgentRun run = rows("How many loans have a validity of more than 12 months? Hint: validity of more than 12 months"
                + " refers to duration > 12", "SELECT count(*) FROM loan WHERE duration > 12");
        assertThat(run.answer()).contains("'validity of more than 12 months' → loan.duration > 12 (from the hint)");
        rows("How many account holders are women? Hint: account holder refers to type = 'OWNER'; women refers to gender = 'f'",
                "SELECT count(*) FROM disp dp JOIN client c ON c.client_id = dp.client_id WHERE dp.type = 'OWNER'"
                        + " AND c.gender = 'F'");
    }

    @Test
    void a_hint_that_names_nothing_of_the_dataset_never_blocks_the_question() throws Exception {
        AgentRun run = rows("How many loans are there? Hint: Percentage = count(loan_id) / 100; A99 refers to district name",
                "SELECT count(*) FROM loan");
        assertThat(run.answer()).contains("Read as: the hint's 'Percentage = count(loan_id) / 100', 'A99 refers to district name'"
                + " named nothing of this dataset I could use, so I read the question without them; 'loans' → table loan.");
    }

    @Test
    void two_alternatives_are_compared_by_one_number_each_and_the_winner_comes_first() throws Exception {
        AgentRun run = ask("Are there more loans in Prague or in Brno?");
        assertThat(run.kind()).as(run.answer()).isEqualTo(AnswerKind.ANSWER);
        long prague = ((Number) scalar("SELECT count(*) FROM loan l JOIN account a ON a.account_id = l.account_id JOIN district d"
                + " ON d.A1 = a.district_id WHERE d.A2 = 'Hl.m. Praha'")).longValue();
        long brno = ((Number) scalar("SELECT count(*) FROM loan l JOIN account a ON a.account_id = l.account_id JOIN district d"
                + " ON d.A1 = a.district_id WHERE d.A2 = 'Brno - mesto'")).longValue();
        assertThat(prague).isNotEqualTo(brno);
        List<Object> row = run.evidence().get(0).rows().get(0);
        assertThat(row.get(0)).isEqualTo(prague > brno ? "Hl.m. Praha" : "Brno - mesto");
        assertThat(((Number) row.get(1)).longValue()).isEqualTo(prague);
        assertThat(((Number) row.get(2)).longValue()).isEqualTo(brno);
        assertThat(run.answer()).startsWith((prague > brno ? "Hl.m. Praha ('Prague') has more loans: " + prague + ", against "
                + brno + " for Brno - mesto ('Brno')." : "Brno - mesto ('Brno') has more loans: " + brno + ", against " + prague
                + " for Hl.m. Praha ('Prague')."));
        assertThat(run.answer()).contains("Read as: 'Prague or Brno' read as two questions: 'how many loans in Prague?' and"
                + " 'how many loans in Brno?'");
    }

    @Test
    void two_periods_are_compared_by_the_measure_of_each_year() throws Exception {
        AgentRun run = ask("1995 or 1996: which had the higher average unemployment?");
        assertThat(run.kind()).as(run.answer()).isEqualTo(AnswerKind.ANSWER);
        double y95 = ((Number) scalar("SELECT avg(A12) FROM district")).doubleValue();
        double y96 = ((Number) scalar("SELECT avg(A13) FROM district")).doubleValue();
        List<Object> row = run.evidence().get(0).rows().get(0);
        assertThat(row.get(0)).isEqualTo(y95 > y96 ? "1995" : "1996");
        assertThat(((Number) row.get(1)).doubleValue()).isCloseTo(y95, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(((Number) row.get(2)).doubleValue()).isCloseTo(y96, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(run.answer()).contains("'1995 or 1996' read as two questions: 'what is the average unemployment in 1995?'"
                + " and 'what is the average unemployment in 1996?'");
    }

    @Test
    void alternatives_that_read_as_different_kinds_of_number_are_not_compared() throws Exception {
        AgentRun run = ask("Which is higher: the number of loans or the average loan amount?");
        assertThat(run.kind()).isEqualTo(AnswerKind.CLARIFICATION);
        assertThat(run.evidence()).isEmpty();
    }

    @Test
    void a_value_right_after_its_column_is_that_column_s_value() throws Exception {
        rows("List the districts with region Prague.", "SELECT A1 FROM district WHERE A3 = 'Prague'");
        rows("How many clients are there whose gender is F?", "SELECT count(*) FROM client WHERE gender = 'F'");
        rows("What is the number of loans whose amount is above 100000?", "SELECT count(*) FROM loan WHERE amount > 100000");
        rows("What is the highest a11 of districts?", "SELECT max(A11) FROM district");
    }

    @Test
    void a_share_is_of_the_rows_before_the_main_verb_and_counts_what_follows_it() throws Exception {
        share("What percentage of clients with a gold card are women?", "SELECT 100.0 * count(*) FILTER (WHERE c.gender = 'F')"
                + " / count(*) FROM client c WHERE c.client_id IN (SELECT dp.client_id FROM disp dp JOIN card cd ON cd.disp_id ="
                + " dp.disp_id WHERE cd.type = 'gold')");
        share("What percentage of female clients live in Prague?", "SELECT 100.0 * count(*) FILTER (WHERE d.A2 = 'Hl.m. Praha')"
                + " / count(*) FROM client c JOIN district d ON d.A1 = c.district_id WHERE c.gender = 'F'");
        share("What percentage of loans that are running are in debt?", "SELECT 100.0 * count(*) FILTER (WHERE status = 'D')"
                + " / count(*) FROM loan WHERE status IN ('C', 'D')");
        share("What is the percentage of loans that are running?", "SELECT 100.0 * count(*) FILTER (WHERE status IN ('C', 'D'))"
                + " / count(*) FROM loan");
    }

    private static void share(String q, String independent) throws Exception {
        AgentRun run = ask(q);
        assertThat(run.kind()).as(run.answer()).isEqualTo(AnswerKind.ANSWER);
        assertThat(((Number) run.evidence().get(0).rows().get(0).get(0)).doubleValue()).as(q).isCloseTo(((Number) scalar(independent))
                .doubleValue(), org.assertj.core.data.Offset.offset(1e-9));
    }

    @Test
    void the_ids_of_a_table_are_its_key_and_an_id_may_follow_is() throws Exception {
        rows("What are the IDs of the loans over 300000?", "SELECT loan_id FROM loan WHERE amount > 300000");
        rows("List out the IDs of gold cards.", "SELECT card_id FROM card WHERE type = 'gold'");
        Object id = scalar("SELECT max(client_id) FROM client");
        rows("What is the gender of the client whose ID is " + id + "?", "SELECT gender FROM client WHERE client_id = " + id);
    }

    @Test
    void one_row_reached_from_a_row_named_by_its_id_is_one_value() throws Exception {
        rows("What is the average salary of the district where client 5 lives?", "SELECT d.A11 FROM client c JOIN district d"
                + " ON d.A1 = c.district_id WHERE c.client_id = 5");
    }

    @Test
    void what_table_with_the_highest_value_asks_for_the_row_not_the_value() throws Exception {
        rows("What is the district with the lowest average salary?", "SELECT A2 FROM district ORDER BY A11, A1 LIMIT 1");
        rows("Which 3 districts have the most female clients?", "SELECT d.A2, count(*) AS n FROM client c JOIN district d ON"
                + " d.A1 = c.district_id WHERE c.gender = 'F' GROUP BY d.A2 ORDER BY n DESC, d.A2 LIMIT 3");
    }

    @Test
    void a_table_said_to_be_what_other_rows_are_is_asked_back() throws Exception {
        AgentRun run = ask("How many credits are there among the transactions?");
        assertThat(run.kind()).isEqualTo(AnswerKind.CLARIFICATION);
        assertThat(run.answer()).startsWith("The question says the loan rows are 'transactions', which are rows of table trans,"
                + " not of loan.");
    }

    @Test
    void a_verb_after_the_subject_and_were_dates_the_subject_whatever_table_its_word_names() throws Exception {
        AgentRun run = rows("How many loans were issued in 1996?", "SELECT count(*) FROM loan WHERE year(date) = 1996");
        assertThat(run.answer()).contains("'were issued' → the date loan.date of the loan rows").doesNotContain("card.issued");
        rows("How many loans in debt belong to accounts whose owner was born before 1950?", "SELECT count(*) FROM loan l"
                + " JOIN disp dp ON dp.account_id = l.account_id JOIN client c ON c.client_id = dp.client_id WHERE l.status = 'D'"
                + " AND dp.type = 'OWNER' AND c.birth_date < DATE '1950-01-01'");
    }

    @Test
    void borrowers_are_the_owners_of_accounts_with_a_loan() throws Exception {
        value("What is the average loan amount for male borrowers?", "SELECT avg(l.amount) FROM loan l JOIN disp dp"
                + " ON dp.account_id = l.account_id AND dp.type = 'OWNER' JOIN client c ON c.client_id = dp.client_id"
                + " WHERE c.gender = 'M'");
    }

    @Test
    void a_year_right_after_a_measure_dates_the_rows_measured_not_the_rows_grouped() throws Exception {
        AgentRun run = rows("Show the 3 accounts with the highest total transaction amount in 1994.", "SELECT t.account_id,"
                + " sum(t.amount) AS total FROM trans t WHERE year(t.date) = 1994 GROUP BY 1 ORDER BY total DESC, 1 LIMIT 3");
        assertThat(run.answer()).contains("year(trans.date) = 1994").doesNotContain("year(account.date)");
    }

    @Test
    void a_size_word_is_never_read_as_the_latest_date() throws Exception {
        AgentRun run = ask("When was the client with the biggest loan born?");
        assertThat(run.kind()).as(run.answer()).isNotEqualTo(AnswerKind.ANSWER);
        assertThat(run.evidence()).noneMatch(e -> e.sql() != null && e.sql().contains("max(client.birth_date)"));
    }

    @Test
    void a_count_asked_beside_another_aggregate_is_not_dropped() throws Exception {
        AgentRun run = ask("By loan status, how many loans are there and what is the average loan amount?");
        assertThat(run.kind()).as(run.answer()).isEqualTo(AnswerKind.CLARIFICATION);
        assertThat(run.answer()).contains("'how many'");
    }

    @Test
    void a_participle_after_the_subject_narrows_the_rows_a_percentage_is_of() throws Exception {
        value("What percentage of clients living in Prague are women?", "SELECT 100.0 * avg(CASE WHEN c.gender = 'F'"
                + " THEN 1 ELSE 0 END) FROM client c JOIN district d ON d.A1 = c.district_id WHERE d.A2 = 'Hl.m. Praha'");
    }

    @Test
    void a_percentage_narrowed_by_related_rows_no_condition_names_is_asked_back() throws Exception {
        askedBack("What percentage of accounts that have a card get weekly statements?", "narrows the account rows by their card rows");
    }

    @Test
    void two_values_for_one_column_at_once_are_asked_back_not_counted_as_zero() throws Exception {
        askedBack("How many more loans were granted in 1997 than in 1995?", "two values (1997 and 1995)");
    }

    @Test
    void the_largest_rows_are_never_the_ones_with_the_highest_ids() throws Exception {
        askedBack("List the loan IDs and amounts of the three largest loans.", "an identifier");
    }

    @Test
    void percent_after_a_number_is_its_unit_not_a_request_for_a_percentage() throws Exception {
        rows("How many clients live in districts where unemployment in 1995 was over 3 percent?", "SELECT count(*) FROM"
                + " client c JOIN district d ON d.A1 = c.district_id WHERE d.A12 > 3");
    }

    @Test
    void a_column_of_another_table_has_the_subjects_qualified_column_as_its_rival() throws Exception {
        dev.sift.planner.rules.Lexicon lexicon = dev.sift.planner.rules.Lexicon.of(KNOWLEDGE.of(ws));
        var bank = lexicon.graph().column("trans", "bank").orElseThrow();
        var rival = lexicon.namedLike("order", new dev.sift.planner.rules.Sense.Attr("trans", "trans.bank", "trans.bank",
                bank.type()));
        assertThat(rival).map(dev.sift.planner.rules.Sense.Attr::name).contains("order.bank_to");
        assertThat(lexicon.namedLike("trans", new dev.sift.planner.rules.Sense.Attr("trans", "trans.bank", "trans.bank",
                bank.type()))).as("a column of the subject itself").isEmpty();
    }
}
