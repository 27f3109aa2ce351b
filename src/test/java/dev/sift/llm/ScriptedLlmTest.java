package dev.sift.llm;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ScriptedLlmTest {

    @Test
    void answers_in_order_and_records_requests() throws Exception {
        ScriptedLlm llm = new ScriptedLlm(List.of("first", "second"));
        LlmRequest r1 = LlmRequest.of(LlmMessage.user("one"));
        LlmRequest r2 = LlmRequest.of(LlmMessage.system("s"), LlmMessage.user("two")).withJsonMode(true);

        LlmResponse a1 = llm.complete(r1);
        LlmResponse a2 = llm.complete(r2);

        assertThat(a1.text()).isEqualTo("first");
        assertThat(a2.text()).isEqualTo("second");
        assertThat(a1.cached()).isFalse();
        assertThat(a1.model()).isEqualTo("scripted");
        assertThat(a1.outputTokens()).isEqualTo(2); // "first" = 5 chars ~ 2 tokens
        assertThat(llm.requests()).containsExactly(r1, r2);
        assertThat(llm.lastRequest()).isEqualTo(r2);
        assertThat(llm.served()).isEqualTo(2);
        assertThat(llm.describe()).isEqualTo("scripted (2 canned responses)");
    }

    @Test
    void exhaustion_is_an_llm_exception_and_still_recorded() throws Exception {
        ScriptedLlm llm = new ScriptedLlm("only");
        llm.complete(LlmRequest.of(LlmMessage.user("a")));

        assertThatThrownBy(() -> llm.complete(LlmRequest.of(LlmMessage.user("b"))))
                .isInstanceOf(LlmException.class)
                .hasMessage("ScriptedLlm ran out of turns after 1 responses");
        assertThat(llm.requests()).hasSize(2);
    }

    @Test
    void empty_script_fails_on_first_turn() {
        assertThatThrownBy(() -> new ScriptedLlm().complete(LlmRequest.of(LlmMessage.user("a"))))
                .hasMessage("ScriptedLlm ran out of turns after 0 responses");
    }

    @Test
    void function_responder_sees_each_request() throws Exception {
        ScriptedLlm llm = new ScriptedLlm(r -> r.jsonMode() ? "{}" : "echo: " + r.messages().get(0).content());

        assertThat(llm.complete(LlmRequest.of(LlmMessage.user("hi"))).text()).isEqualTo("echo: hi");
        assertThat(llm.complete(LlmRequest.of(LlmMessage.user("x")).withJsonMode(true)).text()).isEqualTo("{}");
        assertThat(llm.requests()).hasSize(2);
        assertThat(llm.describe()).isEqualTo("scripted (function)");
    }

    @Test
    void function_returning_null_is_an_llm_exception() {
        ScriptedLlm llm = new ScriptedLlm(r -> null);
        assertThatThrownBy(() -> llm.complete(LlmRequest.of(LlmMessage.user("x"))))
                .isInstanceOf(LlmException.class)
                .hasMessage("ScriptedLlm function returned no response for turn 1");
    }
}
