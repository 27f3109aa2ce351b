package dev.sift.knowledge;

import dev.sift.TestDatasets;
import dev.sift.data.Dataset;
import dev.sift.data.Workspace;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Code columns whose names say nothing of the key they hold are joined by their values, with the share matched. */
class CodeJoinsTest {
    private static final String[] CODES = {"SFO", "LAX", "JFK", "ORD", "SEA", "BOS", "DEN", "ATL"};

    private static String airports() {
        StringBuilder b = new StringBuilder("iata,name,city\n");
        for (String c : CODES) {
            b.append(c).append(',').append(c).append(" Airport,City ").append(c).append('\n');
        }
        return b.append("AAA,Unused,Nowhere\n").toString();
    }

    private static String flights(boolean destination, int unknown) {
        StringBuilder b = new StringBuilder("flight,delay,origin" + (destination ? ",destination" : "") + "\n");
        for (int i = 0; i < 200; i++) {
            b.append(i).append(',').append(i % 40).append(',').append(i < unknown ? "XYZ" : CODES[i % CODES.length]);
            b.append(destination ? "," + CODES[(i + 3) % CODES.length] : "").append('\n');
        }
        return b.toString();
    }

    @Test
    void a_code_column_whose_every_value_is_another_tables_key_is_an_approved_join() throws Exception {
        Dataset ds = TestDatasets.csv("code_join", Map.of("airports.csv", airports(), "flights.csv", flights(false, 0)));
        try (Workspace ws = Workspace.open(ds, Workspace.Limits.defaults())) {
            assertThat(KgBuilder.build(ws).joins()).extracting(KgEntry::describe).containsExactly(
                    "join flights.origin = airports.iata (approved: key → foreign key, many-to-one)");
        }
    }

    @Test
    void two_code_columns_to_one_key_are_both_proposed_with_their_share_and_left_for_the_user_to_choose() throws Exception {
        Dataset ds = TestDatasets.csv("code_joins", Map.of("airports.csv", airports(), "flights.csv", flights(true, 0)));
        try (Workspace ws = Workspace.open(ds, Workspace.Limits.defaults())) {
            assertThat(KgBuilder.build(ws).joins()).extracting(KgEntry::describe).containsExactlyInAnyOrder(
                    "join flights.origin = airports.iata (candidate, not approved: 100.0 % of values found; another join"
                            + " connects the same tables, so which one a question means is for the knowledge file)",
                    "join flights.destination = airports.iata (candidate, not approved: 100.0 % of values found; another"
                            + " join connects the same tables, so which one a question means is for the knowledge file)");
        }
    }

    @Test
    void a_code_column_with_unknown_codes_is_a_candidate_with_the_share_found_and_below_90_percent_nothing() throws Exception {
        Dataset some = TestDatasets.csv("code_some", Map.of("airports.csv", airports(), "flights.csv", flights(false, 20)));
        try (Workspace ws = Workspace.open(some, Workspace.Limits.defaults())) {
            assertThat(KgBuilder.build(ws).joins()).extracting(KgEntry::describe).containsExactly(
                    "join flights.origin = airports.iata (candidate, not approved: 90.0 % of values found)");
        }
        // 60 % found: a candidate for a column whose name points at the key, not for codes alone
        Dataset few = TestDatasets.csv("code_few", Map.of("airports.csv", airports(), "flights.csv", flights(false, 80)));
        try (Workspace ws = Workspace.open(few, Workspace.Limits.defaults())) {
            assertThat(KgBuilder.build(ws).joins()).isEmpty();
        }
    }

    @Test
    void values_of_another_shape_are_not_compared() {
        assertThat(KgBuilder.codeShape("SFO")).isEqualTo("AAA");
        assertThat(KgBuilder.codeShape("B-12")).isEqualTo("A-99");
        assertThat(KgBuilder.codeShape("San Francisco")).isNull();
        assertThat(KgBuilder.codeShape(null)).isNull();
    }
}
