package dev.sift.knowledge;

import dev.sift.Sift;
import dev.sift.agent.AgentConfig;
import dev.sift.agent.AgentLoop;
import dev.sift.agent.AgentRun;
import dev.sift.agent.AnswerKind;
import dev.sift.data.Dataset;
import dev.sift.data.DatasetStore;
import dev.sift.data.Progress;
import dev.sift.data.Workspace;
import dev.sift.data.source.ShopGenerator;
import dev.sift.planner.RulePlanner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The user's own knowledge file, $SIFT_HOME/kg/<dataset>.kg.yaml, overlays the automatic graph. */
class UserKnowledgeFileTest {
    @TempDir
    Path home;

    @Test
    void a_metric_defined_in_the_users_file_is_answered_offline_and_an_edit_is_seen_at_once() throws Exception {
        Dataset ds = new DatasetStore(home.resolve("datasets")).ensure("shop", new ShopGenerator(ShopGenerator.DEFAULT_SEED),
                Progress.NONE);
        Path kg = Files.createDirectories(home.resolve("kg")).resolve("shop.kg.yaml");
        assertThat(KgLoader.userPath(ds)).isEqualTo(kg);
        try (Workspace ws = Workspace.open(ds, Workspace.Limits.defaults())) {
            assertThat(Knowledge.of(ws).graph().metrics()).isEmpty();
            Files.copy(Path.of("bench/shop.kg.yaml"), kg);
            AgentRun run = new AgentLoop(new RulePlanner(), Sift.defaultTools(), ws, null, AgentConfig.defaults())
                    .run("What is the revenue by category?");
            assertThat(run.kind()).as(run.answer()).isEqualTo(AnswerKind.ANSWER);
            assertThat(run.evidence().get(0).rows()).containsExactlyInAnyOrderElementsOf(ws.query("SELECT p.category,"
                    + " sum(CASE WHEN o.status <> 'cancelled' THEN o.quantity * p.unit_price END) FROM orders o JOIN products p"
                    + " USING (product_id) GROUP BY 1").rows());

            Files.writeString(kg, "metrics:\n  - {name: margin, expression: \"sum(orders.qty)\", grain: orders}\n");
            assertThatThrownBy(() -> Knowledge.of(ws)).isInstanceOf(KgException.class)
                    .hasMessageContaining(kg + ": metrics[margin]");
        }
    }
}
