package dev.sift.knowledge;

import dev.sift.Sift;
import dev.sift.TestDatasets;
import dev.sift.agent.AgentConfig;
import dev.sift.agent.AgentLoop;
import dev.sift.agent.AgentRun;
import dev.sift.agent.AnswerKind;
import dev.sift.data.Dataset;
import dev.sift.data.Workspace;
import dev.sift.planner.RulePlanner;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Key → foreign-key joins proved by the data are approved automatically, and the offline planner follows them. */
class AutomaticJoinsTest {

    private static AgentRun ask(Workspace ws, String q) throws Exception {
        return new AgentLoop(new RulePlanner(), Sift.defaultTools(), ws, null, AgentConfig.defaults()).run(q);
    }

    @Test
    void a_proved_key_to_foreign_key_pair_is_approved_with_its_cardinality() throws Exception {
        try (Workspace ws = Workspace.open(TestDatasets.shop(), Workspace.Limits.defaults())) {
            KnowledgeGraph kg = KgBuilder.build(ws);
            assertThat(kg.joins()).extracting(KgEntry::describe).containsExactly(
                    "join orders.customer_id = customers.customer_id (approved: key → foreign key, many-to-one)",
                    "join orders.product_id = products.product_id (approved: key → foreign key, many-to-one)");
            assertThat(kg.joins()).allSatisfy(j -> assertThat(j.coverage()).isEqualTo(1.0));
        }
    }

    @Test
    void a_join_with_too_many_unmatched_values_stays_a_candidate_and_is_not_followed() throws Exception {
        StringBuilder sales = new StringBuilder("sale_id,shop_id,amount\n");
        for (int i = 1; i <= 100; i++) {
            sales.append(i).append(',').append(i <= 98 ? 1 + i % 2 : 9).append(",10\n"); // 98 % found
        }
        Dataset ds = TestDatasets.csv("loose_fk", Map.of("shops.csv", "shop_id,city\n1,Brno\n2,Praha\n",
                "sales.csv", sales.toString()));
        try (Workspace ws = Workspace.open(ds, Workspace.Limits.defaults())) {
            KgEntry.Join j = KgBuilder.build(ws).joins().get(0);
            assertThat(j.approved()).isFalse();
            assertThat(j.coverage()).isEqualTo(0.98);
            AgentRun run = ask(ws, "How many sales are in Brno?");
            assertThat(run.kind()).isEqualTo(AnswerKind.CLARIFICATION);
            assertThat(run.answer()).startsWith("I will not build this query: joining sales and shops would need the join"
                    + " sales.shop_id = shops.shop_id, which is only a candidate (98.0 % of sales.shop_id values are found in"
                    + " shops.shop_id; 99 % are needed); approve it under join_paths in the knowledge file (sift kg init"
                    + " loose_fk).");
        }
    }

    @Test
    void the_offline_planner_answers_across_tables_along_automatic_joins_counting_rows_once() throws Exception {
        try (Workspace ws = Workspace.open(TestDatasets.shop(), Workspace.Limits.defaults())) {
            AgentRun run = ask(ws, "How many customers in London have orders?");
            assertThat(run.kind()).as(run.answer()).isEqualTo(AnswerKind.ANSWER);
            Object gold = ws.query("SELECT count(DISTINCT c.customer_id) FROM customers c WHERE c.city = 'London'"
                    + " AND EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.customer_id)").scalar();
            assertThat(run.evidence().get(0).rows().get(0).get(0)).isEqualTo(gold);

            AgentRun byCategory = ask(ws, "What is the total quantity by category?");
            assertThat(byCategory.kind()).as(byCategory.answer()).isEqualTo(AnswerKind.ANSWER);
            assertThat(byCategory.evidence().get(0).sql()).contains("JOIN products ON orders.product_id = products.product_id");
            assertThat(byCategory.evidence().get(0).rows()).containsExactlyInAnyOrderElementsOf(ws.query(
                    "SELECT p.category, sum(o.quantity) FROM orders o JOIN products p USING (product_id) GROUP BY 1").rows());
        }
    }

    @Test
    void two_equally_short_paths_between_tables_end_in_a_question_naming_both() throws Exception {
        Dataset ds = TestDatasets.csv("two_ways", Map.of(
                "regions.csv", "region_id,region\n1,North\n2,South\n",
                "warehouses.csv", "warehouse_id,region_id\n1,1\n2,2\n",
                "stores.csv", "store_id,region_id\n1,2\n2,1\n",
                "shipments.csv", "shipment_id,warehouse_id,store_id,weight\n1,1,1,5\n2,2,2,7\n3,1,2,1\n"));
        try (Workspace ws = Workspace.open(ds, Workspace.Limits.defaults())) {
            AgentRun run = ask(ws, "How many shipments are in the North region?");
            assertThat(run.kind()).isEqualTo(AnswerKind.CLARIFICATION);
            assertThat(run.answer()).contains("shipments and regions are related in two ways:",
                    "shipments.store_id = stores.store_id and stores.region_id = regions.region_id",
                    "shipments.warehouse_id = warehouses.warehouse_id and warehouses.region_id = regions.region_id",
                    "Which one do you mean?");
        }
    }
}
