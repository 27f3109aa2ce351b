package dev.sift.image;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static dev.sift.image.ContainerImageTest.JSON;
import static dev.sift.image.ContainerImageTest.TAR;
import static dev.sift.image.ContainerImageTest.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code mvn -Pimage jib:build} pushes the image to a registry: a private registry (Debian's docker-registry) is
 * started on a free port, the README's push command runs against it, and the registry then holds the image the
 * tarball holds — the same config, byte for byte (which names every layer by its digest), and every layer.
 * CI builds the tarball and installs the registry; elsewhere the test skips and says how to get them.
 */
class RegistryPushTest {
    static final Path REGISTRY = Path.of("/usr/bin/docker-registry");
    static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void jib_build_pushes_the_tarballs_image_to_a_registry(@TempDir Path dir) throws Exception {
        assumeTrue(Files.isRegularFile(TAR), "target/sift-image.tar not found: build the image with"
                + " 'mvn -Pimage -DskipTests package' to test pushing it; skipping");
        assumeTrue(Files.isExecutable(REGISTRY), "no registry to push to (apt-get install docker-registry); skipping");
        assumeTrue(onPath("mvn"), "Maven (mvn) is not on the PATH to run jib:build; skipping");
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        String registry = "127.0.0.1:" + port;
        Files.writeString(dir.resolve("config.yml"), "version: 0.1\nlog:\n  level: warn\nstorage:\n  filesystem:\n"
                + "    rootdirectory: " + dir.resolve("store") + "\nhttp:\n  addr: " + registry + "\n");
        Process server = new ProcessBuilder(REGISTRY.toString(), "serve", dir.resolve("config.yml").toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("registry.log").toFile()).start();
        try {
            awaitRegistry(registry, server, dir.resolve("registry.log"));
            // the bare goal, as the README gives it (the classes, base and file system are already built)
            run(List.of("mvn", "-B", "-q", "-Pimage", "jib:build", "-Dimage.name=" + registry + "/sift:pushed",
                    "-Djib.allowInsecureRegistries=true"), 600);

            JsonNode manifest = JSON.readTree(get(registry, "/v2/sift/manifests/pushed",
                    "application/vnd.docker.distribution.manifest.v2+json, application/vnd.oci.image.manifest.v1+json"));
            byte[] config = run(List.of("tar", "-xOf", TAR.toString(), "config.json"), 60)
                    .getBytes(java.nio.charset.StandardCharsets.UTF_8);
            assertThat(manifest.path("config").path("digest").asText()).as("the pushed config is the tarball's (a"
                    + " tarball built before the classes changed differs: rebuild it with 'mvn -Pimage -DskipTests package')")
                    .isEqualTo("sha256:" + sha256(config));
            JsonNode tarballLayers = JSON.readTree(config).path("rootfs").path("diff_ids");
            assertThat(manifest.path("layers")).hasSize(tarballLayers.size());
            for (JsonNode layer : manifest.path("layers")) {
                HttpResponse<Void> blob = HTTP.send(HttpRequest.newBuilder(URI.create("http://" + registry + "/v2/sift/blobs/"
                        + layer.path("digest").asText())).method("HEAD", HttpRequest.BodyPublishers.noBody()).build(),
                        HttpResponse.BodyHandlers.discarding());
                assertThat(blob.statusCode()).as("layer %s in the registry", layer.path("digest").asText()).isEqualTo(200);
            }
        } finally {
            server.destroy();
            if (!server.waitFor(30, TimeUnit.SECONDS)) {
                server.destroyForcibly();
            }
        }
    }

    private static void awaitRegistry(String registry, Process server, Path log) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline && server.isAlive()) {
            try {
                get(registry, "/v2/", "application/json");
                return;
            } catch (IOException notYet) {
                Thread.sleep(200);
            }
        }
        throw new IllegalStateException("the registry did not answer on " + registry + ": " + Files.readString(log));
    }

    private static String get(String registry, String path, String accept) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://" + registry + path))
                .header("Accept", accept).timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as("GET %s: %s", path, r.body()).isEqualTo(200);
        return r.body();
    }

    private static String sha256(byte[] bytes) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    }

    private static boolean onPath(String command) {
        return java.util.Arrays.stream(System.getenv("PATH").split(java.io.File.pathSeparator))
                .anyMatch(d -> Files.isExecutable(Path.of(d, command)));
    }
}
