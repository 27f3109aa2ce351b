package dev.sift.image;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The image that {@code mvn -Pimage package} builds (target/sift-image.tar, a docker-load tarball): its config,
 * and — without any container engine — its file system run for real: the layers are unpacked and Sift is
 * started from them with chroot as the image's user, with /proc mounted in a private namespace as a container
 * runtime would: once for a question, once for its own command (the server on all interfaces, whose /health answers).
 * CI builds the image before the tests; elsewhere the test skips and says how to build it.
 */
class ContainerImageTest {
    static final Path TAR = Path.of("target/sift-image.tar");
    static final ObjectMapper JSON = new ObjectMapper();
    static JsonNode config;

    @BeforeAll
    static void image() throws Exception {
        assumeTrue(Files.isRegularFile(TAR), "target/sift-image.tar not found: build the image with"
                + " 'mvn -Pimage -DskipTests package' to test it; skipping");
        config = JSON.readTree(run(List.of("tar", "-xOf", TAR.toString(), "config.json"), 60)).get("config");
    }

    @Test
    void serves_on_all_interfaces_as_a_non_root_user_with_its_home_as_a_volume() throws Exception {
        JsonNode manifest = JSON.readTree(run(List.of("tar", "-xOf", TAR.toString(), "manifest.json"), 60)).get(0);
        assertThat(manifest.get("RepoTags").get(0).asText()).isEqualTo("sift:latest");
        assertThat(strings(config.get("Entrypoint"))).startsWith("/opt/java/bin/java").endsWith("dev.sift.cli.Main");
        assertThat(strings(config.get("Cmd"))).containsExactly("serve", "--host", "0.0.0.0");
        assertThat(config.get("User").asText()).isEqualTo("10001:10001");
        assertThat(config.get("ExposedPorts").has("7860/tcp")).isTrue();
        assertThat(config.get("Volumes").has("/data")).isTrue();
        assertThat(strings(config.get("Env"))).contains("SIFT_HOME=/data");
        // the health check: 'sift health' on the image's JRE (no shell in the image), a grace period for the first start
        JsonNode health = config.get("Healthcheck");
        assertThat(strings(health.get("Test"))).startsWith("CMD", "/opt/java/bin/java").endsWith("dev.sift.cli.Main", "health");
        assertThat(health.get("Interval").asLong()).isEqualTo(30_000_000_000L);
        assertThat(health.get("StartPeriod").asLong()).isGreaterThanOrEqualTo(120_000_000_000L);
        assertThat(health.get("Retries").asInt()).isEqualTo(3);
    }

    @Test
    void the_image_file_system_answers_a_question_as_its_user(@TempDir Path root) throws Exception {
        String inImage = unpack(root) + String.join(" ", strings(config.get("Entrypoint")));
        Files.writeString(root.resolve("tmp/products.csv"), "name,price\npen,5\nbook,20\npad,3\n");
        String out = run(List.of("unshare", "--mount", "--pid", "--fork", "sh", "-c", "mount -t proc proc " + root + "/proc"
                + " && " + inImage + " --version && " + inImage + " load shop /tmp/products.csv >/dev/null && " + inImage
                + " ask --dataset shop 'How many products are there?'"), 300);
        assertThat(out).startsWith("sift ").contains("There are 3 product").contains("[answer · status rule_based");
        try (var files = Files.list(root.resolve("data/datasets"))) {
            assertThat(files.map(p -> p.getFileName().toString())).contains("shop.duckdb");
        }
    }

