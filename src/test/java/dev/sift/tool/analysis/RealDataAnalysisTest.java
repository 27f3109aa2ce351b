package dev.sift.tool.analysis;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sift.Sift;
import dev.sift.data.Dataset;
import dev.sift.data.DatasetStore;
import dev.sift.data.Progress;
import dev.sift.data.Workspace;
import dev.sift.data.source.PkddLoader;
import dev.sift.tool.ToolContext;
import dev.sift.tool.ToolRegistry;
import dev.sift.tool.ToolResult;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The analysis tools on the real PKDD'99 files (skipped when ../shared/data/berka is absent). */
class RealDataAnalysisTest {
    static final Path REAL = Path.of("..", "shared", "data", "berka");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ToolRegistry TOOLS = Sift.defaultTools();
    @TempDir
    static Path store;
    private static Workspace ws;

    @BeforeAll
    static void open() throws Exception {
        assumeTrue(Files.isDirectory(REAL), "../shared/data/berka not found: real PKDD'99 files are not in this"
                + " checkout; skipping");
        Dataset real = new DatasetStore(store).ensure("pkdd", new PkddLoader(REAL), Progress.NONE);
        ws = Workspace.open(real, Workspace.Limits.defaults());
    }

    @AfterAll
    static void close() {
        if (ws != null) {
            ws.close();
        }
    }

    private static ToolResult call(String tool, String args) throws Exception {
        return TOOLS.run(TOOLS.prepare(tool, JSON.readTree(args), ws), new ToolContext(ws, null, "q"));
    }

    @Test
    void profile_of_the_real_loans_gives_the_known_status_counts() throws Exception {
        ProfileData.Profile p = (ProfileData.Profile) call("profile_data", "{\"source\":\"loan\",\"columns\":[\"status\"]}")
                .payload();
        assertThat(p.rows()).isEqualTo(682);
        assertThat(p.columns().get(0).top()).extracting(v -> v.value() + " " + v.rows())
                .containsExactly("C 403", "A 203", "D 45", "B 31");
    }

    @Test
    void quality_of_the_real_districts_finds_the_two_missing_values_of_district_69() throws Exception {
        DataQualityReport.Report r = (DataQualityReport.Report) call("data_quality_report", "{\"source\":\"district\"}")
                .payload();
        assertThat(r.findings()).filteredOn(f -> f.check().equals("missing values"))
                .extracting(f -> f.column() + " " + f.count() + " " + f.example())
                .containsExactlyInAnyOrder("A12 1 A1 69", "A15 1 A1 69");
    }

    @Test
    void the_real_cards_have_no_orphans_along_the_inferred_join() throws Exception {
        DataQualityReport.Report r = (DataQualityReport.Report) call("data_quality_report", "{\"source\":\"card\"}").payload();
        assertThat(r.checks()).contains("orphans along card.disp_id = disp.disp_id (approved join in the knowledge graph)");
        assertThat(r.findings()).noneMatch(f -> f.check().equals("orphan foreign keys"));
    }
}
