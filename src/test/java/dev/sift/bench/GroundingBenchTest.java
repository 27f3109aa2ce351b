package dev.sift.bench;

import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class GroundingBenchTest {

    @Test
    void measures_each_answer_size_and_finds_the_cited_numbers_supported() {
        GroundingBench b = new GroundingBench(200);
        List<GroundingBench.Row> rows = b.run();

        assertThat(rows).extracting(GroundingBench.Row::numbers).containsExactly(1, 5, 10, 20);
        // One number in five is invented; the others are cells written in another locale, rounded or as a percentage.
        assertThat(rows.get(3).supported()).isBetween(0.7, 0.9);
        rows.forEach(r -> {
            assertThat(r.p50()).isPositive().isLessThanOrEqualTo(r.p99());
            assertThat(r.cpuP50()).isLessThanOrEqualTo(r.cpuP99());
        });

        StringWriter text = new StringWriter();
        b.print(rows, new PrintWriter(text));
        assertThat(text.toString()).startsWith("Answer check cost (200 answers per size, evidence 50 rows × 10 columns;"
                + " index + check)").contains("target p99 < 2 ms: ");
    }
}
