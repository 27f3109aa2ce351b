package dev.sift.planner.llm;

import dev.sift.Sift;
import dev.sift.agent.AnswerKind;
import dev.sift.agent.Decision;
import dev.sift.agent.UnreadableReplyException;
import dev.sift.llm.LlmResponse;
import dev.sift.llm.ToolCall;
import dev.sift.llm.ToolDefinition;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class NativeCallsTest {

    private static LlmResponse reply(String text, ToolCall... calls) {
        return new LlmResponse(text, 0, 0, "m", 0, false, List.of(calls));
    }

    @Test
    void a_native_call_becomes_the_same_decision_a_json_reply_gives() throws Exception {
        Decision d = NativeCalls.read(reply("count them", new ToolCall("x", "run_sql", "{\"sql\":\"SELECT 1\"}")));
        assertThat(d).isEqualTo(DecisionParser.parse("{\"thought\":\"count them\",\"tool\":\"run_sql\",\"args\":{\"sql\":\"SELECT 1\"}}"));
    }

    @Test
    void final_answer_ends_the_run_with_its_kind() throws Exception {
        Decision d = NativeCalls.read(reply("", new ToolCall("x", "final_answer",
                "{\"answer\":\"Which year?\",\"kind\":\"clarification\"}")));
        assertThat(d).isInstanceOfSatisfying(Decision.Answer.class, a -> {
            assertThat(a.text()).isEqualTo("Which year?");
            assertThat(a.kind()).isEqualTo(AnswerKind.CLARIFICATION);
            assertThat(a.raw()).isEqualTo("{\"final_answer\":\"Which year?\",\"kind\":\"clarification\"}");
        });
    }

    @Test
    void a_reply_without_a_call_is_read_as_json_or_refused() throws Exception {
        assertThat(NativeCalls.read(reply("{\"final_answer\":\"42\"}"))).isInstanceOf(Decision.Answer.class);
        assertThatThrownBy(() -> NativeCalls.read(reply("Let me look at the tables first.")))
                .isInstanceOf(UnreadableReplyException.class)
                .hasMessage("Your reply called no tool. Call exactly one of the tools offered, or final_answer to finish.");
    }

    @Test
    void malformed_calls_are_refused_with_what_was_wrong() {
        assertThatThrownBy(() -> NativeCalls.read(reply("", new ToolCall("a", "run_sql", "{}"),
                new ToolCall("b", "inspect_data", "{}"))))
                .hasMessage("Your reply called 2 tools at once (run_sql, inspect_data); none was run. Call one tool per"
                        + " reply and read its result before the next.");
        assertThatThrownBy(() -> NativeCalls.read(reply("", new ToolCall("a", "run_sql", "[\"SELECT 1\"]"))))
                .hasMessage("Your call to run_sql has arguments that are a JSON array, not an object; none was run."
                        + " Send the arguments as one JSON object.");
        assertThatThrownBy(() -> NativeCalls.read(reply("", new ToolCall("a", "final_answer", "{\"kind\":\"answer\"}"))))
                .hasMessage("Your final_answer call has no \"answer\" text: put the answer for the user (or your question,"
                        + " or why the data cannot answer) in it.");
        assertThatThrownBy(() -> NativeCalls.read(reply("", new ToolCall("a", "final_answer",
                "{\"answer\":\"x\",\"kind\":\"maybe\"}"))))
                .hasMessage("Unknown \"kind\" 'maybe': use \"answer\", \"clarification\" or \"declined\" (or leave it out"
                        + " for an answer).");
        assertThatThrownBy(() -> NativeCalls.read(reply("", new ToolCall("a", "final_answer",
                "{\"answer\":\"x\",\"confidence\":0.9}"))))
                .hasMessage("final_answer takes \"answer\" and \"kind\"; it does not know \"confidence\".");
    }

    @Test
    void every_registered_tool_has_a_definition_from_its_typed_arguments_and_final_answer_comes_last() {
        List<ToolDefinition> defs = NativeCalls.definitions(Sift.defaultTools().tools());
        assertThat(defs).hasSize(Sift.defaultTools().tools().size() + 1);
        assertThat(defs.get(defs.size() - 1).name()).isEqualTo("final_answer");
        assertThat(defs.get(defs.size() - 1).parameters().get("required").toString()).isEqualTo("[\"answer\"]");
        assertThat(defs).allSatisfy(d -> {
            assertThat(d.description()).isNotBlank();
            assertThat(d.parameters().get("type").asText()).isEqualTo("object");
            assertThat(d.parameters().get("additionalProperties").asBoolean()).isFalse();
        });
    }
}
