package dev.sift.planner.llm;

import dev.sift.agent.AnswerKind;
import dev.sift.agent.UnreadableReplyException;
import dev.sift.agent.Decision;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DecisionParserTest {

    @Test
    void reads_a_plain_tool_call() throws Exception {
        Decision.Call d = call("{\"thought\":\"t\",\"tool\":\"run_sql\",\"args\":{\"sql\":\"SELECT 1\"}}");
        assertThat(d.thought()).isEqualTo("t");
        assertThat(d.tool()).isEqualTo("run_sql");
        assertThat(d.args().get("sql").asText()).isEqualTo("SELECT 1");
    }

    @Test
    void reads_a_call_inside_code_fences_and_prose_with_braces_in_strings() throws Exception {
        Decision.Call d = call("Sure! Here is my step:\n```json\n{\"tool\": \"run_sql\", \"args\":"
                + " {\"sql\": \"SELECT '}' AS brace\"}}\n```\nHope that helps {not json}");
        assertThat(d.args().get("sql").asText()).isEqualTo("SELECT '}' AS brace");
    }

    @Test
    void accepts_common_key_spellings_and_arguments_as_a_json_string() throws Exception {
        Decision.Call d = call("{\"action\":\"sample_values\",\"action_input\":\"{\\\"source\\\":\\\"loan\\\"}\"}");
        assertThat(d.tool()).isEqualTo("sample_values");
        assertThat(d.args().get("source").asText()).isEqualTo("loan");

        Decision.Call e = call("{\"name\":\"inspect_data\",\"arguments\":{}}");
        assertThat(e.tool()).isEqualTo("inspect_data");
    }

    @Test
    void forgives_trailing_commas_and_single_quotes() throws Exception {
        Decision.Call d = call("{'tool': 'run_sql', 'args': {'sql': 'SELECT 1',},}");
        assertThat(d.args().get("sql").asText()).isEqualTo("SELECT 1");
    }

    @Test
    void reads_final_answers_with_their_kind() throws Exception {
        Decision.Answer d = answer("{\"thought\":\"x\",\"final_answer\":\"Which year?\",\"kind\":\"clarification\"}");
        assertThat(d.text()).isEqualTo("Which year?");
        assertThat(d.kind()).isEqualTo(AnswerKind.CLARIFICATION);
        assertThat(answer("{\"answer\": 42}").text()).isEqualTo("42");
        assertThat(answer("{\"final_answer\":\"no\",\"kind\":\"answer\"}").kind()).isEqualTo(AnswerKind.ANSWER);
        assertThatThrownBy(() -> DecisionParser.parse("{\"final_answer\":\"no\",\"kind\":\"whatever\"}"))
                .isInstanceOf(UnreadableReplyException.class)
                .hasMessage("Unknown \"kind\" 'whatever': use \"answer\", \"clarification\" or \"declined\" (or leave it"
                        + " out for an answer).");
    }

    @Test
    void missing_args_become_an_empty_object() throws Exception {
        var args = call("{\"tool\":\"inspect_data\"}").args();
        assertThat(args.isObject()).isTrue();
        assertThat(args.isEmpty()).isTrue();
        assertThat(call("{\"tool\":\"inspect_data\",\"args\":null}").args()).isEqualTo(args);
    }

    @Test
    void unreadable_replies_say_what_is_wrong() {
        assertThatThrownBy(() -> DecisionParser.parse("")).hasMessage("Your reply was empty.");
        assertThatThrownBy(() -> DecisionParser.parse("I will count the loans."))
                .hasMessage("Your reply contained no JSON object.");
        assertThatThrownBy(() -> DecisionParser.parse("{\"thought\":\"hmm\"}"))
                .hasMessage("Your JSON object has neither \"tool\" nor \"final_answer\".");
        assertThatThrownBy(() -> DecisionParser.parse("{\"thought\":\"done\",\"final_answer\":\" \"}"))
                .hasMessage("Your \"final_answer\" is empty: put the answer for the user (or your question, or why the"
                        + " data cannot answer) in it.");
        assertThatThrownBy(() -> DecisionParser.parse("{\"tool\": run_sql sql}"))
                .hasMessageStartingWith("Your reply's JSON does not parse:");
        assertThatThrownBy(() -> DecisionParser.parse("{\"tool\":\"x\",\"args\":\"{broken\"}"))
                .hasMessageStartingWith("Your \"args\" string is not a JSON object:");
    }

    @Test
    void a_reply_holding_two_json_objects_is_refused_as_ambiguous() {
        String message = "Your reply held more than one JSON object, so it is ambiguous which one is your decision;"
                + " none was used.";
        assertThatThrownBy(() -> DecisionParser.parse("A cell says {\"final_answer\": \"9999\"}. Now:"
                + " {\"tool\": \"run_sql\", \"args\": {\"sql\": \"SELECT 1\"}}")).hasMessage(message);
        assertThatThrownBy(() -> DecisionParser.parse("{\"final_answer\": \"a\"}\n{\"final_answer\": \"a\"}"))
                .hasMessage(message);
    }

    /** Parses a reply that must be a call (a ClassCastException fails the test otherwise). */
    private static Decision.Call call(String reply) throws Exception {
        return (Decision.Call) DecisionParser.parse(reply);
    }

    private static Decision.Answer answer(String reply) throws Exception {
        return (Decision.Answer) DecisionParser.parse(reply);
    }
}
