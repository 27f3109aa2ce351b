package dev.sift.knowledge;

import org.junit.jupiter.api.Test;

import java.util.regex.PatternSyntaxException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The one phrase-pattern resource: every pattern compiles (they are compiled on first use), and names are checked. */
class PatternsTest {
    @Test
    void every_pattern_of_the_resource_compiles() {
        assertThat(Patterns.ALL.names()).contains("guard.change", "turn.abandon", "follow_up.what_about", "reply.filler",
                "hint.marker", "reword.leading_phrase", "parse.participle", "case.similar").hasSizeGreaterThan(40);
        for (String name : Patterns.ALL.names()) {
            try {
                assertThat(Patterns.ALL.get(name).pattern()).as(name).isNotBlank();
            } catch (PatternSyntaxException e) {
                throw new AssertionError("patterns.yaml: '" + name + "' does not compile: " + e.getMessage(), e);
            }
        }
        assertThat(Patterns.ALL.get("guard.change")).isSameAs(Patterns.ALL.get("guard.change"));
    }

    @Test
    void an_unknown_name_names_the_patterns_there_are() {
        assertThatThrownBy(() -> Patterns.ALL.get("turn.nope")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("patterns.yaml has no pattern 'turn.nope' (patterns: [reword.leading_phrase,");
    }
}
