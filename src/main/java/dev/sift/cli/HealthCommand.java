package dev.sift.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.Callable;

/**
 * Probes a running server's {@code /health}: exit 0 when it answers "ok", 1 otherwise, with the reason on stderr. The
 * container image's health check runs it (the image has no shell or curl); it opens no dataset.
 */
@Command(name = "health", description = "Check that a running 'sift serve' answers GET /health (exit 0 when healthy,"
        + " 1 otherwise); the container image's health check.")
final class HealthCommand implements Callable<Integer> {
    static final int UNHEALTHY = 1;

    @Spec
    CommandSpec spec;

    @Option(names = "--url", defaultValue = "http://127.0.0.1:7860/health",
            description = "the server's health address (default: ${DEFAULT-VALUE})")
    String url;

    @Option(names = "--timeout", defaultValue = "5", description = "seconds to wait for the answer (default: ${DEFAULT-VALUE})")
    int timeoutSeconds;

    @Override
    public Integer call() throws InterruptedException {
        URI target;
        try {
            target = URI.create(url);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--url '" + url + "' is not a URL: " + e.getMessage()
                    + " (e.g. http://127.0.0.1:7860/health)");
        }
        if (!"http".equals(target.getScheme()) && !"https".equals(target.getScheme()) || target.getHost() == null) {
            throw new IllegalArgumentException("--url '" + url + "' must be an http(s) address with a host, e.g."
                    + " http://127.0.0.1:7860/health");
        }
        if (timeoutSeconds < 1) {
            throw new IllegalArgumentException("--timeout must be at least 1 second, got " + timeoutSeconds);
        }
        Duration timeout = Duration.ofSeconds(timeoutSeconds);
        var err = spec.commandLine().getErr();
        try {
            HttpResponse<String> answer = HttpClient.newBuilder().connectTimeout(timeout).build().send(
                    HttpRequest.newBuilder(target).timeout(timeout).build(), HttpResponse.BodyHandlers.ofString());
            if (answer.statusCode() == 200 && "ok".equals(status(answer.body()))) {
                spec.commandLine().getOut().println("healthy: " + target);
                return 0;
            }
            err.println("sift: unhealthy: " + target + " answered " + answer.statusCode() + " "
                    + answer.body().strip().lines().findFirst().orElse(""));
        } catch (IOException e) {
            err.println("sift: unhealthy: " + target + " did not answer (" + e.getClass().getSimpleName()
                    + (e.getMessage() == null ? "" : ": " + e.getMessage()) + "); is 'sift serve' running there?");
        }
        return UNHEALTHY;
    }

    /** The body's "status", or null when it is not the health answer's JSON. */
    private static String status(String body) {
        try {
            return new ObjectMapper().readTree(body).path("status").asText(null);
        } catch (IOException notJson) {
            return null;
        }
    }
}
