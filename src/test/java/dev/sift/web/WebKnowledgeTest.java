package dev.sift.web;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sift.TestDatasets;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;

import static dev.sift.web.WebFixture.json;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Teaching Sift in the app: the knowledge graph shown, a synonym, an approved join and a metric added, an answer
 * marked right — each written to the shop's knowledge file, checked against the live data first (400 naming the entry
 * and the fix, the file left as it was), and used by the next question.
 */
class WebKnowledgeTest {
    @TempDir
    Path home;
    private Path file;

    @BeforeEach
    void shop() throws Exception {
        WebFixture.link(home, TestDatasets.shop());
        file = home.resolve("kg").resolve("shop.kg.yaml");
    }

    private static JsonNode answered(WebFixture w, String session, String question) throws Exception {
        String run = w.ask(session, question);
        w.events(run);
        com.fasterxml.jackson.databind.node.ObjectNode r = (com.fasterxml.jackson.databind.node.ObjectNode) json(
                w.get("/api/runs/" + run));
        return r.put("run_id", run);
    }

    private static String shopSession(WebFixture w) throws Exception {
        return json(w.post("/api/sessions", "{\"dataset\":\"shop\"}")).get("id").asText();
    }

    private static void refused(HttpResponse<String> r, String error) throws Exception {
        assertThat(r.statusCode()).as(r.body()).isEqualTo(400);
        assertThat(json(r).get("error").asText()).isEqualTo(error);
    }

    @Test
    void the_graph_shows_tables_columns_joins_with_their_status_and_where_the_file_is() throws Exception {
        try (WebFixture w = new WebFixture(home)) {
            JsonNode g = json(w.get("/api/datasets/shop/kg"));
            assertThat(g.get("dataset").asText()).isEqualTo("shop");
            assertThat(g.get("file").asText()).isEqualTo(file.toString());
            assertThat(g.get("file_exists").asBoolean()).isFalse();
            assertThat(g.get("tables")).extracting(t -> t.get("name").asText()).containsExactly("customers", "orders", "products");
            JsonNode join = null;
            for (JsonNode j : g.get("joins")) {
                if (j.get("from").asText().equals("orders.customer_id")) {
                    join = j;
                }
            }
            assertThat(join).isNotNull();
            assertThat(join.get("to").asText()).isEqualTo("customers.customer_id");
            assertThat(join.get("approved").asBoolean()).isTrue();
            assertThat(join.get("curated").asBoolean()).isFalse();
            assertThat(join.get("cardinality").asText()).isEqualTo("many-to-one");
            assertThat(w.get("/api/datasets/nope/kg").statusCode()).isEqualTo(404);
        }
    }

    @Test
    void a_synonym_is_saved_to_the_file_keeping_its_comments_and_the_next_question_uses_it() throws Exception {
        Files.createDirectories(file.getParent());
        Files.writeString(file, "# my shop\nconcepts:\n  # words people use\n");
        try (WebFixture w = new WebFixture(home)) {
            String session = shopSession(w);
            assertThat(answered(w, session, "How many buyers are there?").get("kind").asText()).isEqualTo("clarification");
            HttpResponse<String> r = w.post("/api/datasets/shop/kg/synonyms", "{\"phrase\": \"buyers\", \"table\": \"customers\"}");
            assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
            assertThat(json(r).get("file").asText()).isEqualTo(file.toString());
            assertThat(Files.readString(file)).startsWith("# my shop\nconcepts:\n").contains("  # words people use\n","- name: \"buyers\"\n    synonyms: [\"buyers\"]\n    table: \"customers\"");
            JsonNode a = answered(w, session, "How many buyers are there?");
            assertThat(a.get("kind").asText()).as(a.get("answer").asText()).isEqualTo("answer");
            assertThat(a.get("evidence").get(0).get("rows").get(0).get(0).asLong()).isEqualTo(160);
            assertThat(json(w.get("/api/datasets/shop/kg")).get("concepts")).extracting(c -> c.get("name").asText())
                    .contains("buyers");
        }
    }

    @Test
    void a_synonym_that_does_not_fit_the_data_is_a_400_naming_the_entry_and_the_file_is_not_written() throws Exception {
        try (WebFixture w = new WebFixture(home)) {
            refused(w.post("/api/datasets/shop/kg/synonyms", "{\"phrase\": \"buyers\", \"table\": \"client\"}"),
                    file + ": concepts[buyers]: table 'client' does not exist. Tables: customers, orders, products.");
            refused(w.post("/api/datasets/shop/kg/synonyms", "{\"phrase\": \"price\", \"column\": \"products.price\"}"),
                    file + ": concepts[price]: column products.price does not exist. Table products has columns: product_id,"
                            + " product_name, category, unit_price, unit_cost. Did you mean 'unit_price'?");
            refused(w.post("/api/datasets/shop/kg/synonyms", "{\"table\": \"customers\"}"),
                    "'phrase' is missing: send e.g. {\"phrase\": \"buyers\", \"table\": \"customers\"}.");
            refused(w.post("/api/datasets/shop/kg/synonyms", "{\"phrase\": \"buyers\"}"), "Name what 'buyers' means: either"
                    + " \"table\" (e.g. \"customers\") or \"column\" as table.column (e.g. \"products.unit_price\"), not both.");
            assertThat(file).doesNotExist();
        }
    }

