package dev.sift.text;

import org.junit.jupiter.api.Test;

import java.util.Locale;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/** The rendering's hand-written text helpers write exactly what the formatter and the regular expression wrote. */
class ResultTextTest {
    @Test
    void counts_are_grouped_by_thousands_as_the_formatter_groups_them() {
        long[] samples = {0, 7, 999, 1000, -1000, 12_345, -999_999, 1_000_000, 4_000, Long.MAX_VALUE, Long.MIN_VALUE,
                Long.MIN_VALUE + 1, -1};
        for (long n : samples) {
            assertThat(ResultText.count(n)).as("%d", n).isEqualTo(String.format(Locale.ROOT, "%,d", n));
        }
        Random random = new Random(42);
        for (int i = 0; i < 10_000; i++) {
            long n = random.nextLong() >> random.nextInt(64);
            assertThat(ResultText.count(n)).as("%d", n).isEqualTo(String.format(Locale.ROOT, "%,d", n));
        }
    }

    @Test
    void runs_of_white_space_become_one_space_as_the_pattern_made_them() {
        String[] samples = {"", "plain", "a b", "a  b", " ", "  ", "\n", "a\n\n\tb", "a \r\n b ", "\t\tx", "x\t", "é\u00a0ü"};
        for (String s : samples) {
            assertThat(ResultText.collapseSpace(s)).as("'%s'", s).isEqualTo(s.replaceAll("[ \\t\\r\\n]+", " "));
        }
        assertThat(ResultText.collapseSpace("no runs here")).isSameAs("no runs here");
        Random random = new Random(7);
        char[] alphabet = {' ', '\t', '\r', '\n', 'a', 'b', '\u2028', '\u000b'};
        for (int i = 0; i < 20_000; i++) {
            char[] text = new char[random.nextInt(12)];
            for (int j = 0; j < text.length; j++) {
                text[j] = alphabet[random.nextInt(alphabet.length)];
            }
            String s = new String(text);
            assertThat(ResultText.collapseSpace(s)).as("'%s'", s).isEqualTo(s.replaceAll("[ \\t\\r\\n]+", " "));
        }
    }
}
