package dev.sift.llm;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ScriptedLlmTest {

    @Test
    void answersInOrderAndRecordsRequests() throws Exception {
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
    void exhaustionIsAnLlmExceptionAndStillRecorded() throws Exception {
        ScriptedLlm llm = new ScriptedLlm("only");
        llm.complete(LlmRequest.of(LlmMessage.user("a")));

        assertThatThrownBy(() -> llm.complete(LlmRequest.of(LlmMessage.user("b"))))
                .isInstanceOf(LlmException.class)
                .hasMessage("ScriptedLlm ran out of turns after 1 responses");
        assertThat(llm.requests()).hasSize(2);
    }

    @Test
    void emptyScriptFailsOnFirstTurn() {
        assertThatThrownBy(() -> new ScriptedLlm().complete(LlmRequest.of(LlmMessage.user("a"))))
                .hasMessage("ScriptedLlm ran out of turns after 0 responses");
    }

    @Test
    void functionResponderSeesEachRequest() throws Exception {
        ScriptedLlm llm = new ScriptedLlm(r -> r.jsonMode() ? "{}" : "echo: " + r.messages().get(0).content());

        assertThat(llm.complete(LlmRequest.of(LlmMessage.user("hi"))).text()).isEqualTo("echo: hi");
        assertThat(llm.complete(LlmRequest.of(LlmMessage.user("x")).withJsonMode(true)).text()).isEqualTo("{}");
        assertThat(llm.requests()).hasSize(2);
        assertThat(llm.describe()).isEqualTo("scripted (function)");
    }

    @Test
    void functionReturningNullIsAnLlmException() {
        ScriptedLlm llm = new ScriptedLlm(r -> null);
        assertThatThrownBy(() -> llm.complete(LlmRequest.of(LlmMessage.user("x"))))
                .isInstanceOf(LlmException.class)
                .hasMessage("ScriptedLlm function returned no response for turn 1");
    }
}
