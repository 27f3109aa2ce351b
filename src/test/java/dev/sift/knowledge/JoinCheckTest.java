package dev.sift.knowledge;

import dev.sift.TestDatasets;
import dev.sift.data.Dataset;
import dev.sift.data.Workspace;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A join a person approves, measured on the data: accepted from half its values found, with what was found. */
class JoinCheckTest {
    private static final String WHERE = "my.kg.yaml: join_paths[j]";

    /** Members 1-4; visits by member 1, 1, 2, 3 and 9 (four of five found); badges of 2, 8 and 9 (one of three). */
    private static Dataset club() throws Exception {
        return TestDatasets.csv("join_check", Map.of("members.csv", "member_id,name\n1,Ann\n2,Bo\n3,Cy\n4,Di\n",
                "visits.csv", "visit_id,member_ref,room\n1,1,A\n2,1,B\n3,2,A\n4,3,C\n5,9,A\n",
                "badges.csv", "badge_id,holder\n10,2\n11,8\n12,9\n"));
    }

    private static Optional<JoinCheck.Measured> measure(String from, String to) throws Exception {
        try (Workspace ws = Workspace.open(club(), Workspace.Limits.defaults())) {
            return JoinCheck.measure(ws, KgBuilder.build(ws), from, to, WHERE);
        }
    }

    @Test
    void a_join_with_most_values_found_is_plausible_and_keeps_the_share_found_and_its_cardinality() throws Exception {
        assertThat(measure("visits.member_ref", "members.member_id"))
                .contains(new JoinCheck.Measured(KgEntry.Join.MANY_TO_ONE, 0.8));
        assertThat(measure("visits.visit_id", "members.member_id"))
                .contains(new JoinCheck.Measured(KgEntry.Join.ONE_TO_ONE, 0.8));
    }

    @Test
    void a_join_with_less_than_half_its_values_found_is_refused_with_the_share() {
        assertThatThrownBy(() -> measure("badges.holder", "members.member_id")).isInstanceOf(KgException.class)
                .hasMessage(WHERE + ": only 33.3% of the values of badges.holder (1 of 3) are found in members.member_id,"
                        + " so the two columns do not hold the same identifiers (a join needs at least 50%). Approve the"
                        + " column of badges that holds the values of members.member_id, or fix the values first.");
    }

    @Test
    void a_join_of_a_column_that_does_not_exist_is_left_to_the_file_check_to_name() throws Exception {
        assertThat(measure("visits.member", "members.member_id")).isEmpty();
        assertThat(measure("visits.member_ref", "member.member_id")).isEmpty();
    }

    @Test
    void the_measure_recorded_in_the_file_is_read_back_and_a_share_out_of_range_is_a_problem() {
        String entry = "join_paths:\n  - name: \"j\"\n    from: \"visits.member_ref\"\n    to: \"members.member_id\"\n"
                + "    cardinality: \"many-to-one\"\n    coverage: ";
        assertThat(KgLoader.parse(entry + "0.8\n", "my.kg.yaml").entries()).singleElement()
                .isInstanceOfSatisfying(KgEntry.Join.class, j -> {
                    assertThat(j.approved()).isTrue();
                    assertThat(j.cardinality()).isEqualTo(KgEntry.Join.MANY_TO_ONE);
                    assertThat(j.coverage()).isEqualTo(0.8);
                });
        assertThatThrownBy(() -> KgLoader.parse(entry + "80\n", "my.kg.yaml")).isInstanceOf(KgException.class)
                .hasMessage("my.kg.yaml: join_paths[j]: coverage '80' is not a share from 0 to 1 (e.g. 0.998)");
    }
}
