package dev.sift.bench.dab;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class DabValidatorTest {
    static final DabValidator PYTHON = new DabValidator("python3", Duration.ofSeconds(3));

    @BeforeAll
    static void needsPython() {
        assumeTrue(PYTHON.unavailable() == null, "python3 is not installed: DataAgentBench validators need it; skipping");
    }

    static Path validator(Path dir, String body) throws Exception {
        Path p = dir.resolve("validate.py");
        Files.writeString(p, "def validate(llm_output: str):\n" + body.indent(4));
        return p;
    }

    @Test
    void a_matching_answer_passes_with_the_validators_reason(@TempDir Path dir) throws Exception {
        Path v = validator(dir, "return ('3.55' in llm_output, 'looked for 3.55')");
        assertThat(PYTHON.validate(v, "The average rating is 3.55.")).isEqualTo(new DabValidator.Verdict(true, "looked for 3.55", null));
        assertThat(PYTHON.validate(v, "The average rating is 4.")).isEqualTo(new DabValidator.Verdict(false, "looked for 3.55", null));
    }

    @Test
    void the_answer_reaches_the_validator_whole_including_quotes_and_newlines(@TempDir Path dir) throws Exception {
        String answer = "line one\n\"quoted\" 'and' $(not run)\nünïcode ✓";
        Path v = validator(dir, "return (llm_output == " + pyString(answer) + ", repr(llm_output))");
        assertThat(PYTHON.validate(v, answer).passed()).isTrue();
    }

    @Test
    void a_validator_that_raises_is_reported_not_thrown(@TempDir Path dir) throws Exception {
        Path v = validator(dir, "raise ValueError('bad ground truth')");
        DabValidator.Verdict verdict = PYTHON.validate(v, "anything");
        assertThat(verdict.passed()).isFalse();
        assertThat(verdict.error()).startsWith("the validator failed (exit 1): ").contains("ValueError: bad ground truth");
    }

    @Test
    void a_validator_that_hangs_is_stopped_at_its_time_limit(@TempDir Path dir) throws Exception {
        Path v = validator(dir, "import time\ntime.sleep(60)\nreturn (True, 'late')");
        long t0 = System.nanoTime();
        DabValidator.Verdict verdict = new DabValidator("python3", Duration.ofSeconds(1)).validate(v, "x");
        assertThat((System.nanoTime() - t0) / 1e9).isLessThan(10);
        assertThat(verdict).isEqualTo(new DabValidator.Verdict(false, null,
                "the validator did not finish within 1 s and was stopped"));
    }

    @Test
    void a_validator_that_prints_and_returns_a_bare_bool_still_gives_a_verdict(@TempDir Path dir) throws Exception {
        Path v = validator(dir, "print('debug output {not json}')\nreturn True");
        assertThat(PYTHON.validate(v, "x")).isEqualTo(new DabValidator.Verdict(true, "", null));
    }

    @Test
    void a_missing_python_is_named_with_how_to_get_it() {
        assertThat(new DabValidator("no-such-python-3", Duration.ofSeconds(1)).unavailable())
                .startsWith("no-such-python-3 was not found").endsWith("(e.g. apt-get install python3)");
    }

    private static String pyString(String s) {
        return "'" + s.replace("\\", "\\\\").replace("'", "\\'").replace("\n", "\\n") + "'";
    }
}
