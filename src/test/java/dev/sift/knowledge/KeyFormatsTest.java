package dev.sift.knowledge;

import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class KeyFormatsTest {
    @Test
    void keys_that_differ_by_prefix_case_or_padding_join_on_their_number() {
        assertThat(KeyFormats.joinable(List.of("businessref_12", "businessref_7"),
                List.of("businessid_7", "businessid_12", "businessid_3"))).isTrue();
        assertThat(KeyFormats.joinable(List.of("C-0042", "c-7"), List.of("c42", "C7"))).isTrue();
        assertThat(KeyFormats.joinable(List.of("0042", "0007"), List.of("42", "7"))).isTrue();
    }

    @Test
    void keys_that_already_join_as_they_are_or_do_not_join_at_all_are_not_offered() {
        assertThat(KeyFormats.joinable(List.of("id_1", "id_2"), List.of("id_1", "id_2", "id_3"))).isFalse();
        assertThat(KeyFormats.joinable(List.of("12", "7"), List.of("7", "12"))).isFalse(); // plain numbers: no format
        assertThat(KeyFormats.joinable(List.of("ref_1", "ref_99"), List.of("id_1", "id_2"))).isFalse(); // 50 % found
        assertThat(KeyFormats.joinable(List.of("Prague", "Brno"), List.of("id_1"))).isFalse(); // no number
        assertThat(KeyFormats.joinable(List.of(), List.of("id_1"))).isFalse();
    }

    @Test
    void the_sql_transform_reduces_values_as_the_java_check_does() throws Exception {
        try (Connection db = DriverManager.getConnection("jdbc:duckdb:");
             Statement st = db.createStatement();
             ResultSet rs = st.executeQuery("SELECT " + KeyFormats.normalise("v") + " FROM (VALUES ('businessid_0012'), "
                     + "('C-7x'), ('0042'), ('000')) t(v)")) {
            List<String> java = List.of("businessid_0012", "C-7x", "0042", "000").stream().map(KeyFormats::number).toList();
            for (String expected : java) {
                rs.next();
                assertThat(rs.getString(1)).isEqualTo(expected);
            }
        }
        assertThat(KeyFormats.condition("r.business_ref", "b.business_id"))
                .isEqualTo(KeyFormats.normalise("r.business_ref") + " = " + KeyFormats.normalise("b.business_id"));
    }
}