    @Test
    void a_metric_is_checked_against_the_data_saved_and_answers_the_next_question() throws Exception {
        try (WebFixture w = new WebFixture(home)) {
            String revenue = "{\"name\": \"revenue\", \"description\": \"quantity times unit price\", \"expression\":"
                    + " \"sum(orders.quantity * products.unit_price)\", \"grain\": \"orders\", \"tables\": [\"orders\", \"products\"],"
                    + " \"synonyms\": [\"turnover\"], \"unit\": \"GBP\"}";
            HttpResponse<String> r = w.post("/api/datasets/shop/kg/metrics", revenue);
            assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
            assertThat(json(r).get("section").asText()).isEqualTo("metrics");
            JsonNode a = answered(w, shopSession(w), "What is the turnover?");
            assertThat(a.get("kind").asText()).as(a.get("answer").asText()).isEqualTo("answer");
            assertThat(a.get("evidence").get(0).get("sql").asText()).contains("sum(orders.quantity * products.unit_price)");
            String text = Files.readString(file);
            refused(w.post("/api/datasets/shop/kg/metrics", revenue), file + ": metrics[revenue]: an entry of that name is in"
                    + " the file already; choose another name, or edit that entry in the file");
            refused(w.post("/api/datasets/shop/kg/metrics", "{\"name\": \"Units sold\", \"expression\": \"sum(orders.quantty)\","
                    + " \"grain\": \"orders\"}"), file + ": metrics[units_sold]: column orders.quantty does not exist. Table orders"
                    + " has columns: order_id, customer_id, product_id, order_date, quantity, channel, status, discount,"
                    + " delivery_date. Did you mean 'quantity'?");
            refused(w.post("/api/datasets/shop/kg/metrics", "{\"name\": \"units\", \"expression\": \"sum(orders.quantity)\"}"),
                    "'grain' is missing: send e.g. {\"name\": \"revenue\", \"expression\": \"sum(orders.quantity *"
                            + " products.unit_price)\", \"grain\": \"orders\", \"tables\": [\"orders\", \"products\"]}.");
            assertThat(Files.readString(file)).isEqualTo(text);
        }
    }

    @Test
    void a_join_is_approved_in_the_file_and_a_join_of_missing_columns_is_refused() throws Exception {
        try (WebFixture w = new WebFixture(home)) {
            HttpResponse<String> r = w.post("/api/datasets/shop/kg/joins", "{\"from\": \"orders.product_id\", \"to\":"
                    + " \"products.product_id\", \"meaning\": \"the product ordered\"}");
            assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
            assertThat(json(r).get("entry").get("name").asText()).isEqualTo("orders_product_id_products");
            assertThat(json(r).get("entry").get("cardinality").asText()).isEqualTo("many-to-one");
            assertThat(json(r).get("entry").get("coverage").asDouble()).isEqualTo(1.0);
            assertThat(Files.readString(file)).endsWith("join_paths:\n  - name: \"orders_product_id_products\"\n"
                    + "    from: \"orders.product_id\"\n    to: \"products.product_id\"\n    meaning: \"the product ordered\"\n"
                    + "    cardinality: \"many-to-one\"\n    coverage: 1.0\n");
            JsonNode joins = json(w.get("/api/datasets/shop/kg")).get("joins");
            assertThat(joins).anySatisfy(j -> {
                assertThat(j.get("from").asText()).isEqualTo("orders.product_id");
                assertThat(j.get("curated").asBoolean()).isTrue();
                assertThat(j.get("meaning").asText()).isEqualTo("the product ordered");
                assertThat(j.get("cardinality").asText()).isEqualTo("many-to-one");
                assertThat(j.get("coverage").asDouble()).isEqualTo(1.0);
            });
            refused(w.post("/api/datasets/shop/kg/joins", "{\"from\": \"orders.buyer_id\", \"to\": \"customers.customer_id\"}"),
                    file + ": join_paths[orders_buyer_id_customers]: column orders.buyer_id does not exist. Table orders has"
                            + " columns: order_id, customer_id, product_id, order_date, quantity, channel, status, discount,"
                            + " delivery_date.");
            refused(w.post("/api/datasets/shop/kg/joins", "{\"from\": \"orders\", \"to\": \"customers.customer_id\"}"),
                    "A join needs \"from\" and \"to\" as table.column, e.g. {\"from\": \"orders.customer_id\", \"to\":"
                            + " \"customers.customer_id\"}; got 'orders' and 'customers.customer_id'.");
        }
    }

