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
 * The offline planner on a user's own shop with the automatic graph only: how a question's words decide what is
 * counted, grouped, ranked and dated, each answer checked against independently written SQL, and the readings it
 * must ask about instead of answering.
 */
class ShopPlannerTest {
    private static final OfflineAnswers OFFLINE = new OfflineAnswers();
    private static Workspace ws;

    @BeforeAll
    static void open() throws Exception {
        ws = Workspace.open(TestDatasets.shop(), Workspace.Limits.defaults());
    }

    @AfterAll
    static void close() {
        ws.close();
    }

    private static AgentRun ask(String q) throws Exception {
        return OFFLINE.ask(ws, q);
    }

    private static void answers(String question, String gold) throws Exception {
        OFFLINE.answers(ws, question, gold);
    }

    private static AgentRun asked(String question) throws Exception {
        return OFFLINE.asksBack(ws, question);
    }

    @Test
    void a_clarification_quotes_examples_from_the_shops_own_tables_that_the_planner_answers() throws Exception {
        String answer = asked("How many customers churned last quarter?").answer();
        assertThat(answer).contains("of the tables customers, orders, products", "(e.g. 'How many orders are there?', 'How many"
                + " customers are there?')").doesNotContain("loan", "account", " rows are there");
        answers("How many orders are there?", "SELECT count(*) FROM orders");
        assertThat(asked("What values does it take?").answer()).contains("name it as table.column, e.g. 'what values does"
                + " customers.city take?'");
    }

    @Test
    void an_average_per_row_of_the_measures_own_table_is_the_plain_average() throws Exception {
        answers("What is the average quantity per order?", "SELECT avg(quantity) FROM orders");
        assertThat(asked("What is the total quantity per order?").answer())
                .startsWith("'per order' would give one group for each orders row, since orders.quantity is a value of each row");
    }

    @Test
    void a_value_of_another_table_before_a_table_qualifies_the_rows_that_are_counted() throws Exception {
        answers("How many Toys orders were returned?", "SELECT count(*) FROM orders o JOIN products p USING (product_id)"
                + " WHERE p.category = 'Toys' AND o.status = 'returned'");
    }

    @Test
    void which_value_has_the_most_rows_is_a_ranking_not_a_list_of_values() throws Exception {
        answers("Which category has the most orders?", "SELECT p.category FROM orders o JOIN products p USING (product_id)"
                + " GROUP BY 1 ORDER BY count(*) DESC LIMIT 1");
        answers("What is the average quantity per order by segment?", "SELECT c.segment, avg(o.quantity) FROM orders o"
                + " JOIN customers c USING (customer_id) GROUP BY 1 ORDER BY 1");
    }

    @Test
    void transaction_verbs_are_read_when_the_question_reads_the_table_of_the_transactions() throws Exception {
        answers("How many orders did Business customers place?", "SELECT count(*) FROM orders o JOIN customers c"
                + " USING (customer_id) WHERE c.segment = 'Business'");
        answers("What are the top 3 products by quantity sold?", "SELECT p.product_name, sum(o.quantity) AS q FROM orders o"
                + " JOIN products p USING (product_id) GROUP BY p.product_name, p.product_id ORDER BY q DESC, p.product_id LIMIT 3");
        assertThat(asked("How many products were sold?").answer()).startsWith("I could not map 'sold' to anything");
    }

    @Test
    void a_verb_that_names_a_date_column_dates_the_question_and_a_passive_date_belongs_to_the_subject() throws Exception {
        answers("How many customers signed up in 2022?", "SELECT count(*) FROM customers WHERE year(signup_date) = 2022");
        answers("How many orders from London customers were placed in 2024?", "SELECT count(*) FROM orders o JOIN customers c"
                + " USING (customer_id) WHERE c.city = 'London' AND year(o.order_date) = 2024");
        answers("How many customers made an order in 2024?", "SELECT count(DISTINCT customer_id) FROM orders"
                + " WHERE year(order_date) = 2024");
        assertThat(asked("How many orders of London customers in 2024?").answer()).startsWith("I could not tell which date"
                + " 'in 2024' refers to: orders.order_date or customers.signup_date");
    }

    @Test
    void the_most_expensive_product_is_ranked_by_its_price_and_named() throws Exception {
        answers("What is the most expensive product?", "SELECT product_name FROM products ORDER BY unit_price DESC LIMIT 1");
        answers("What are the 3 cheapest products?", "SELECT product_name, unit_price FROM products ORDER BY unit_price LIMIT 3");
    }

    @Test
    void a_value_spelt_exactly_beats_its_near_duplicate_and_case_variants_are_asked_about() throws Exception {
        answers("How many orders are for Electronics products?", "SELECT count(*) FROM orders o JOIN products p"
                + " USING (product_id) WHERE p.category = 'Electronics'");
        assertThat(asked("How many orders came through the web channel?").answer()).contains("it matches the values 'Web',"
                + " 'web' of orders.channel, which may be one thing written in several ways");
    }
}
