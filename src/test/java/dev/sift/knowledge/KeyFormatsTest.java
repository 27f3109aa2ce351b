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
    void codes_that_differ_by_prefix_case_or_padding_around_a_number_are_a_format_question() {
        assertThat(KeyFormats.codes("businessref_12", "businessid_7")).isTrue();
        assertThat(KeyFormats.codes("C-0042", "c42")).isTrue();
        assertThat(KeyFormats.codes("0042", "42")).isTrue();
    }

    @Test
    void equal_values_plain_numbers_and_text_without_a_number_are_not() {
        assertThat(KeyFormats.codes("id_1", "id_1")).isFalse();
        assertThat(KeyFormats.codes("12", "7")).isFalse(); // plain numbers: no format
        assertThat(KeyFormats.codes("Prague", "id_1")).isFalse(); // no number
        assertThat(KeyFormats.codes("id_1_x2", "id_1")).isTrue(); // the last number counts
        assertThat(KeyFormats.codes(null, "id_1")).isFalse();
    }

    @Test
    void the_duckdb_transform_reduces_values_as_the_java_twin_does() throws Exception {
        List<String> values = List.of("businessid_0012", "C-7x", "0042", "000");
        try (Connection db = DriverManager.getConnection("jdbc:duckdb:");
             Statement st = db.createStatement();
             ResultSet rs = st.executeQuery("SELECT " + KeyFormats.normalise("v") + " FROM (VALUES"
                     + " ('businessid_0012'), ('C-7x'), ('0042'), ('000')) t(v)")) {
            for (String v : values) {
                rs.next();
                assertThat(rs.getString(1)).isEqualTo(KeyFormats.number(v));
            }
        }
        assertThat(KeyFormats.condition("r.business_ref", "b.business_id")).isEqualTo(
                "ltrim(regexp_extract(CAST(r.business_ref AS VARCHAR), '([0-9]+)[^0-9]*$', 1), '0')"
                        + " = ltrim(regexp_extract(CAST(b.business_id AS VARCHAR), '([0-9]+)[^0-9]*$', 1), '0')");
    }

    @Test
    void stems_drop_id_like_endings() {
        assertThat(KeyFormats.stem("business_ref")).isEqualTo("business");
        assertThat(KeyFormats.stem("businessId")).isEqualTo("business");
        assertThat(KeyFormats.stem("cust_no")).isEqualTo("cust");
    }
}
