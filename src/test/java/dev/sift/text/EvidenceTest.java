package dev.sift.text;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Evidence says when its rows are only the first of a larger result. */
class EvidenceTest {
    private static Evidence withRows(int rows, long count) {
        List<List<Object>> r = new ArrayList<>();
        for (int i = 0; i < rows; i++) {
            r.add(List.of(i));
        }
        return new Evidence("SELECT 1", List.of("n"), r, count, null);
    }

    @Test
    void rows_cut_below_the_count_or_an_unknown_count_are_truncated() {
        assertThat(withRows(50, 4000).truncated()).isTrue();
        assertThat(withRows(50, -1).truncated()).isTrue();
        assertThat(withRows(12, 12).truncated()).isFalse();
        assertThat(withRows(0, 0).truncated()).isFalse();
    }

    @Test
    void a_long_list_gives_its_count_its_first_rows_and_where_every_row_is() {
        Evidence saved = new Evidence("SELECT 1", List.of("n"), withRows(50, 4000).rows(), 4000, "loans");
        assertThat(EvidenceText.render(saved)).startsWith("The query returned 4000 rows (first 10 shown):\nn\n0\n1\n")
                .endsWith("\n9\nEvery row is in frame frames.loans; ask --json with --max-rows lists them all.");
        assertThat(EvidenceText.render(withRows(50, 4000))).endsWith("\n9\nask --json with --max-rows lists them all.");
        assertThat(EvidenceText.render(withRows(10, 10))).endsWith("\n9");
    }
}
