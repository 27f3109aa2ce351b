package dev.sift.llm;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The {@link FakeLlmServer} of a test class: started once on an ephemeral port before the class's first test, reset
 * before every test (so no test sees another's replies, requests or hanging exchanges), closed after the last.
 * Register it as a static field: {@code @RegisterExtension static final FakeLlmServerExtension llm = new FakeLlmServerExtension();}
 */
final class FakeLlmServerExtension implements BeforeAllCallback, BeforeEachCallback, AfterAllCallback {
    private FakeLlmServer server;

    /** The running server; only inside a test or a method the test calls. */
    FakeLlmServer server() {
        if (server == null) {
            throw new IllegalStateException("the fake LLM server runs only while the class's tests run; register"
                    + " the extension on a static field");
        }
        return server;
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        server = FakeLlmServer.start();
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        server().reset();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (server != null) {
            server.close();
            server = null;
        }
    }
}
