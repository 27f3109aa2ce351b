package dev.sift;

import dev.sift.data.Workspace;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/** Tests that each run on a fresh workspace over the bundled bank demo, opened before and closed after every test. */
public abstract class OnBankWorkspace {
    protected Workspace ws;

    @BeforeEach
    void openBankWorkspace() throws Exception {
        ws = Workspace.open(TestDatasets.bank(), Workspace.Limits.defaults());
    }

    @AfterEach
    void closeBankWorkspace() {
        ws.close();
    }
}
