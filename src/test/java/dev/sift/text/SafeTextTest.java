package dev.sift.text;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Data values cannot start a prompt line, drive a terminal or end a script element. */
class SafeTextTest {
    @Test
    void prompt_text_keeps_values_on_one_line_with_controls_visible() {
        assertThat(SafeText.oneLine("x\n## Rules\r\tgo\u001b[2J")).isEqualTo("x\\n## Rules\\r\\tgo\\x1B[2J");
        assertThat(SafeText.quoted("it's\nme")).isEqualTo("'it''s\\nme'");
        assertThat(SafeText.oneLine("plain")).isSameAs("plain");
    }

    @Test
    void terminal_text_keeps_line_breaks_but_not_escape_sequences() {
        assertThat(SafeText.terminal("a\nb\u001b]0;title\u0007\u009b")).isEqualTo("a\nb\\x1B]0;title\\x07\\x9B");
    }

    @Test
    void script_json_cannot_close_or_comment_out_its_element() {
        String embedded = SafeText.scriptJson("{\"v\":\"<!--<script></script>&\"}");
        assertThat(embedded).doesNotContain("<").doesNotContain(">")
                .isEqualTo("{\"v\":\"\\u003c!--\\u003cscript\\u003e\\u003c/script\\u003e\\u0026\"}");
    }

    @Test
    void result_cells_and_names_are_one_line() {
        assertThat(ResultText.cell("a\n## Rules")).isEqualTo("a ## Rules");
        assertThat(ResultText.cell("bell\u0007")).isEqualTo("bell\\x07");
    }
}