    @Test
    void a_join_whose_values_do_not_match_on_the_data_is_refused_with_the_share_found_and_the_file_is_not_written()
            throws Exception {
        try (WebFixture w = new WebFixture(home)) {
            refused(w.post("/api/datasets/shop/kg/joins", "{\"from\": \"orders.order_id\", \"to\": \"customers.customer_id\"}"),
                    file + ": join_paths[orders_order_id_customers]: only 8.89% of the values of orders.order_id (160 of 1,800)"
                            + " are found in customers.customer_id, so the two columns do not hold the same identifiers (a join"
                            + " needs at least 50%). Approve orders.customer_id → customers.customer_id instead (100% found), or"
                            + " fix the values first.");
            refused(w.post("/api/datasets/shop/kg/joins", "{\"from\": \"customers.customer_id\", \"to\": \"orders.customer_id\"}"),
                    file + ": join_paths[customers_customer_id_orders]: the values of orders.customer_id repeat (or are"
                            + " missing), so a row of customers would meet several rows of orders; a join points at the column"
                            + " that identifies its table's rows. Approve it the other way round: from orders.customer_id to"
                            + " customers.customer_id.");
            refused(w.post("/api/datasets/shop/kg/joins", "{\"from\": \"orders.channel\", \"to\": \"customers.customer_id\"}"),
                    file + ": join_paths[orders_channel_customers]: orders.channel (VARCHAR) and customers.customer_id"
                            + " (BIGINT) cannot be compared: a join needs two columns that hold the same identifiers. Approve"
                            + " orders.customer_id → customers.customer_id instead (100% found), or fix the values first.");
            assertThat(file).doesNotExist();
        }
    }

    @Test
    void a_join_on_several_columns_is_sent_as_lists_and_malformed_or_unequal_lists_are_refused() throws Exception {
        try (WebFixture w = new WebFixture(home)) {
            refused(w.post("/api/datasets/shop/kg/joins", "{\"from\": [\"orders.customer_id\", \"orders\"],"
                    + " \"to\": [\"customers.customer_id\", \"customers.city\"]}"),
                    "A join on several columns needs \"from\" as a list of table.column, e.g. {\"from\": [\"deps.system\","
                            + " \"deps.name\"], \"to\": [\"packages.system\", \"packages.name\"]}; got"
                            + " [\"orders.customer_id\",\"orders\"].");
            refused(w.post("/api/datasets/shop/kg/joins", "{\"from\": [\"orders.customer_id\", \"orders.channel\"],"
                    + " \"to\": [\"customers.customer_id\"]}"),
                    file + ": join_paths[orders_customer_id_customers]: 'from' names 2 column(s) and 'to' 1; a join on"
                            + " several columns pairs them in order, so both lists need the same length.");
            assertThat(file).doesNotExist();
        }
    }

    @Test
    void an_answer_marked_right_becomes_a_verified_example_that_answers_the_question_again() throws Exception {
        try (WebFixture w = new WebFixture(home)) {
            String session = shopSession(w);
            JsonNode a = answered(w, session, "How many orders were returned?");
            HttpResponse<String> r = w.post("/api/runs/" + a.get("run_id").asText() + "/save", "");
            assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
            assertThat(json(r).get("entry").get("question").asText()).isEqualTo("How many orders were returned?");
            String sql = a.get("evidence").get(0).get("sql").asText();
            assertThat(json(r).get("entry").get("sql").asText()).isEqualTo(sql);
            assertThat(Files.readString(file)).contains("examples:\n  - question: \"How many orders were returned?\"");
            JsonNode again = answered(w, session, "how many orders were returned");
            assertThat(again.get("answer").asText()).startsWith("Answered with the SQL saved for this question (a verified"
                    + " example in " + file + ")");
            assertThat(json(w.get("/api/datasets/shop/kg")).get("examples")).extracting(x -> x.get("sql").asText())
                    .containsExactly(sql);

            JsonNode asked = answered(w, session, "How many customers churned last quarter?");
            refused(w.post("/api/runs/" + asked.get("run_id").asText() + "/save", ""), "Nothing to save: the run ended with a"
                    + " clarification and no query answered it; only an answer built from a query can be saved as a verified"
                    + " example.");
            HttpResponse<String> missing = w.post("/api/runs/nope/save", "");
            assertThat(missing.statusCode()).isEqualTo(404);
        }
    }
}
