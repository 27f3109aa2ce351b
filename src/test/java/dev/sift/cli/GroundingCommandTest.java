package dev.sift.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code sift grounding check} on traces of the corpus in bench/grounding. */
class GroundingCommandTest {
    private static final Path SUM = Path.of("bench/grounding/real/model-bank-cards-sum.json");
    private static final Path OFFLINE = Path.of("bench/grounding/real/offline-bank-03.json");

    private static String[] run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(new PrintWriter(out), new PrintWriter(err), args);
        return new String[] {String.valueOf(code), out.toString(), err.toString()};
    }

    @Test
    void json_prints_one_object_per_trace_with_unsupported_and_derived_claims() throws Exception {
        String[] r = run("grounding", "check", "--json", SUM.toString(), OFFLINE.toString());
        assertThat(r[0]).isEqualTo("0");
        String[] lines = r[1].strip().split("\n");
        assertThat(lines).hasSize(2);
        JsonNode first = new ObjectMapper().readTree(lines[0]);
        assertThat(first.get("file").asText()).isEqualTo(SUM.toString());
        assertThat(first.get("verdict").asText()).isEqualTo("grounded");
        assertThat(first.get("unsupported").size()).isZero();
        assertThat(first.get("derived").get(0).get("formula").asText()).matches("\\d+ \\+ \\d+");
    }

    @Test
    void text_names_each_unsupported_number_and_totals(@TempDir Path dir) throws Exception {
        Path invented = dir.resolve("invented.json");
        String trace = Files.readString(SUM);
        Files.writeString(invented, trace.replaceFirst("\"answer\" : \"There are", "\"answer\" : \"Exactly 4,812 cards. There are"));
        String[] r = run("grounding", "check", invented.toString(), SUM.toString());
        assertThat(r[0]).isEqualTo("0");
        assertThat(r[1]).contains(invented + ": unsupported numbers", "  unsupported  4,812", SUM + ": grounded",
                "2 traces checked: 1 with unsupported numbers");
    }

    @Test
    void a_trace_that_cannot_be_read_is_named_and_exits_1(@TempDir Path dir) throws Exception {
        Path bad = dir.resolve("bad.json");
        Files.writeString(bad, "{not json");
        String[] r = run("grounding", "check", bad.toString(), SUM.toString());
        assertThat(r[0]).isEqualTo("1");
        assertThat(r[2]).startsWith("sift: error: " + bad + " is not a readable trace:");
        assertThat(r[1]).contains(SUM + ": grounded", "1 trace checked");
    }
}
