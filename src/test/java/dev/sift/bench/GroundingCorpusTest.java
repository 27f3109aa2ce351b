package dev.sift.bench;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** The labelled corpus in bench/grounding: its mutations are what the generator makes, and the check meets its bar. */
class GroundingCorpusTest {
    private static final Path CORPUS = Path.of("bench/grounding");

    @Test
    void the_committed_mutations_are_the_generators() throws Exception {
        GroundingCorpus c = GroundingCorpus.load(CORPUS);
        assertThat(Files.readString(CORPUS.resolve("mutations.jsonl"))).isEqualTo(c.generatedMutations());
    }

    @Test
    void real_answers_raise_no_false_alarm_and_invented_numbers_are_caught() throws Exception {
        GroundingCorpus.Figures f = GroundingCorpus.load(CORPUS).measure(1);
        assertThat(f.real()).isGreaterThanOrEqualTo(50);
        assertThat(f.falseAlarms()).isEmpty();
        assertThat(f.mutations()).isGreaterThanOrEqualTo(150);
        assertThat(f.catchRate()).isGreaterThanOrEqualTo(0.95);
    }
}
