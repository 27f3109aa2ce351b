package dev.sift.knowledge;

import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The curated age is whole years on 1999-01-01: a birthday later in the year has not come yet. */
class CuratedAgeTest {
    @Test
    void age_counts_whole_years_not_year_boundaries() throws Exception {
        KgEntry.Concept age = KgLoader.bundled("bank").orElseThrow().entries().stream()
                .filter(e -> e instanceof KgEntry.Concept c && c.name().equals("age")).map(e -> (KgEntry.Concept) e)
                .findFirst().orElseThrow();
        List<Long> ages = new ArrayList<>();
        try (Connection db = DriverManager.getConnection("jdbc:duckdb:"); Statement st = db.createStatement();
             ResultSet rs = st.executeQuery("SELECT " + age.expression() + " FROM (VALUES (DATE '1970-01-01'), "
                     + "(DATE '1970-06-15'), (DATE '1970-12-31'), (DATE '1998-01-02')) client(birth_date)")) {
            while (rs.next()) {
                ages.add(rs.getLong(1));
            }
        }
        assertThat(ages).containsExactly(29L, 28L, 28L, 0L);
    }
}
