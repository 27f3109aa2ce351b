package dev.sift.bench;

import dev.sift.Sift;
import dev.sift.TestDatasets;
import dev.sift.agent.AgentConfig;
import dev.sift.bench.suite.Suite;
import dev.sift.data.Workspace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code bench run --include-predictive}: a predictive answer's model checked on labelled rows held back from it. */
class HeldBackTest {
    @TempDir
    Path home;

    private static final Pattern LINE = Pattern.compile("held-back check: held back (\\d+) labelled rows \\((\\d+) positive\\):"
            + " AUC (\\d\\.\\d{3}), precision@\\2 (\\d\\.\\d{3}); reported AUC (\\d\\.\\d{3})");

    @Test
    void a_predictive_answer_is_checked_on_labelled_rows_held_back_from_its_model_the_same_rows_every_time() throws Exception {
        Sift sift = new Sift(home, null, Workspace.Limits.defaults());
        Suite.Item item = new Suite.Item("p", Suite.Tier.PREDICTIVE, "Which running loans are likely to default?",
                "SELECT loan_id FROM loan WHERE status IN ('C', 'D')", Suite.Expect.PREDICTIVE, Suite.Scoring.ROW_SET, 0, null);
        Suite suite = new Suite("s", "bank", null, null, Path.of("s.yaml"), Map.of(), List.of(item));
        BenchRunner.ItemResult plain = new BenchRunner(sift, AgentConfig.defaults()).run(suite, TestDatasets.fullBank(), 0, null)
                .items().get(0);
        assertThat(plain.outcome()).isEqualTo(BenchRunner.Outcome.CORRECT);
        assertThat(plain.reason()).isNull();

        BenchRunner checked = new BenchRunner(sift, AgentConfig.defaults()).includePredictive(true);
        BenchRunner.ItemResult first = checked.run(suite, TestDatasets.fullBank(), 0, null).items().get(0);
        BenchRunner.ItemResult again = checked.run(suite, TestDatasets.fullBank(), 0, null).items().get(0);
        Matcher m = LINE.matcher(first.reason());
        assertThat(m.matches()).as(first.reason()).isTrue();
        assertThat(Integer.parseInt(m.group(2))).isPositive().isLessThan(Integer.parseInt(m.group(1)));
        double auc = Double.parseDouble(m.group(3));
        double reported = Double.parseDouble(m.group(5));
        boolean passes = auc > HeldBack.MIN_AUC && Math.abs(reported - auc) <= HeldBack.MAX_GAP + 0.0005;
        assertThat(first.outcome()).isEqualTo(passes ? BenchRunner.Outcome.CORRECT : BenchRunner.Outcome.WRONG);
        assertThat(again.reason()).isEqualTo(first.reason());

        // the small bank has too few defaults: without the held-back rows one class is left, and the check says so
        BenchRunner.ItemResult small = checked.run(suite, TestDatasets.bank(), 0, null).items().get(0);
        assertThat(small.outcome()).isEqualTo(BenchRunner.Outcome.ERROR);
        assertThat(small.reason()).startsWith("held-back check could not be made: the run's model could not be rebuilt"
                + " without its held-back rows: Target 'defaulted' has 1 distinct value (0): classification needs exactly"
                + " two classes.");
    }

    @Test
    void a_ranking_passes_when_it_beats_chance_and_the_reported_auc_is_within_a_tenth_of_the_held_back_one() {
        List<Object[]> ranked = List.of(new Object[] {"1", 0.9}, new Object[] {"0", 0.8}, new Object[] {"1", 0.7},
                new Object[] {"0", 0.1});
        HeldBack.Score near = HeldBack.score(ranked, "1", 0.8);
        assertThat(near.auc()).isEqualTo(0.75);
        assertThat(near.precisionAtK()).isEqualTo(0.5);
        assertThat(near.passes()).isTrue();
        assertThat(near.line()).isEqualTo("held back 4 labelled rows (2 positive): AUC 0.750, precision@2 0.500;"
                + " reported AUC 0.800");
        assertThat(HeldBack.score(ranked, "1", 0.9).passes()).as("reported 0.15 above what held-back rows show").isFalse();
        assertThat(HeldBack.score(ranked, "1", null).passes()).as("no reported AUC to check").isFalse();
        List<Object[]> reversed = List.of(new Object[] {"0", 0.9}, new Object[] {"1", 0.1});
        assertThat(HeldBack.score(reversed, "1", 0.1).passes()).as("worse than chance").isFalse();
    }

    @Test
    void the_reported_auc_is_read_from_the_training_step() {
        assertThat(HeldBack.reportedAuc("Quality: AUC 0.812 ± 0.030 over 5-fold cross-validation (31 positives)"))
                .isEqualTo(0.812);
        assertThat(HeldBack.reportedAuc("Quality: RMSE 3.1 over 5-fold cross-validation")).isNull();
        assertThat(HeldBack.reportedAuc(null)).isNull();
    }
}
