package dev.sift.knowledge;

import dev.sift.TestDatasets;
import dev.sift.data.Dataset;
import dev.sift.data.Workspace;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Key pairs whose names do not tell, found by their values (DAB-style fixtures): the same code in two tables, a
 * number and the code carrying it, each proposed as a candidate join with its match share, never approved; a code
 * that only falls inside a long run of ids is not a pair.
 */
class KeyPairsTest {

    private static List<KgEntry.Join> candidates(Dataset d) throws Exception {
        try (Workspace ws = Workspace.open(d, Workspace.Limits.defaults())) {
            return KgBuilder.build(ws).joins().stream().filter(j -> !j.approved()).toList();
        }
    }

    @Test
    void the_same_clinic_code_in_two_tables_is_a_candidate_with_its_share() throws Exception {
        StringBuilder patients = new StringBuilder("patient_id,name,home_clinic\n");
        for (int i = 1; i <= 30; i++) {
            patients.append(i).append(",P").append(i).append(",CL-").append(10 + i % 8).append('\n');
        }
        StringBuilder visits = new StringBuilder("appointment_id,patient_id,clinic_ref,day\n");
        for (int i = 1; i <= 60; i++) {
            // 57 of 60 at a clinic some patient calls home, 3 at a clinic none does
            visits.append(i).append(',').append(1 + i % 30).append(",CL-").append(i <= 57 ? 10 + i % 8 : 40 + i)
                    .append(",2024-01-").append(10 + i % 15).append('\n');
        }
        List<KgEntry.Join> found = candidates(TestDatasets.csv("pairs_clinics", Map.of("patients.csv",
                patients.toString(), "appointments.csv", visits.toString())));
        assertThat(found).singleElement().satisfies(j -> {
            assertThat(j.written()).isIn("appointments.clinic_ref = patients.home_clinic",
                    "patients.home_clinic = appointments.clinic_ref");
            assertThat(j.normalised()).isFalse();
            assertThat(j.coverage()).isGreaterThanOrEqualTo(0.95);
        });
    }

    @Test
    void a_store_number_and_the_code_carrying_it_are_a_candidate_on_the_number() throws Exception {
        StringBuilder stores = new StringBuilder("store_id,city\n");
        for (int i = 1; i <= 12; i++) {
            stores.append(String.format("ST%03d", i)).append(i % 2 == 0 ? ",Reno" : ",Tampa").append('\n');
        }
        StringBuilder orders = new StringBuilder("order_id,store_num,total\n");
        for (int i = 1; i <= 80; i++) {
            orders.append(i).append(',').append(1 + i % 12).append(',').append(10 + i).append('\n');
        }
        List<KgEntry.Join> found = candidates(TestDatasets.csv("pairs_stores", Map.of("stores.csv", stores.toString(),
                "orders.csv", orders.toString())));
        assertThat(found).singleElement().satisfies(j -> {
            assertThat(j.written()).isEqualTo("orders.store_num = stores.store_id");
            assertThat(j.normalised()).isTrue();
            assertThat(j.coverage()).isEqualTo(1.0);
        });
    }

    @Test
    void an_item_code_and_the_product_id_it_carries_are_a_pair_but_not_the_customer_ids_around_it() throws Exception {
        StringBuilder products = new StringBuilder("product_id,title\n");
        for (int i = 1001; i <= 1040; i++) {
            products.append(i).append(",Item ").append(i).append('\n');
        }
        StringBuilder customers = new StringBuilder("customer_id,name\n");
        for (int i = 1; i <= 3000; i++) {
            customers.append(i).append(",C").append(i).append('\n');
        }
        StringBuilder lines = new StringBuilder("line_id,item_no,qty\n");
        for (int i = 1; i <= 120; i++) {
            lines.append(i).append(",ITM-").append(1001 + i % 40).append(',').append(1 + i % 4).append('\n');
        }
        List<KgEntry.Join> found = candidates(TestDatasets.csv("pairs_items", Map.of("products.csv", products.toString(),
                "customers.csv", customers.toString(), "order_lines.csv", lines.toString())));
        assertThat(found).singleElement().satisfies(j -> {
            assertThat(j.written()).isEqualTo("order_lines.item_no = products.product_id");
            assertThat(j.coverage()).isEqualTo(1.0);
            assertThat(j.approved()).isFalse();
        });
    }

    @Test
    void codes_of_different_things_with_no_shared_values_are_no_pair() throws Exception {
        StringBuilder a = new StringBuilder("ticket_id,queue_code\n");
        StringBuilder b = new StringBuilder("agent_id,desk_code\n");
        for (int i = 1; i <= 20; i++) {
            a.append(i).append(",Q-").append(100 + i).append('\n');
            b.append(i).append(",Q-").append(500 + i).append('\n');
        }
        assertThat(candidates(TestDatasets.csv("pairs_none", Map.of("tickets.csv", a.toString(), "agents.csv",
                b.toString())))).isEmpty();
    }
}
