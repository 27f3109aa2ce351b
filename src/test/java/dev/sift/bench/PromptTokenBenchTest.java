package dev.sift.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sift.llm.LlmMessage;
import dev.sift.llm.LlmRequest;
import dev.sift.llm.ToolDefinition;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class PromptTokenBenchTest {

    @Test
    void percentiles_are_nearest_rank() {
        List<Integer> sorted = List.of(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20);
        assertThat(PromptTokenBench.percentile(sorted, 50)).isEqualTo(10);
        assertThat(PromptTokenBench.percentile(sorted, 95)).isEqualTo(19);
        assertThat(PromptTokenBench.percentile(List.of(7), 95)).isEqualTo(7);
        assertThat(PromptTokenBench.percentile(List.of(), 50)).isZero();
    }

    @Test
    void a_request_counts_its_messages_and_the_tool_definitions_sent_with_it() throws Exception {
        PromptTokenBench bench = new PromptTokenBench();
        LlmRequest plain = LlmRequest.of(LlmMessage.system("You are Sift."), LlmMessage.user("Question: How many loans?"));
        int text = bench.tokens(plain);
        assertThat(text).isBetween(8, 20);
        LlmRequest withTools = plain.withTools(List.of(new ToolDefinition("run_sql", "Run one read-only SQL query",
                new ObjectMapper().readTree("{\"type\":\"object\",\"properties\":{\"sql\":{\"type\":\"string\"}}}"))));
        assertThat(bench.tokens(withTools)).isGreaterThan(text + 10);
    }
}
