package dev.sift.tool.ml;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sift.Sift;
import dev.sift.TestDatasets;
import dev.sift.data.Workspace;
import dev.sift.tool.ToolContext;
import dev.sift.tool.ToolRegistry;
import dev.sift.tool.ToolResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

import static org.assertj.core.api.Assertions.assertThat;

/** Tests on the bundled bank's loan_default model m1, trained afresh on the task's frames before each test. */
abstract class OnLoanModel {
    static final ObjectMapper JSON = new ObjectMapper();
    final ToolRegistry tools = Sift.defaultTools();
    Workspace ws;
    ToolContext ctx;

    @BeforeEach
    void train() throws Exception {
        ws = Workspace.open(TestDatasets.bank(), Workspace.Limits.defaults());
        ctx = new ToolContext(ws, null, "q");
        assertThat(call("prediction_frames", "{\"task\":\"loan_default\"}").ok()).isTrue();
        ToolResult t = call("train_model", "{\"source\":\"loan_default_history\",\"target\":\"defaulted\",\"entity\":\"loan_id\"}");
        assertThat(t.ok()).as(t.error()).isTrue();
    }

    @AfterEach
    void close() {
        ws.close();
    }

    ToolResult call(String tool, String args) throws Exception {
        return tools.run(tools.prepare(tool, JSON.readTree(args), ws), ctx);
    }
}
