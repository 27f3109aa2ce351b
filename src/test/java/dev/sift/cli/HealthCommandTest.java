package dev.sift.cli;

import dev.sift.web.WebServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static dev.sift.cli.CliHarness.ok;
import static dev.sift.cli.CliHarness.run;
import static dev.sift.cli.CliHarness.usageError;
import static org.assertj.core.api.Assertions.assertThat;

/** {@code sift health} against a real server on port 0: healthy while it serves, unhealthy once it has stopped. */
class HealthCommandTest {
    @TempDir
    static Path home;

    @BeforeAll
    static void ownHome() {
        CliHarness.useHome(home);
    }

    @AfterAll
    static void clear() {
        CliHarness.clearHome();
    }

    @Test
    void a_serving_server_is_healthy_another_page_and_a_stopped_server_are_not() throws Exception {
        String url;
        try (WebServer server = WebServer.start(Runtime.offline(), WebServer.Options.defaults().withPort(0))) {
            url = server.url() + "/health";
            assertThat(ok("health", "--url", url).out()).isEqualTo("healthy: " + url + "\n");

            CliHarness.Result page = run("health", "--url", server.url() + "/no-such-page");
            assertThat(page.exit()).isEqualTo(HealthCommand.UNHEALTHY);
            assertThat(page.errLines()).singleElement().asString()
                    .startsWith("sift: unhealthy: " + server.url() + "/no-such-page answered 404 {");
        }
        CliHarness.Result down = run("health", "--url", url, "--timeout", "2");
        assertThat(down.exit()).isEqualTo(HealthCommand.UNHEALTHY);
        assertThat(down.out()).isEmpty();
        assertThat(down.errLines()).singleElement().asString().startsWith("sift: unhealthy: " + url + " did not answer (")
                .endsWith("); is 'sift serve' running there?");
    }

    @Test
    void an_address_that_is_not_http_or_a_timeout_under_a_second_is_a_usage_error() {
        assertThat(usageError("health", "--url", "ftp://example.org/health")).isEqualTo("sift: error: --url"
                + " 'ftp://example.org/health' must be an http(s) address with a host, e.g. http://127.0.0.1:7860/health");
        assertThat(usageError("health", "--url", "http://exa mple/health")).startsWith("sift: error: --url"
                + " 'http://exa mple/health' is not a URL: ");
        assertThat(usageError("health", "--timeout", "0")).isEqualTo("sift: error: --timeout must be at least 1 second,"
                + " got 0");
    }
}