    /** The image's own command (serve on all interfaces, with the token it requires) starts and answers /health. */
    @Test
    void the_image_default_command_serves_health_as_its_user_and_its_health_check_says_so(@TempDir Path root)
            throws Exception {
        String chrooted = unpack(root);
        // the image's command, on a free port instead of 7860
        String serve = chrooted.replace("env -i ", "env -i SIFT_TOKEN=image-test ")
                + String.join(" ", strings(config.get("Entrypoint"))) + " " + String.join(" ", strings(config.get("Cmd")))
                + " --port 0";
        Process p = new ProcessBuilder(List.of("unshare", "--mount", "--pid", "--fork", "sh", "-c",
                "mount -t proc proc " + root + "/proc && exec " + serve)).redirectErrorStream(true).start();
        String healthUrl;
        try {
            String url = servingUrl(p);
            assertThat(url).startsWith("http://0.0.0.0:");
            healthUrl = url.replace("0.0.0.0", "127.0.0.1") + "/health";
            HttpResponse<String> health = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(healthUrl))
                    .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(health.statusCode()).isEqualTo(200);
            assertThat(JSON.readTree(health.body()).path("status").asText()).isEqualTo("ok");
            assertThat(healthCheck(root, chrooted, healthUrl)).isZero();
        } finally {
            // the server changed its user, so it outlives unshare unless stopped itself (it is the namespace's init)
            p.descendants().forEach(ProcessHandle::destroy);
            p.destroy();
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
            }
        }
        assertThat(healthCheck(root, chrooted, healthUrl)).isEqualTo(1); // nothing serves there any more
    }

    /** The exit code of the image's health check command (its Test, run in the image) pointed at {@code url}. */
    private static int healthCheck(Path root, String chrooted, String url) throws Exception {
        List<String> test = strings(config.get("Healthcheck").get("Test"));
        Process check = new ProcessBuilder(List.of("unshare", "--mount", "--pid", "--fork", "sh", "-c", "mount -t proc proc "
                + root + "/proc && " + chrooted + String.join(" ", test.subList(1, test.size())) + " --url " + url))
                .redirectErrorStream(true).start();
        byte[] out = check.getInputStream().readAllBytes();
        assertThat(check.waitFor(120, TimeUnit.SECONDS)).as("the health check finished").isTrue();
        String text = new String(out, StandardCharsets.UTF_8);
        assertThat(text).contains(check.exitValue() == 0 ? "healthy: " + url : "sift: unhealthy: " + url);
        return check.exitValue();
    }

    /**
     * Where podman or Docker can run containers, the image starts as one (its own command), answers /health, and the
     * engine reports it healthy from the image's own health check.
     */
    @Test
    void the_image_runs_in_a_container_engine_and_answers_health() throws Exception {
        String engine = java.util.stream.Stream.of("podman", "docker").filter(ContainerImageTest::usable).findFirst()
                .orElse(null);
        assumeTrue(engine != null, "no podman or Docker engine that can run containers here (install podman, or start"
                + " the Docker daemon) to start the image; skipping");
        run(List.of(engine, "load", "-i", TAR.toString()), 300);
        // an engine that answers may still be unable to start containers (no cgroups, limits it may not set)
        Process probe = new ProcessBuilder(engine, "run", "--rm", "sift:latest", "--version").redirectErrorStream(true)
                .start();
        String probed = new String(probe.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        boolean started = probe.waitFor(120, TimeUnit.SECONDS) && probe.exitValue() == 0 && probed.contains("sift ");
        assumeTrue(started, () -> engine + " cannot start containers here (" + probed.lines()
                .filter(l -> l.startsWith("Error") || l.contains("denied")).findFirst().orElse(probed.strip())
                + "); inside a container, the runc runtime and limits the machine allows may help: see .ci/run's"
                + " containers.conf; skipping");
        // as the README runs it: a named volume for /data, which the image's user must be able to write to
        String volume = "sift-image-test-" + ProcessHandle.current().pid();
        String id = run(List.of(engine, "run", "-d", "-e", "SIFT_TOKEN=image-test", "-p", "127.0.0.1::7860",
                "-v", volume + ":/data", "sift:latest"), 120).trim();
        id = id.substring(id.lastIndexOf('\n') + 1);
        try {
            String published = run(List.of(engine, "port", id, "7860/tcp"), 60).trim().split("\n")[0];
            URI health = URI.create("http://127.0.0.1:" + published.substring(published.lastIndexOf(':') + 1) + "/health");
            HttpClient http = HttpClient.newHttpClient();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(300); // the first start builds the demo dataset
            HttpResponse<String> answer = null;
            while (answer == null && System.nanoTime() < deadline) {
                try {
                    answer = http.send(HttpRequest.newBuilder(health).timeout(Duration.ofSeconds(10)).build(),
                            HttpResponse.BodyHandlers.ofString());
                } catch (IOException notYet) {
                    Thread.sleep(1000);
                }
            }
            assertThat(answer).as("GET %s within 300 s; the container's log:%n%s", health,
                    run(List.of(engine, "logs", id), 60)).isNotNull();
            assertThat(answer.statusCode()).isEqualTo(200);
            assertThat(JSON.readTree(answer.body()).path("status").asText()).isEqualTo("ok");
            // and the engine's own view, from the image's health check: podman runs it on request (its timers need
            // systemd), Docker on its own one interval after the start
            if (engine.equals("podman")) {
                run(List.of(engine, "healthcheck", "run", id), 120); // fails unless the check exits 0
            } else {
                String state = "";
                long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
                while (!state.equals("healthy") && System.nanoTime() < until) {
                    Thread.sleep(2000);
                    state = run(List.of(engine, "inspect", "--format", "{{.State.Health.Status}}", id), 60).trim();
                }
                assertThat(state).as("the container's health within 180 s").isEqualTo("healthy");
            }
        } finally {
            new ProcessBuilder(engine, "rm", "-f", id).redirectErrorStream(true).start().waitFor(60, TimeUnit.SECONDS);
            new ProcessBuilder(engine, "volume", "rm", "-f", volume).redirectErrorStream(true).start()
                    .waitFor(60, TimeUnit.SECONDS);
        }
    }

    /** Whether {@code engine} is installed and its daemon (or podman itself) answers. */
    private static boolean usable(String engine) {
        try {
            Process p = new ProcessBuilder(engine, "info").redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    /** The server's address from its "Sift is serving URL/ ..." line (it builds the demo dataset first). */
    private static String servingUrl(Process p) throws Exception {
        var lines = new java.io.BufferedReader(new java.io.InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        var found = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            StringBuilder seen = new StringBuilder();
            try {
                for (String line; (line = lines.readLine()) != null; ) {
                    seen.append(line).append('\n');
                    var m = java.util.regex.Pattern.compile("Sift is serving (http://\\S+?)/ ").matcher(line);
                    if (m.find()) {
                        return m.group(1);
                    }
                }
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            throw new IllegalStateException("the image's server stopped before serving:\n" + seen);
        });
        return found.get(300, TimeUnit.SECONDS);
    }

    /** The image's layers unpacked into {@code root}; the start of a command line that runs a program there as its user. */
    private static String unpack(Path root) throws Exception {
        assumeTrue(System.getProperty("user.name").equals("root") && Files.isExecutable(Path.of("/usr/bin/unshare")) && Files.isExecutable(Path.of("/usr/sbin/chroot")),
                "running the image's file system needs root and unshare (util-linux); skipping");
        run(List.of("tar", "-xf", TAR.toAbsolutePath().toString(), "-C", root.toString()), 120);
        for (String layer : strings(JSON.readTree(Files.readString(root.resolve("manifest.json"))).get(0).get("Layers"))) {
            run(List.of("tar", "--warning=no-unknown-keyword", "-xzf", root.resolve(layer).toString(), "-C", root.toString()), 300);
        }
        Files.createDirectories(root.resolve("proc"));
        Files.setPosixFilePermissions(root, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x")); // as / is
        // the image has no shell: the host's sh mounts /proc, then each command runs chrooted as the image's user
        return "env -i SIFT_HOME=/data HOME=/home/sift /usr/sbin/chroot --userspec=10001:10001 " + root + " ";
    }

    static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    static String run(List<String> cmd, int seconds) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException(cmd + " did not finish in " + seconds + " s");
        }
        String text = new String(out, StandardCharsets.UTF_8);
        if (p.exitValue() != 0) {
            throw new IllegalStateException(cmd + " exited with " + p.exitValue() + ": " + text);
        }
        return text;
    }
}
