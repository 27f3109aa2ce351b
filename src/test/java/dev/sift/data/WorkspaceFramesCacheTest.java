package dev.sift.data;

import dev.sift.TestDatasets;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The frame list is cached between statements, and every statement that can change frames drops it. */
class WorkspaceFramesCacheTest {
    @Test
    void frames_made_or_replaced_show_up_at_once() throws Exception {
        try (Workspace ws = Workspace.open(TestDatasets.bank(), Workspace.Limits.defaults())) {
            assertThat(ws.frames()).isEmpty();
            ws.saveFrame("gold", "SELECT * FROM card WHERE type = 'gold'");
            assertThat(ws.frames()).extracting(TableInfo::name).containsExactly("gold");
            ws.trustedQuery("SELECT count(*) FROM frames.gold", 1);
            assertThat(ws.frames()).extracting(TableInfo::name).containsExactly("gold");
            ws.saveFrame("gold", "SELECT * FROM card WHERE type = 'gold' LIMIT 1");
            assertThat(ws.frames()).singleElement().satisfies(t -> assertThat(t.rows()).isEqualTo(1));
            ws.saveFrame("loans", "SELECT * FROM loan");
            assertThat(ws.frames()).extracting(TableInfo::name).containsExactlyInAnyOrder("gold", "loans");
            assertThat(ws.table("loans")).isPresent();
        }
    }
}
